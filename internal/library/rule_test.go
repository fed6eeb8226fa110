package library

import (
	"errors"
	"testing"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
)

// fieldKey returns the one field error of err as "field:key", "" for nil.
func fieldKey(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		t.Fatalf("not an apperr: %v", err)
	}
	if ae.Code != apperr.Invalid || len(ae.Fields) != 1 {
		t.Fatalf("want one field error, got %v", ae)
	}
	for f, msgs := range ae.Fields {
		return f + ":" + msgs[0].Key
	}
	return ""
}

func TestRuleCheck(t *testing.T) {
	year := time.Now().In(clock.Clock{}.Zone()).Format("2006")
	routine := Rule{Prefix: "BL", MiddleDigits: 4, Symbol: "-", DigitLength: 5}
	free := Rule{Prefix: "BD", MiddleDigits: 4, Symbol: "-"}
	none := Rule{}
	serialOnly := Rule{DigitLength: 6}
	for _, c := range []struct {
		name   string
		rule   Rule
		number string
		want   string
	}{
		{"OK", routine, "BL2026-00001", ""},
		{"OKOtherYear", routine, "BL1999-99999", ""},
		{"ErrRequired", routine, "", "pathology_number:field.required"},
		{"ErrSpace", routine, "BL2026 00001", "pathology_number:library.number_chars"},
		{"ErrChinese", routine, "BL2026-0000一", "pathology_number:library.number_chars"},
		{"ErrSlash", none, "A/1", "pathology_number:library.number_chars"},
		{"ErrPrefix", routine, "BD2026-00001", "pathology_number:library.number_rule"},
		{"ErrPrefixCase", routine, "bl2026-00001", "pathology_number:library.number_rule"},
		{"ErrMiddleShort", routine, "BL226-00001", "pathology_number:library.number_rule"},
		{"ErrMiddleLetters", routine, "BL20A6-00001", "pathology_number:library.number_rule"},
		{"ErrSymbol", routine, "BL2026_00001", "pathology_number:library.number_rule"},
		{"ErrSerialShort", routine, "BL2026-0001", "pathology_number:library.number_rule"},
		{"ErrSerialLong", routine, "BL2026-000001", "pathology_number:library.number_rule"},
		{"ErrSerialLetter", routine, "BL2026-0000A", "pathology_number:library.number_rule"},
		{"OKFreeForm", free, "BD2026-A_7", ""},
		{"ErrFreeFormEmpty", free, "BD2026-", "pathology_number:library.number_rule"},
		{"OKNoRule", none, "anything_1-2", ""},
		{"OKSerialOnly", serialOnly, "000123", ""},
		{"ErrSerialOnly", serialOnly, "X00123", "pathology_number:library.number_rule"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.rule.Check(c.number)
			if got := fieldKey(t, err); got != c.want {
				t.Fatalf("Check(%q) = %q, want %q", c.number, got, c.want)
			}
		})
	}
	t.Run("ExampleInMessage", func(t *testing.T) {
		var ae *apperr.Error
		errors.As(routine.Check("X"), &ae)
		if got := ae.Fields[NumberField][0].Args["example"]; got != "BL"+year+"-00001" {
			t.Fatalf("example %v", got)
		}
		if routine.Check(routine.Example("")) != nil || free.Check(free.Example("")) != nil || none.Check(none.Example("")) != nil {
			t.Fatal("an example breaks its own rule")
		}
	})
}

