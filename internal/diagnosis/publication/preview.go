package publication

import (
	"context"
	"encoding/json"
	"html/template"
	"net/http"
	"strings"

	"telepath/internal/consultation"
	"telepath/internal/diagnosis"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
	"telepath/internal/report"
)

// Preview renders a case's report as PDF: for the site the latest released
// report, for experts the version they are working on (or the latest).
// diagnosisID picks a version (an earlier or a supplementary one).
func (s *Service) Preview(ctx context.Context, id, diagnosisID int64, baseURL string) ([]byte, error) {
	return s.render(ctx, id, diagnosisID, baseURL, nil)
}

// Redacted renders the current report of a case as Preview does, with
// edit applied to what it prints (a shared case's de-identified report).
func (s *Service) Redacted(ctx context.Context, id int64, edit func(*report.Data)) ([]byte, error) {
	return s.render(ctx, id, 0, "", edit)
}

func (s *Service) render(ctx context.Context, id, diagnosisID int64, baseURL string, edit func(*report.Data)) ([]byte, error) {
	versions, err := s.deps.Diagnoses.History(ctx, id)
	if err != nil {
		return nil, err
	}
	d := pick(versions, diagnosisID)
	if d == nil {
		return nil, apperr.New(apperr.NotFound, "diagnosis.no_report")
	}
	c, err := s.deps.Cases.Detail(ctx, id)
	if err != nil {
		return nil, err
	}
	lang := i18n.From(ctx)
	kind := "routine"
	if c.LibraryID != nil {
		if k, err := s.deps.ReportKind(ctx, *c.LibraryID); err == nil {
			kind = k
		}
	}
	data := s.reportData(lang, c, d)
	data.PrintedAt = s.now()
	if s.deps.Images != nil {
		data.Images = s.deps.Images(ctx, id)
	}
	if s.deps.MarkerResults != nil {
		data.Immunohistochemistry = s.deps.MarkerResults(ctx, lang, id, data.Immunohistochemistry)
	}
	if d.VerifyCode != "" {
		data.VerifyURL = strings.TrimRight(baseURL, "/") + "/verify/" + d.VerifyCode
	}
	if s.deps.Watermark != nil {
		data.Watermark = s.deps.Watermark(ctx)
	}
	if s.deps.Signature != nil {
		data.SignatureImage = s.deps.Signature(ctx, d.DoctorID)
	}
	if edit != nil {
		edit(&data)
	}
	layout := report.DefaultLayout(kind)
	if s.deps.ReportLayout != nil {
		if layout, err = s.deps.ReportLayout(ctx, kind); err != nil {
			return nil, err
		}
	}
	return report.Render(layout.Template(kind, lang), data)
}

func pick(versions []diagnosis.Diagnosis, id int64) *diagnosis.Diagnosis {
	for i := len(versions) - 1; i >= 0; i-- {
		if id == 0 && versions[i].Type == diagnosis.TypeNormal || versions[i].ID == id {
			return &versions[i]
		}
	}
	return nil
}

