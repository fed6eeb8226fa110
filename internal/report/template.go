// Package report renders a signed diagnosis report to PDF.
//
// Render is a pure function of a Template (which sections appear, in which
// order, under which headings) and a Data value (the case, the expert's
// findings and the publication facts): no database, no HTTP. The HTTP layer
// loads both, calls Render and streams the bytes, for the report preview
// (GET /api/diagnosis/report/preview/{id}) and for the printable copy behind
// the public verification page.
//
// The PDF is A4 portrait with an embedded subset of a CJK TrueType font, so
// Chinese and English print the same everywhere.
package report

import (
	"fmt"
	"strings"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// Report kinds (spec 2 §3 Diagnosis).
const (
	KindRoutine = "routine"
	KindFrozen  = "frozen"
	KindCell    = "cell"
)

// Section keys.
const (
	SectionPatient      = "patient"
	SectionClinical     = "clinical"
	SectionSpecimens    = "specimens"
	SectionGross        = "gross"
	SectionMicroscopic  = "microscopic"
	SectionIHC          = "immunohistochemistry"
	SectionDiagnosis    = "diagnosis"
	SectionImages       = "images"
	SectionRemark       = "remark"
	SectionCritical     = "critical"
	SectionSignatures   = "signatures"
	SectionDates        = "dates"
	maxSections         = 30
	maxHeadingRunes     = 60
	maxTitleRunes       = 80
	maxFieldsPerSection = 40
)

// Message keys of the errors Validate and Render return.
const (
	KeyTemplateInvalid   = "report.template_invalid"
	KeyKindUnknown       = "report.template.kind_unknown"
	KeyTitleRequired     = "report.template.title_required"
	KeyTitleTooLong      = "report.template.title_too_long"
	KeySectionsRequired  = "report.template.sections_required"
	KeySectionsTooMany   = "report.template.sections_too_many"
	KeySectionUnknown    = "report.template.section_unknown"
	KeySectionDuplicate  = "report.template.section_duplicate"
	KeyHeadingTooLong    = "report.template.heading_too_long"
	KeyFieldUnknown      = "report.template.field_unknown"
	KeyFieldDuplicate    = "report.template.field_duplicate"
	KeyFieldsNotAllowed  = "report.template.fields_not_allowed"
	KeyFieldsTooMany     = "report.template.fields_too_many"
	KeyFieldsRequired    = "report.template.fields_required"
	keyImageUnavailable  = "report.image_unavailable"
	keySupplementary     = "report.supplementary"
	keyVersion           = "report.version"
	keyDisclaimer        = "report.disclaimer"
	keyPage              = "report.page"
	keyPrintedAt         = "report.printed_at"
	keyVerifyCode        = "report.verify_code"
	keyReportNo          = "report.report_no"
	keyReportClass       = "report.report_class"
	keySendingHospital   = "report.sending_hospital"
	keyExpert            = "report.signature.expert"
	keyReviewer          = "report.signature.reviewer"
	keyReportedAt        = "report.signature.reported_at"
	keyPublishedAt       = "report.signature.published_at"
	keySpecimenNo        = "report.specimen.no"
	keySpecimenName      = "report.specimen.name"
	keySpecimenPart      = "report.specimen.part"
	keySpecimenBlocks    = "report.specimen.blocks"
	keyNone              = "report.none"
	keyContinued         = "report.continued"
	keyAgeYear           = "report.age.year"
	keyAgeMonth          = "report.age.month"
	keyAgeDay            = "report.age.day"
	keyGenderMale        = "report.gender.male"
	keyGenderFemale      = "report.gender.female"
	keyGenderUnknown     = "report.gender.unknown"
	keyFieldPrefix       = "report.field."
	keySectionPrefix     = "report.section."
	keyTitlePrefix       = "report.title."
	keyHeadingFrozenDiag = "report.section.frozen_diagnosis"
	keyHeadingCellMicro  = "report.section.cell_microscopic"
)

// Template says which sections a report shows, in which order and under which
// headings. Kind is routine, frozen or cell. Templates are configured per
// center (spec 2 "report template designer"); DefaultTemplate gives one that
// needs no configuration.
type Template struct {
	Kind     string       `json:"kind" enum:"routine,frozen,cell"`
	Title    string       `json:"title" maxLength:"80"`
	Header   ReportHeader `json:"header"`
	Sections []Section    `json:"sections" maxItems:"30"`
}

// Section is one block of the report. Heading empty means the localized
// default heading of the key. Fields applies to the patient section only:
// which case fields its table shows, in order (see PatientFields).
type Section struct {
	Key     string   `json:"key"`
	Heading string   `json:"heading,omitempty" maxLength:"60"`
	Fields  []string `json:"fields,omitempty" maxItems:"40"`
}

// SectionKeys lists every section key Render knows.
var SectionKeys = []string{
	SectionPatient, SectionClinical, SectionSpecimens, SectionGross, SectionMicroscopic,
	SectionIHC, SectionDiagnosis, SectionImages, SectionRemark, SectionCritical, SectionSignatures, SectionDates,
}

// PatientFields lists every field key the patient table can show.
var PatientFields = func() []string {
	keys := make([]string, len(patientFields))
	for i, f := range patientFields {
		keys[i] = f.key
	}
	return keys
}()

// DefaultPatientFields is the patient table of the default templates. It
// leaves out what the default report prints elsewhere: the sending hospital
// (header), the specimens (their own table) and the clinical diagnosis (its
// own section).
var DefaultPatientFields = []string{
	"name", "gender", "age",
	"pathology_number", "consult_no", "inspection_date",
	"department", "doctor", "outpatient_number",
	"admission_number", "ward", "bed_no",
}

// DefaultTemplate returns the built-in template of a kind (routine when the
// kind is unknown) with headings in lang.
func DefaultTemplate(kind string, lang i18n.Lang) Template {
	var keys []string
	switch kind {
	case KindFrozen:
		keys = []string{SectionPatient, SectionClinical, SectionSpecimens, SectionGross, SectionDiagnosis,
			SectionImages, SectionRemark, SectionCritical, SectionSignatures, SectionDates}
	case KindCell:
		keys = []string{SectionPatient, SectionClinical, SectionSpecimens, SectionMicroscopic, SectionDiagnosis,
			SectionImages, SectionRemark, SectionCritical, SectionSignatures, SectionDates}
	default:
		kind = KindRoutine
		keys = []string{SectionPatient, SectionClinical, SectionSpecimens, SectionGross, SectionMicroscopic,
			SectionIHC, SectionDiagnosis, SectionImages, SectionRemark, SectionCritical, SectionSignatures, SectionDates}
	}
	t := Template{Kind: kind, Title: i18n.T(lang, keyTitlePrefix+kind, nil),
		Header: ReportHeader{Center: true, Hospital: true, ReportNo: true, Verify: true}}
	for _, k := range keys {
		s := Section{Key: k, Heading: defaultHeading(kind, k, lang)}
		if k == SectionPatient {
			s.Fields = append([]string(nil), DefaultPatientFields...)
		}
		t.Sections = append(t.Sections, s)
	}
	return t
}

func defaultHeading(kind, key string, lang i18n.Lang) string {
	switch {
	case kind == KindFrozen && key == SectionDiagnosis:
		return i18n.T(lang, keyHeadingFrozenDiag, nil)
	case kind == KindCell && key == SectionMicroscopic:
		return i18n.T(lang, keyHeadingCellMicro, nil)
	}
	return i18n.T(lang, keySectionPrefix+key, nil)
}

// Validate checks a configured template. It returns an *apperr.Error with code
// Invalid and key KeyTemplateInvalid ("template not configured correctly, so
// the report preview fails") whose field errors name the offending entries,
// e.g. "sections[2].key" or "sections[0].fields[3]".
func (t Template) Validate() error {
	var v apperr.Validation
	switch t.Kind {
	case KindRoutine, KindFrozen, KindCell:
	default:
		v.Add("kind", KeyKindUnknown, "kind", t.Kind)
	}
	title := strings.TrimSpace(t.Title)
	if title == "" {
		v.Add("title", KeyTitleRequired)
	} else if n := len([]rune(title)); n > maxTitleRunes {
		v.Add("title", KeyTitleTooLong, "max", maxTitleRunes)
	}
	switch {
	case len(t.Sections) == 0:
		v.Add("sections", KeySectionsRequired)
	case len(t.Sections) > maxSections:
		v.Add("sections", KeySectionsTooMany, "max", maxSections)
	}
	seen := map[string]bool{}
	for i, s := range t.Sections {
		at := fmt.Sprintf("sections[%d]", i)
		if !isSection(s.Key) {
			v.Add(at+".key", KeySectionUnknown, "key", s.Key)
			continue
		}
		if seen[s.Key] {
			v.Add(at+".key", KeySectionDuplicate, "key", s.Key)
		}
		seen[s.Key] = true
		if len([]rune(s.Heading)) > maxHeadingRunes {
			v.Add(at+".heading", KeyHeadingTooLong, "max", maxHeadingRunes)
		}
		if s.Key != SectionPatient {
			if len(s.Fields) > 0 {
				v.Add(at+".fields", KeyFieldsNotAllowed, "key", s.Key)
			}
			continue
		}
		if len(s.Fields) == 0 {
			v.Add(at+".fields", KeyFieldsRequired)
		}
		if len(s.Fields) > maxFieldsPerSection {
			v.Add(at+".fields", KeyFieldsTooMany, "max", maxFieldsPerSection)
		}
		used := map[string]bool{}
		for j, f := range s.Fields {
			fat := fmt.Sprintf("%s.fields[%d]", at, j)
			if patientField(f) == nil {
				v.Add(fat, KeyFieldUnknown, "field", f)
				continue
			}
			if used[f] {
				v.Add(fat, KeyFieldDuplicate, "field", f)
			}
			used[f] = true
		}
	}
	if err := v.Err(); err != nil {
		e := err.(*apperr.Error)
		e.Key = KeyTemplateInvalid
		return e
	}
	return nil
}

func isSection(key string) bool {
	for _, k := range SectionKeys {
		if k == key {
			return true
		}
	}
	return false
}

// fieldSpec is one cell of the patient table. A wide field takes a whole row:
// its value is free text that would be cramped in a third of the page.
type fieldSpec struct {
	key   string
	wide  bool
	value func(d *Data) string
}

var patientFields = []fieldSpec{
	{key: "name", value: func(d *Data) string { return d.Patient.Name }},
	{key: "gender", value: func(d *Data) string { return genderLabel(d.Lang, d.Patient.Gender) }},
	{key: "age", value: func(d *Data) string { return ageLabel(d.Lang, d.Patient.Age, d.Patient.AgeUnit) }},
	{key: "pathology_number", value: func(d *Data) string { return d.PathologyNumber }},
	{key: "consult_no", value: func(d *Data) string { return d.ConsultNo }},
	{key: "report_no", value: func(d *Data) string { return d.ReportNo }},
	{key: "hospital", value: func(d *Data) string { return d.HospitalName }},
	{key: "department", value: func(d *Data) string { return d.Patient.InspectionDepartment }},
	{key: "doctor", value: func(d *Data) string { return d.Patient.InspectionDoctor }},
	{key: "inspection_date", value: func(d *Data) string { return d.Patient.InspectionDate }},
	{key: "outpatient_number", value: func(d *Data) string { return d.Patient.OutpatientNumber }},
	{key: "admission_number", value: func(d *Data) string { return d.Patient.AdmissionNumber }},
	{key: "ward", value: func(d *Data) string { return d.Patient.Ward }},
	{key: "bed_no", value: func(d *Data) string { return d.Patient.BedNo }},
	{key: "id_number", value: func(d *Data) string { return d.Patient.IDNumber }},
	{key: "phone", value: func(d *Data) string { return d.Patient.Phone }},
	{key: "specimen_name", value: func(d *Data) string { return specimenNames(d.Specimens) }},
	{key: "clinical_diagnosis", wide: true, value: func(d *Data) string { return d.Patient.ClinicalDiagnosis }},
	{key: "medical_history", wide: true, value: func(d *Data) string { return d.Patient.MedicalHistory }},
}

func patientField(key string) *fieldSpec {
	for i := range patientFields {
		if patientFields[i].key == key {
			return &patientFields[i]
		}
	}
	return nil
}

func genderLabel(lang i18n.Lang, g string) string {
	switch g {
	case "male":
		return i18n.T(lang, keyGenderMale, nil)
	case "female":
		return i18n.T(lang, keyGenderFemale, nil)
	case "unknown":
		return i18n.T(lang, keyGenderUnknown, nil)
	}
	return g
}

func ageLabel(lang i18n.Lang, age, unit string) string {
	age = strings.TrimSpace(age)
	if age == "" {
		return ""
	}
	switch unit {
	case "month":
		return i18n.T(lang, keyAgeMonth, map[string]any{"n": age})
	case "day":
		return i18n.T(lang, keyAgeDay, map[string]any{"n": age})
	case "", "year":
		return i18n.T(lang, keyAgeYear, map[string]any{"n": age})
	}
	return age + " " + unit
}

func specimenNames(ss []Specimen) string {
	names := make([]string, 0, len(ss))
	for _, s := range ss {
		if n := strings.TrimSpace(s.Name); n != "" {
			names = append(names, n)
		}
	}
	return strings.Join(names, "; ")
}
