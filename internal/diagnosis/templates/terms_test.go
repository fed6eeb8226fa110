package templates

import (
	"errors"
	"strings"
	"testing"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
)

func TestTermInputChecks(t *testing.T) {
	expert := &access.Principal{UserID: 2, Roles: []string{access.Expert}}
	admin := &access.Principal{UserID: 1, Roles: []string{access.Admin}}
	for _, c := range []struct {
		name  string
		in    TermInput
		p     *access.Principal
		field string // "" accepted
	}{
		{"plain", TermInput{Category: " 常用 ", Text: " 未见异常 "}, expert, ""},
		{"empty text", TermInput{Text: "  "}, expert, "text"},
		{"long text", TermInput{Text: strings.Repeat("字", termTextMax+1)}, expert, "text"},
		{"long category", TermInput{Category: strings.Repeat("c", termCategoryMax+1), Text: "x"}, expert, "category"},
		{"sort range", TermInput{Text: "x", SortOrder: termSortMax + 1}, expert, "sort_order"},
		{"public by an expert", TermInput{Text: "x", Public: true}, expert, "public"},
		{"public by an admin", TermInput{Text: "x", Public: true}, admin, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			err := in.validate(c.p)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if in.Text != strings.TrimSpace(c.in.Text) || in.Category != strings.TrimSpace(c.in.Category) {
					t.Fatalf("not trimmed: %+v", in)
				}
				return
			}
			var e *apperr.Error
			if !errors.As(err, &e) || len(e.Fields[c.field]) == 0 {
				t.Fatalf("err = %v, want a refusal of %s", err, c.field)
			}
		})
	}
}
