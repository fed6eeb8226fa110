package report

import (
	"fmt"
	"strings"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// Layout is a report template as an administrator configures it under
// /setting/report: the header elements, the sections in print order, each
// shown or hidden, with its heading in both languages. A report kind prints
// with the layout in use for that kind; Template(lang) is what Render draws.
type Layout struct {
	TitleZH  string          `json:"title_zh" doc:"Report title in Chinese"`
	TitleEN  string          `json:"title_en" doc:"Report title in English"`
	Header   ReportHeader    `json:"header"`
	Sections []LayoutSection `json:"sections" maxItems:"30" doc:"In print order"`
}

// Header says which elements the report's head prints.
type ReportHeader struct {
	Center   bool `json:"center" doc:"The diagnosing center's name above the title"`
	Hospital bool `json:"hospital" doc:"The sending hospital under the title"`
	ReportNo bool `json:"report_no" doc:"The report number under the title"`
	Verify   bool `json:"verify" doc:"QR code and verification code; required: it proves the report authentic"`
}

// LayoutSection is one section of a layout. Sections without a heading of
// their own (patient, signatures, dates) take no headings.
type LayoutSection struct {
	Key       string   `json:"key" doc:"patient, clinical, specimens, gross, microscopic, immunohistochemistry, diagnosis, images, remark, critical, signatures, dates"`
	Show      bool     `json:"show"`
	HeadingZH string   `json:"heading_zh,omitempty"`
	HeadingEN string   `json:"heading_en,omitempty"`
	Fields    []string `json:"fields,omitempty" maxItems:"40" doc:"Patient section only: the case fields of its table, in order"`
}

// Layout validation message keys.
const (
	KeyLayoutVerify       = "report.layout.verify_required"
	KeyLayoutHeading      = "report.layout.heading_required"
	KeyLayoutNoHeading    = "report.layout.heading_not_allowed"
	KeyLayoutTitle        = "report.layout.title_required"
	keyLayoutTitleTooLong = KeyTitleTooLong
)

// RequiredSections must be in every layout and shown: a report without its
// diagnosis or its signature is not a report.
var RequiredSections = []string{SectionDiagnosis, SectionSignatures}

// requiredKeys are the messages that say a required section is missing.
var requiredKeys = map[string]string{
	SectionDiagnosis:  "report.layout.required.diagnosis",
	SectionSignatures: "report.layout.required.signatures",
}

// Headless reports whether a section prints without a heading of its own.
func Headless(key string) bool {
	return key == SectionPatient || key == SectionSignatures || key == SectionDates
}

// DefaultLayout is the built-in layout of a kind (routine when unknown): the
// report as it printed before templates were configurable. Sections the kind
// does not print are listed hidden, so an editor can switch them on.
func DefaultLayout(kind string) Layout {
	zh, en := DefaultTemplate(kind, i18n.ZH), DefaultTemplate(kind, i18n.EN)
	l := Layout{TitleZH: zh.Title, TitleEN: en.Title, Header: ReportHeader{Center: true, Hospital: true, ReportNo: true, Verify: true}}
	shown := map[string]bool{}
	for i, s := range zh.Sections {
		shown[s.Key] = true
		l.Sections = append(l.Sections, layoutSection(s, en.Sections[i].Heading, true))
	}
	for _, k := range SectionKeys {
		if !shown[k] {
			s := Section{Key: k, Heading: defaultHeading(zh.Kind, k, i18n.ZH)}
			if k == SectionPatient {
				s.Fields = append([]string(nil), DefaultPatientFields...)
			}
			l.Sections = append(l.Sections, layoutSection(s, defaultHeading(zh.Kind, k, i18n.EN), false))
		}
	}
	return l
}

func layoutSection(s Section, en string, show bool) LayoutSection {
	ls := LayoutSection{Key: s.Key, Show: show, Fields: s.Fields}
	if !Headless(s.Key) {
		ls.HeadingZH, ls.HeadingEN = s.Heading, en
	}
	return ls
}

// Template returns what Render draws for a report of kind in lang: the shown
// sections in order with their headings in that language.
func (l Layout) Template(kind string, lang i18n.Lang) Template {
	t := Template{Kind: kind, Title: l.TitleZH, Header: l.Header}
	if lang == i18n.EN {
		t.Title = l.TitleEN
	}
	for _, s := range l.Sections {
		if !s.Show {
			continue
		}
		sec := Section{Key: s.Key, Heading: s.HeadingZH, Fields: s.Fields}
		if lang == i18n.EN {
			sec.Heading = s.HeadingEN
		}
		t.Sections = append(t.Sections, sec)
	}
	return t
}

// Normalize trims the texts of a layout before it is validated and stored.
func (l *Layout) Normalize() {
	l.TitleZH, l.TitleEN = strings.TrimSpace(l.TitleZH), strings.TrimSpace(l.TitleEN)
	for i := range l.Sections {
		s := &l.Sections[i]
		s.Key = strings.TrimSpace(s.Key)
		s.HeadingZH, s.HeadingEN = strings.TrimSpace(s.HeadingZH), strings.TrimSpace(s.HeadingEN)
		for j := range s.Fields {
			s.Fields[j] = strings.TrimSpace(s.Fields[j])
		}
	}
}

// Validate checks a layout; the field errors name the offending entries
// under prefix (e.g. "layout.sections[2].heading_zh").
func (l Layout) Validate(v *apperr.Validation, prefix string) {
	for _, f := range []struct{ name, text string }{{"title_zh", l.TitleZH}, {"title_en", l.TitleEN}} {
		switch n := len([]rune(f.text)); {
		case n == 0:
			v.Add(prefix+f.name, KeyLayoutTitle)
		case n > maxTitleRunes:
			v.Add(prefix+f.name, keyLayoutTitleTooLong, "max", maxTitleRunes)
		}
	}
	if !l.Header.Verify {
		v.Add(prefix+"header.verify", KeyLayoutVerify)
	}
	if len(l.Sections) > maxSections {
		v.Add(prefix+"sections", KeySectionsTooMany, "max", maxSections)
		return
	}
	seen := map[string]bool{}
	for i, s := range l.Sections {
		at := fmt.Sprintf("%ssections[%d]", prefix, i)
		if !isSection(s.Key) {
			v.Add(at+".key", KeySectionUnknown, "key", s.Key)
			continue
		}
		if seen[s.Key] {
			v.Add(at+".key", KeySectionDuplicate, "key", s.Key)
			continue
		}
		seen[s.Key] = true
		if isRequired(s.Key) && !s.Show {
			v.Add(at+".show", requiredKeys[s.Key])
		}
		if Headless(s.Key) {
			if s.HeadingZH != "" || s.HeadingEN != "" {
				v.Add(at+".heading_zh", KeyLayoutNoHeading)
			}
		} else {
			for _, h := range []struct{ name, text string }{{"heading_zh", s.HeadingZH}, {"heading_en", s.HeadingEN}} {
				switch n := len([]rune(h.text)); {
				case n == 0:
					v.Add(at+"."+h.name, KeyLayoutHeading)
				case n > maxHeadingRunes:
					v.Add(at+"."+h.name, KeyHeadingTooLong, "max", maxHeadingRunes)
				}
			}
		}
		if s.Key != SectionPatient {
			if len(s.Fields) > 0 {
				v.Add(at+".fields", KeyFieldsNotAllowed, "key", s.Key)
			}
			continue
		}
		if s.Show && len(s.Fields) == 0 {
			v.Add(at+".fields", KeyFieldsRequired)
		}
		if len(s.Fields) > maxFieldsPerSection {
			v.Add(at+".fields", KeyFieldsTooMany, "max", maxFieldsPerSection)
			continue
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
	for _, k := range RequiredSections {
		if !seen[k] {
			v.Add(prefix+"sections", requiredKeys[k])
		}
	}
}

func isRequired(key string) bool {
	for _, k := range RequiredSections {
		if k == key {
			return true
		}
	}
	return false
}
