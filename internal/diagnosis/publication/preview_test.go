package publication

import (
	"testing"

	"telepath/internal/diagnosis"
	"telepath/internal/platform/i18n"
)

// The report prints the latest normal version, or the version asked for.
func TestPick(t *testing.T) {
	versions := []diagnosis.Diagnosis{
		{ID: 1, Type: diagnosis.TypeNormal, Version: 1},
		{ID: 2, Type: diagnosis.TypeNormal, Version: 2},
		{ID: 3, Type: diagnosis.TypeSupplement, Version: 1},
	}
	for _, c := range []struct{ ask, want int64 }{{0, 2}, {1, 1}, {3, 3}, {9, 0}} {
		got := pick(versions, c.ask)
		if (got == nil) != (c.want == 0) || (got != nil && got.ID != c.want) {
			t.Errorf("pick(%d) = %+v, want id %d", c.ask, got, c.want)
		}
	}
}

// A frozen diagnosis prints its intra-operative verdict above the free text, in the reader's language.
func TestWithVerdict(t *testing.T) {
	cases := []struct {
		lang             i18n.Lang
		verdict, opinion string
		want             string
	}{
		{i18n.ZH, "", "良性病变", "良性病变"},
		{i18n.ZH, "malignant", "乳头状癌", "冰冻诊断：恶性\n乳头状癌"},
		{i18n.EN, "deferred", "", "Frozen section: deferred to paraffin sections"},
		{i18n.EN, "benign", "Nodular goitre", "Frozen section: benign\nNodular goitre"},
	}
	for _, c := range cases {
		if got := withVerdict(c.lang, c.verdict, c.opinion); got != c.want {
			t.Errorf("withVerdict(%s, %q, %q) = %q, want %q", c.lang, c.verdict, c.opinion, got, c.want)
		}
	}
}