func TestRuleNext(t *testing.T) {
	routine := Rule{Prefix: "BL", MiddleDigits: 4, Symbol: "-", DigitLength: 5}
	for _, c := range []struct {
		name   string
		rule   Rule
		middle string
		used   []string
		want   string
		err    string
	}{
		{"First", routine, "2026", nil, "BL2026-00001", ""},
		{"AfterHighest", routine, "2026", []string{"BL2026-00003", "BL2026-00010", "BL2026-00002"}, "BL2026-00011", ""},
		{"OtherYearIgnored", routine, "2026", []string{"BL2025-00500"}, "BL2026-00001", ""},
		{"OffRuleIgnored", routine, "2026", []string{"BL2026-123456", "BL2026-0009X", "BL2026_00077"}, "BL2026-00001", ""},
		{"FreeForm", Rule{Prefix: "BD"}, "", []string{"BD7", "BD12", "BDX99"}, "BD13", ""},
		{"ErrExhausted", Rule{Prefix: "A", DigitLength: 2}, "", []string{"A99"}, "", "library.number_exhausted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.rule.Next(c.middle, c.used)
			if c.err != "" {
				if !apperr.Is(err, c.err) || apperr.CodeOf(err) != apperr.Conflict {
					t.Fatalf("err %v, want %s", err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("Next = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestDefaultMiddle(t *testing.T) {
	now := time.Date(2026, 12, 31, 17, 0, 0, 0, time.UTC) // already 1 January 2027 in China
	for digits, want := range map[int]string{2: "27", 4: "2027", 6: "202701", 8: "20270101", 3: "", 0: ""} {
		if got := DefaultMiddle(digits, now.In(clock.Clock{}.Zone())); got != want {
			t.Errorf("DefaultMiddle(%d) = %q, want %q", digits, got, want)
		}
	}
}

func TestCheckRange(t *testing.T) {
	for _, c := range []struct {
		name, start, end string
		want             []string // "field:key", in any order
	}{
		{"OK", "BL2026-00001", "BL2026-00100", nil},
		{"OKEqual", "BL2026-00001", "BL2026-00001", nil},
		{"OKDigitsOnly", "0001", "0999", nil},
		{"OKLettersOnly", "ABC", "ABC", nil},
		{"OKUnderscore", "A_01", "A_09", nil},
		{"OKEarlierYearLargerSerial", "BL2025-00900", "BL2026-00001", nil},
		{"ErrStartRequired", "", "BL1", []string{"start:field.required"}},
		{"ErrEndRequired", "BL1", "", []string{"end:field.required"}},
		{"ErrBothRequired", "", "", []string{"start:field.required", "end:field.required"}},
		{"ErrStartChars", "BL 1", "BL2", []string{"start:library.number_chars"}},
		{"ErrEndChars", "BL1", "BL2#", []string{"end:library.number_chars"}},
		{"ErrStringParts", "BL2026-00001", "BD2026-00002", []string{"end:library.range_parts"}},
		{"ErrSeparator", "BL2026-00001", "BL2026_00002", []string{"end:library.range_parts"}},
		{"ErrPartCount", "BL2026-00001", "BL2026", []string{"end:library.range_parts"}},
		{"ErrDigitVsLetter", "BL1", "BLX", []string{"end:library.range_parts"}},
		{"ErrDigitLength", "BL2026-0001", "BL2026-00002", []string{"end:library.range_digits"}},
		{"ErrOrder", "BL2026-00100", "BL2026-00001", []string{"end:library.range_order"}},
		{"ErrOrderYear", "BL2027-00001", "BL2026-00999", []string{"end:library.range_order"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckRange(c.start, c.end)
			if c.want == nil {
				if err != nil {
					t.Fatalf("CheckRange(%q, %q) = %v", c.start, c.end, err)
				}
				return
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Code != apperr.Invalid {
				t.Fatalf("CheckRange(%q, %q) = %v", c.start, c.end, err)
			}
			n := 0
			for f, msgs := range ae.Fields {
				for _, m := range msgs {
					n++
					found := false
					for _, w := range c.want {
						found = found || w == f+":"+m.Key
					}
					if !found {
						t.Errorf("unexpected %s:%s", f, m.Key)
					}
				}
			}
			if n != len(c.want) {
				t.Errorf("got %v, want %v", ae.Fields, c.want)
			}
		})
	}
}

func TestValidChars(t *testing.T) {
	for s, want := range map[string]bool{"": true, "aZ09_-": true, "a b": false, "病理": false, "a.b": false, "a/b": false} {
		if ValidChars(s) != want {
			t.Errorf("ValidChars(%q) != %v", s, want)
		}
	}
}