func (s *Service) reportData(lang i18n.Lang, c *consultation.Detail, d *diagnosis.Diagnosis) report.Data {
	var in consultation.CaseInput
	_ = json.Unmarshal(c.Case, &in) // a case saved by this server always decodes
	data := report.Data{
		Lang: lang, HospitalName: c.HospitalName, ReportNo: d.ReportNo, ReportClass: d.ReportClass, ConsultNo: c.ConsultNo, PathologyNumber: c.PathologyNumber,
		Patient: report.Patient{Name: in.Name, Gender: in.Gender, Age: in.Age, AgeUnit: in.AgeUnit,
			InspectionDepartment: in.InspectionDepartment, InspectionDoctor: in.InspectionDoctor, InspectionDate: in.InspectionDate,
			OutpatientNumber: in.OutpatientNumber, AdmissionNumber: in.AdmissionNumber, Ward: in.Ward, BedNo: in.BedNo,
			Phone: in.Phone, ClinicalDiagnosis: in.ClinicalDiagnosis, MedicalHistory: in.MedicalHistory},
		Gross: d.GrossDescription, Microscopic: d.Microscopic, Immunohistochemistry: in.Immunohistochemistry,
		Diagnosis: withVerdict(lang, d.FrozenVerdict, d.Opinion), Remark: d.Remark, CriticalValues: d.CriticalValues, Expert: d.DoctorName,
		Supplementary: d.Type == diagnosis.TypeSupplement, Version: d.Version, VerifyCode: d.VerifyCode, Location: s.clock.Zone(),
	}
	if c.CenterName != nil {
		data.CenterName = *c.CenterName
	}
	if d.ReviewerName != nil {
		data.Reviewer = *d.ReviewerName
	}
	data.ReportedAt = d.UpdatedAt
	if d.PublishedAt != nil {
		data.PublishedAt = *d.PublishedAt
	}
	for _, sp := range c.Specimens {
		r := report.Specimen{SerialNumber: sp.SerialNumber, Name: sp.Name, Part: sp.Part}
		for _, b := range sp.Blocks {
			r.Blocks = append(r.Blocks, b.Name)
		}
		data.Specimens = append(data.Specimens, r)
	}
	return data
}

var verifyTmpl = template.Must(template.New("verify").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,"PingFang SC","Noto Sans CJK SC",sans-serif;background:#f3f6fa;margin:0;padding:32px 16px;color:#1f2937}
main{max-width:520px;margin:auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 4px 24px rgba(0,40,100,.08)}
h1{font-size:20px;margin:0 0 16px}.ok{color:#15803d}.bad{color:#b91c1c}dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px}
dt{color:#6b7280}dd{margin:0}.note{margin-top:16px;color:#b45309}</style></head>
<body><main>{{if .V}}<h1 class="ok">✔ {{.Valid}}</h1><dl>
<dt>{{.L.no}}</dt><dd>{{.V.ReportNo}}{{if .V.Supplement}} ({{.L.supplement}}){{end}}</dd>
{{if .V.ReportClass}}<dt>{{.L.class}}</dt><dd>{{.V.ReportClass}}</dd>{{end}}
<dt>{{.L.hospital}}</dt><dd>{{.V.Hospital}}</dd><dt>{{.L.center}}</dt><dd>{{.V.Center}}</dd>
<dt>{{.L.patient}}</dt><dd>{{.V.Patient}}</dd><dt>{{.L.expert}}</dt><dd>{{.V.Expert}}</dd>
<dt>{{.L.published}}</dt><dd>{{.Published}}</dd></dl>{{if .V.Superseded}}<p class="note">{{.L.superseded}}</p>{{end}}
{{else}}<h1 class="bad">✘ {{.Invalid}}</h1>{{end}}</main></body></html>`))

// verifyPage is the public page a report's QR code opens.
func (s *Service) verifyPage(w http.ResponseWriter, r *http.Request) {
	lang := i18n.Parse(r.Header.Get("Accept-Language"))
	v, err := s.deps.Diagnoses.Verify(r.Context(), r.PathValue("code"))
	t := func(k string) string { return i18n.T(lang, "verify."+k, nil) }
	data := map[string]any{"Lang": string(lang), "Title": t("title"), "Valid": t("valid"), "Invalid": t("invalid"),
		"L": map[string]string{"no": t("no"), "hospital": t("hospital"), "center": t("center"), "patient": t("patient"),
			"expert": t("expert"), "published": t("published"), "supplement": t("supplement"), "superseded": t("superseded"), "class": t("report_class")}}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		w.WriteHeader(http.StatusNotFound)
	} else {
		data["V"], data["Published"] = v, v.PublishedAt.In(s.clock.Zone()).Format("2006-01-02 15:04")
	}
	verifyTmpl.Execute(w, data)
}

// withVerdict heads a frozen diagnosis with its intra-operative verdict.
func withVerdict(lang i18n.Lang, verdict, opinion string) string {
	if verdict == "" {
		return opinion
	}
	head := i18n.T(lang, "frozen.verdict."+verdict, nil)
	if opinion == "" {
		return head
	}
	return head + "\n" + opinion
}
