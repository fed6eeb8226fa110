package library

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
)

// Limits of a number rule (spec 2 §3 bank config).
const (
	MaxPartLength = 10 // prefix, symbol, middle digits and digit length
	MaxDelayHours = 72 // hesitation period before a report is released
)

// Rule is a library's pathology number rule: Prefix, then MiddleDigits
// digits (usually the year), then Symbol, then a serial of DigitLength
// digits. Every part is optional; DigitLength 0 leaves the serial free-form
// (one or more allowed characters).
type Rule struct {
	Prefix       string
	MiddleDigits int
	Symbol       string
	DigitLength  int
}

// NumberField is the field that number errors are reported on.
const NumberField = "pathology_number"

// ValidChars reports whether s holds only the characters a pathology number
// may contain (spec 2 §5): ASCII digits, letters, underscore and hyphen.
func ValidChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Check returns nil when number follows the rule, else an *apperr.Error
// (code Invalid) with one field error on pathology_number:
// field.required, library.number_chars, or library.number_rule with an
// example of a valid number in {example}.
func (r Rule) Check(number string) error {
	if number == "" {
		return apperr.New(apperr.Invalid, "error.validation").Field(NumberField, "field.required")
	}
	if !ValidChars(number) {
		return apperr.New(apperr.Invalid, "error.validation").Field(NumberField, "library.number_chars")
	}
	if !r.matches(number) {
		return apperr.New(apperr.Invalid, "error.validation").Field(NumberField, "library.number_rule", "example", r.Example(""))
	}
	return nil
}

func (r Rule) matches(number string) bool {
	rest, ok := strings.CutPrefix(number, r.Prefix)
	if !ok || len(rest) < r.MiddleDigits || (r.MiddleDigits > 0 && !allDigits(rest[:r.MiddleDigits])) {
		return false
	}
	rest = rest[r.MiddleDigits:]
	if rest, ok = strings.CutPrefix(rest, r.Symbol); !ok {
		return false
	}
	if r.DigitLength == 0 {
		return rest != ""
	}
	return len(rest) == r.DigitLength && allDigits(rest)
}

// DefaultMiddle is the middle part for the date of now, a time in the
// operator's zone (clock.Clock.Local): 2 digits the year's last two, 4 the
// year, 6 year and month, 8 the date. Other lengths have no default ("").
func DefaultMiddle(digits int, now time.Time) string {
	switch digits {
	case 2:
		return now.Format("06")
	case 4:
		return now.Format("2006")
	case 6:
		return now.Format("200601")
	case 8:
		return now.Format("20060102")
	}
	return ""
}

// Example is a valid number of the rule, the first serial after head
// prefix+middle+symbol; an empty middle takes DefaultMiddle of today, or
// zeros.
func (r Rule) Example(middle string) string {
	if middle == "" && r.MiddleDigits > 0 {
		var today clock.Clock // the example only shows the form: today in the default zone will do
		if middle = DefaultMiddle(r.MiddleDigits, today.Local(today.Now())); middle == "" {
			middle = strings.Repeat("0", r.MiddleDigits)
		}
	}
	serial := "001"
	if r.DigitLength > 0 {
		serial = fmt.Sprintf("%0*d", r.DigitLength, 1)
	}
	return r.Prefix + middle + r.Symbol + serial
}

// Next returns the number after the highest serial among used that share
// the head prefix+middle+symbol; the first is serial 1. Used numbers that
// do not follow the rule are ignored. It fails with a Conflict
// (library.number_exhausted) when the serial no longer fits DigitLength.
func (r Rule) Next(middle string, used []string) (string, error) {
	head := r.Prefix + middle + r.Symbol
	var high uint64
	for _, u := range used {
		tail, ok := strings.CutPrefix(u, head)
		if !ok || !allDigits(tail) || (r.DigitLength > 0 && len(tail) != r.DigitLength) || len(tail) > 18 {
			continue
		}
		if n, err := strconv.ParseUint(tail, 10, 64); err == nil && n > high {
			high = n
		}
	}
	next := high + 1
	if r.DigitLength > 0 {
		s := fmt.Sprintf("%0*d", r.DigitLength, next)
		if len(s) > r.DigitLength {
			return "", apperr.New(apperr.Conflict, "library.number_exhausted")
		}
		return head + s, nil
	}
	return head + strconv.FormatUint(next, 10), nil
}

// CheckRange applies spec 2 §5 to a pathology number range (used by range
// searches, batch printing and archive ranges). start and end are split
// into alternating runs of digits and other characters, e.g. "BL2026-00017"
// → "BL" "2026" "-" "00017". It returns nil or an *apperr.Error (code
// Invalid) with field errors on "start" and/or "end":
//   - field.required: a bound is empty;
//   - library.number_chars: a bound holds other than digits, letters,
//     underscore and hyphen;
//   - library.range_parts: the non-digit parts (and the number of parts)
//     differ;
//   - library.range_digits: a digit part differs in length;
//   - library.range_order: start is greater than end.
func CheckRange(start, end string) error {
	var v apperr.Validation
	for _, b := range []struct{ field, val string }{{"start", start}, {"end", end}} {
		if b.val == "" {
			v.Add(b.field, "field.required")
		} else if !ValidChars(b.val) {
			v.Add(b.field, "library.number_chars")
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	a, b := runs(start), runs(end)
	if len(a) != len(b) {
		return apperr.New(apperr.Invalid, "error.validation").Field("end", "library.range_parts")
	}
	for i := range a {
		if allDigits(a[i]) != allDigits(b[i]) || !allDigits(a[i]) && a[i] != b[i] {
			return apperr.New(apperr.Invalid, "error.validation").Field("end", "library.range_parts")
		}
	}
	for i := range a {
		if allDigits(a[i]) && len(a[i]) != len(b[i]) {
			return apperr.New(apperr.Invalid, "error.validation").Field("end", "library.range_digits")
		}
	}
	// Equal lengths make the digit parts compare as numbers; the first
	// differing part decides.
	for i := range a {
		if c := strings.Compare(a[i], b[i]); c > 0 {
			return apperr.New(apperr.Invalid, "error.validation").Field("end", "library.range_order")
		} else if c < 0 {
			break
		}
	}
	return nil
}

// runs splits s into maximal runs of digits and of non-digits.
func runs(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := i + 1
		d := s[i] >= '0' && s[i] <= '9'
		for j < len(s) && (s[j] >= '0' && s[j] <= '9') == d {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}
