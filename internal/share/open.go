package share

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
	"telepath/internal/slideserver"
)

// TicketTTL is how long a visit's ticket opens the share's report and
// attachments (never past the share's own end).
const TicketTTL = 12 * time.Hour

// OpenInput is a visitor's request: the link's token and, for a secret
// share, the code.
type OpenInput struct {
	Token string `json:"c" minLength:"1" maxLength:"128" doc:"The token of the link /shareCase?c=…"`
	Code  string `json:"code,omitempty" maxLength:"32"`
}

// SharedView is what a visitor of a share sees: only what its options name.
type SharedView struct {
	Ticket       string           `json:"ticket" doc:"Opens the report and attachment URLs of this visit"`
	Number       string           `json:"number" doc:"The case's number, or the share's neutral number when de-identified"`
	Deidentified bool             `json:"deidentified"`
	SharedBy     string           `json:"shared_by"`
	SharedAt     time.Time        `json:"shared_at"`
	ExpiresAt    *time.Time       `json:"expires_at"`
	Watermark    string           `json:"watermark" doc:"The system watermark and \"shared by … on …\", drawn over the page"`
	Center       string           `json:"center"`
	Patient      SharedPatient    `json:"patient"`
	Clinical     *SharedClinical  `json:"clinical" doc:"Only when the share includes the clinical data"`
	Specimens    []SharedSpecimen `json:"specimens"`
	Slides       []SharedSlide    `json:"slides"`
	ReportURL    string           `json:"report_url" doc:"Only when the share includes the report and the case has one"`
	Attachments  []SharedFile     `json:"attachments"`
}

// SharedPatient is what a visitor sees of the patient: no name when de-identified,
// never an ID number, phone or birthday.
type SharedPatient struct {
	Name    string `json:"name,omitempty"`
	Gender  string `json:"gender"`
	Age     string `json:"age"`
	AgeUnit string `json:"age_unit"`
}

// SharedClinical is the case's clinical data.
type SharedClinical struct {
	ClinicalDiagnosis string `json:"clinical_diagnosis"`
	MedicalHistory    string `json:"medical_history"`
	OperationSeen     string `json:"operation_seen"`
	GenerallySeen     string `json:"generally_seen"`
	OtherTests        string `json:"other_tests"`
	ConsultPurpose    string `json:"consult_purpose"`
}

// SharedSpecimen is one specimen of the case.
type SharedSpecimen struct {
	Name string `json:"name"`
	Part string `json:"part"`
}

// SharedSlide is one slide with share-signed URLs (no label, macro or
// original file).
type SharedSlide struct {
	ID     int64               `json:"id"`
	Title  string              `json:"title"`
	Stain  string              `json:"stain"`
	Viewer *slideserver.Viewer `json:"viewer"`
	// AnnotationsURL reads the slide's annotations (GET), when the share includes them.
	AnnotationsURL string `json:"annotations_url,omitempty" doc:"The slide's annotations, read-only (GET), when the share includes them"`
}

// SharedFile is one attachment.
type SharedFile struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Size int64  `json:"size"`
	URL  string `json:"url"`
}

// unavailable is the one answer for a link that is unknown, expired or
// cancelled (or whose owner no longer sees the case).
func unavailable() error { return apperr.New(apperr.NotFound, "share.unavailable") }

// live loads a share by where, if it still opens.
func (s *Service) live(ctx context.Context, where sq.Sqlizer) (*shareRow, error) {
	r, err := s.load(ctx, s.db, where)
	if apperr.CodeOf(err) == apperr.NotFound || err == nil && !r.Phase.live() {
		return nil, unavailable()
	}
	return r, err
}

// asOwner is ctx read as the share's owner.
func (s *Service) asOwner(ctx context.Context, r *shareRow) (context.Context, *consultation.Detail, error) {
	p, err := s.deps.Owner(ctx, r.UserID)
	if err != nil {
		return nil, nil, unavailable()
	}
	octx := access.WithPrincipal(ctx, p)
	d, err := s.deps.Cases.Detail(octx, r.ConsultID)
	if err != nil {
		if code := apperr.CodeOf(err); code == apperr.NotFound || code == apperr.Forbidden {
			return nil, nil, unavailable()
		}
		return nil, nil, err
	}
	return octx, d, nil
}

