package judge

import (
	"errors"
	"strings"
	"testing"

	"telepath/internal/platform/apperr"
)

func TestJudgementInputChecks(t *testing.T) {
	for _, c := range []struct {
		in    JudgementInput
		field string // "" accepted
	}{
		{JudgementInput{Grade: "A"}, ""},
		{JudgementInput{Grade: "D", Reason: " folded "}, ""},
		{JudgementInput{Grade: "E"}, "grade"},
		{JudgementInput{Grade: "D", Reason: "  "}, "reason"},
		{JudgementInput{Grade: "C", Reason: strings.Repeat("x", 501)}, "reason"},
	} {
		in := c.in
		err := in.validate()
		var e *apperr.Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%+v refused: %v", c.in, err)
		case c.field != "" && (!errors.As(err, &e) || len(e.Fields[c.field]) == 0):
			t.Errorf("%+v: %v, want a refusal of %s", c.in, err, c.field)
		}
	}
}
