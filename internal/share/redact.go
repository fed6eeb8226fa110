package share

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"telepath/internal/consultation"
)

// A de-identified share's annotations are free text written by the case's
// doctors, who may have named the patient in them. Before a visitor gets
// them, every form of the patient's identifiers below is replaced, ignoring
// case:
//
//   - the name, whole, with or without spaces, dots or dashes between its
//     characters ("王芳", "王 芳", "wang fang"); a name in Latin letters also
//     loses each of its words of three letters or more, whole ("Smith" of
//     "John Smith"; "Li" of "Li Wei" is kept: too short to be told from
//     other words). A Chinese
//     name's surname or given name alone is kept: one or two characters
//     that are everyday words (王, 芳, 建国) would blank out the text.
//   - the ID number and the phone, their digits (and an ID's final X) with
//     or without spaces, dashes or dots between them; a phone of fewer than
//     seven digits is no identifier and is kept.
//   - the birthday, as 1949-12-31, 1949/12/31, 1949.12.31, 1949年12月31日
//     (leading zeros optional) or 19491231.
type redactor []*regexp.Regexp

// sep is what may stand between the characters of a written identifier.
const sep = `[\s\-.·・/]*`

// redactorOf is the redactor of a case's patient.
func redactorOf(in consultation.CaseInput) redactor {
	var r redactor
	add := func(pattern string) { r = append(r, regexp.MustCompile(`(?i)`+pattern)) }
	if name := strings.Join(strings.Fields(in.Name), ""); len([]rune(name)) >= 2 {
		add(spaced(name))
		for _, w := range strings.Fields(in.Name) {
			if len([]rune(w)) >= 3 && isLatin(w) {
				add(`\b` + regexp.QuoteMeta(w) + `\b`)
			}
		}
	}
	if id := strings.Map(keepIDChar, in.IDNumber); len(id) >= 6 {
		add(spaced(id))
	}
	if phone := strings.Map(keepDigit, in.Phone); len(phone) >= 7 {
		add(spaced(phone))
	}
	if d, err := time.Parse(time.DateOnly, in.Birthday); err == nil {
		y, m, day := strconv.Itoa(d.Year()), zeroOpt(int(d.Month())), zeroOpt(d.Day())
		add(y + `\s*[-/.年]\s*` + m + `\s*[-/.月]\s*` + day + `(\s*日)?`)
		add(d.Format("20060102"))
	}
	return r
}

// apply replaces every identifier in text by mark.
func (r redactor) apply(text, mark string) string {
	for _, re := range r {
		text = re.ReplaceAllLiteralString(text, mark)
	}
	return text
}

// spaced matches s with sep between its characters.
func spaced(s string) string {
	parts := make([]string, 0, len(s))
	for _, c := range s {
		parts = append(parts, regexp.QuoteMeta(string(c)))
	}
	return strings.Join(parts, sep)
}

// zeroOpt matches a month or day with or without its leading zero.
func zeroOpt(n int) string {
	if n < 10 {
		return "0?" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// keepIDChar keeps the digits and X of an ID number or phone.
func keepIDChar(c rune) rune {
	if c >= '0' && c <= '9' || c == 'x' || c == 'X' {
		return c
	}
	return -1
}

func keepDigit(c rune) rune {
	if c >= '0' && c <= '9' {
		return c
	}
	return -1
}

func isLatin(w string) bool {
	for _, c := range w {
		if !unicode.Is(unicode.Latin, c) {
			return false
		}
	}
	return true
}