// Open checks a visitor's link (and code) and shows the share. Wrong codes
// are throttled (throttle.go); every visit is recorded.
func (s *Service) Open(ctx context.Context, in OpenInput) (*SharedView, error) {
	if len(in.Token) > 128 {
		return nil, unavailable()
	}
	r, err := s.live(ctx, sq.Eq{"s.token_hash": hashToken(in.Token)})
	if err != nil {
		return nil, err
	}
	now := s.now()
	ip := access.MetaFrom(ctx).IP
	if r.Secret {
		wait, err := s.waitFor(ctx, r.ID, ip, now)
		if err != nil {
			return nil, err
		}
		if wait > 0 {
			return nil, apperr.New(apperr.TooMany, "share.too_many").With("seconds", int(wait.Seconds())+1)
		}
		if in.Code == "" {
			return nil, apperr.New(apperr.Forbidden, "share.code_required")
		}
		if !codeMatches(r, in.Code) {
			if err := s.countFailure(ctx, r.ID, ip, now); err != nil {
				return nil, err
			}
			return nil, apperr.New(apperr.Forbidden, "share.code_wrong")
		}
	}
	octx, d, err := s.asOwner(ctx, r)
	if err != nil {
		return nil, err
	}
	ticket := randomToken(16)
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if r.Secret {
			if err := clearFailures(ctx, tx, r.ID, ip); err != nil {
				return err
			}
		}
		return s.visit(ctx, tx, r, hashToken(ticket), "open")
	})
	if err != nil {
		return nil, err
	}
	return s.view(octx, r, d, ticket)
}

// visit records that the share was opened (what: open, report,
// attachment:<id>), with a new ticket when ticketHash is set.
func (s *Service) visit(ctx context.Context, tx *db.Tx, r *shareRow, ticketHash, what string) error {
	now := s.now()
	var th any
	if ticketHash != "" {
		th = ticketHash
	}
	ip := access.MetaFrom(ctx).IP
	if _, err := db.Exec(ctx, tx, tx.Builder().Insert("share_visits").Columns("share_id", "ticket_hash", "ip", "opened", "at").
		Values(r.ID, th, ip, what, now)); err != nil {
		return apperr.Wrap(err, "record share visit")
	}
	if _, err := db.Exec(ctx, tx, tx.Builder().Update("shares").Set("visits", sq.Expr("visits + 1")).Set("last_visit_at", now).
		Where("id = ?", r.ID)); err != nil {
		return apperr.Wrap(err, "count share visit")
	}
	return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "share.visit", ObjectType: "share", ObjectID: r.ID, CaseID: r.ConsultID,
		Username: "share:" + strconv.FormatInt(r.ID, 10), Message: what})
}

// view builds what the visitor sees, as the owner reads it.
func (s *Service) view(ctx context.Context, r *shareRow, d *consultation.Detail, ticket string) (*SharedView, error) {
	var in consultation.CaseInput
	_ = json.Unmarshal(d.Case, &in) // a case saved by this server always decodes
	v := &SharedView{Ticket: ticket, Number: d.ConsultNo, Deidentified: r.Deidentify, SharedBy: r.UserName, SharedAt: r.CreatedAt,
		ExpiresAt: r.ExpiresAt, Watermark: s.watermark(ctx, r),
		Patient:   SharedPatient{Name: in.Name, Gender: in.Gender, Age: in.Age, AgeUnit: in.AgeUnit},
		Specimens: []SharedSpecimen{}, Slides: []SharedSlide{}, Attachments: []SharedFile{}}
	if d.CenterName != nil {
		v.Center = *d.CenterName
	}
	if r.Deidentify {
		v.Number, v.Patient.Name = r.NeutralNo, ""
	}
	if r.WithClinical {
		v.Clinical = &SharedClinical{ClinicalDiagnosis: in.ClinicalDiagnosis, MedicalHistory: in.MedicalHistory, OperationSeen: in.OperationSeen,
			GenerallySeen: in.GenerallySeen, OtherTests: in.OtherTests, ConsultPurpose: in.ConsultPurpose}
	}
	for _, sp := range d.Specimens {
		v.Specimens = append(v.Specimens, SharedSpecimen{Name: sp.Name, Part: sp.Part})
	}
	lang := i18n.From(ctx)
	for i, sl := range d.Slides {
		if sl.Viewable != 1 {
			continue
		}
		vw, err := s.deps.Slides.ShareViewer(ctx, sl.ID, r.ID, !r.Deidentify)
		if err != nil {
			continue // not shown: the visitor sees the others
		}
		title := sl.Filename
		if r.Deidentify {
			title = i18n.T(lang, "share.slide_title", map[string]any{"n": i + 1})
			vw.Filename = title
		}
		shared := SharedSlide{ID: sl.ID, Title: title, Stain: sl.Ranse, Viewer: vw}
		if r.WithAnnotations {
			shared.AnnotationsURL = fmt.Sprintf("/api/share/v/%s/slides/%d/annotations", ticket, sl.ID)
		}
		v.Slides = append(v.Slides, shared)
	}
	base := "/api/share/v/" + ticket
	if r.WithReport && reported(d) {
		v.ReportURL = base + "/report"
	}
	if r.WithAttachments {
		for i, a := range d.Attachments {
			name := a.Filename
			if r.Deidentify {
				name = i18n.T(lang, "share.attachment_title", map[string]any{"n": i + 1}) + path.Ext(a.Filename)
			}
			v.Attachments = append(v.Attachments, SharedFile{ID: a.ID, Name: name, Size: a.Size, URL: fmt.Sprintf("%s/file/%d", base, a.ID)})
		}
	}
	return v, nil
}

// watermark is the system watermark and "shared by … on …".
func (s *Service) watermark(ctx context.Context, r *shareRow) string {
	return s.watermarkIn(ctx, r, i18n.From(ctx))
}

func (s *Service) watermarkIn(ctx context.Context, r *shareRow, lang i18n.Lang) string {
	by := i18n.T(lang, "share.watermark", map[string]any{"name": r.UserName, "date": r.CreatedAt.In(s.clock.Zone()).Format("2006-01-02")})
	if sys := s.deps.Watermark(ctx); sys != "" {
		return sys + " · " + by
	}
	return by
}

// byTicket loads the live share a visit's ticket opens.
func (s *Service) byTicket(ctx context.Context, ticket string) (*shareRow, error) {
	if len(ticket) > 64 {
		return nil, unavailable()
	}
	var v struct {
		ShareID int64     `db:"share_id"`
		At      time.Time `db:"at"`
	}
	err := db.Get(ctx, s.db, &v, s.db.Builder().Select("share_id", "at").From("share_visits").Where("ticket_hash = ?", hashToken(ticket)))
	if err != nil || s.now().Sub(v.At) > TicketTTL {
		return nil, unavailable()
	}
	return s.live(ctx, sq.Eq{"s.id": v.ShareID})
}

// Report renders the shared case's report for a visit: de-identified and
// watermarked as the share says.
func (s *Service) Report(ctx context.Context, ticket string) ([]byte, error) {
	r, err := s.byTicket(ctx, ticket)
	if err != nil {
		return nil, err
	}
	if !r.WithReport {
		return nil, unavailable()
	}
	octx, d, err := s.asOwner(ctx, r)
	if err != nil {
		return nil, err
	}
	if !reported(d) {
		return nil, unavailable()
	}
	pdf, err := s.deps.Report(octx, r.ConsultID, Redaction{Deidentify: r.Deidentify, Number: r.NeutralNo, Watermark: s.watermark(ctx, r)}.apply)
	if err != nil {
		return nil, err
	}
	return pdf, s.db.InTx(ctx, func(tx *db.Tx) error { return s.visit(ctx, tx, r, "", "report") })
}

// SlideGrant returns what share id shows of slide slideID, if it still
// shows it: the watermark drawn into its images, whether its label shows,
// and when the share ends (the slide server asks it for the URLs it issued
// to the share).
func (s *Service) SlideGrant(ctx context.Context, shareID, slideID int64) (slideserver.ShareGrant, bool) {
	var g slideserver.ShareGrant
	r, err := s.live(ctx, sq.Eq{"s.id": shareID})
	if err != nil {
		return g, false
	}
	_, d, err := s.asOwner(ctx, r)
	if err != nil || !slices.ContainsFunc(d.Slides, func(sl consultation.Slide) bool { return sl.ID == slideID }) {
		return g, false
	}
	g.Label, g.Watermark = !r.Deidentify, map[i18n.Lang]string{}
	for _, l := range i18n.Langs {
		g.Watermark[l] = s.watermarkIn(ctx, r, l)
	}
	if r.ExpiresAt != nil {
		g.Until = *r.ExpiresAt
	}
	return g, true
}

// Annotations returns, for a visit of a share that includes them, the
// annotations of one of its slides, read-only: everyone's sets the owner
// sees, the owner's first.
func (s *Service) Annotations(ctx context.Context, ticket string, slideID int64) ([]slideserver.AnnotationSet, error) {
	r, err := s.byTicket(ctx, ticket)
	if err != nil {
		return nil, err
	}
	if !r.WithAnnotations {
		return nil, unavailable()
	}
	octx, d, err := s.asOwner(ctx, r)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(d.Slides, func(sl consultation.Slide) bool { return sl.ID == slideID && sl.Viewable == 1 }) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	a, err := s.deps.Slides.Annotations(octx, slideID)
	if err != nil {
		return nil, err
	}
	out := []slideserver.AnnotationSet{}
	for _, set := range append([]slideserver.AnnotationSet{a.Mine}, a.Others...) {
		if len(set.Labels) > 0 {
			out = append(out, set)
		}
	}
	if r.Deidentify {
		redactLabels(ctx, d, out)
	}
	return out, s.db.InTx(ctx, func(tx *db.Tx) error {
		return s.visit(ctx, tx, r, "", "annotations:"+strconv.FormatInt(slideID, 10))
	})
}

// redactLabels takes the patient's identifiers out of the labels'
// descriptions (redact.go), in place: sets holds copies read for this visit.
func redactLabels(ctx context.Context, d *consultation.Detail, sets []slideserver.AnnotationSet) {
	var in consultation.CaseInput
	_ = json.Unmarshal(d.Case, &in) // a case saved by this server always decodes
	rd, mark := redactorOf(in), i18n.T(i18n.From(ctx), "share.redacted", nil)
	for _, set := range sets {
		for i := range set.Labels {
			set.Labels[i].Description = rd.apply(set.Labels[i].Description, mark)
		}
	}
}

// reported: the shared report is the signed one, never a draft.
func reported(d *consultation.Detail) bool { return d.Status == consultation.StatusCompleted }
