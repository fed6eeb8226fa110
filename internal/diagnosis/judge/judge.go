package judge

import (
	"context"
	"slices"
	"strings"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/upload"
)

// Slide quality grades (spec 2 §5 Evaluation): A to D, D not qualified.
var slideGrades = []string{"A", "B", "C", "D"}

const gradeUnqualified = "D"

// JudgementInput is the expert's verdict on one slide's quality.
type JudgementInput struct {
	Grade  string `json:"grade,omitempty" enum:"A,B,C,D" doc:"A excellent, B good, C acceptable, D not qualified"`
	Reason string `json:"reason,omitempty" maxLength:"500" doc:"Required for grade D"`
}

// Judgement is a slide's quality as the expert judged it.
type Judgement struct {
	ID           int64     `json:"id" db:"id"`
	ConsultID    int64     `json:"consult_id" db:"consult_id"`
	SlideID      int64     `json:"slide_id" db:"slide_id"`
	Grade        string    `json:"grade" db:"grade" enum:"A,B,C,D"`
	Reason       string    `json:"reason" db:"reason"`
	JudgedBy     int64     `json:"judged_by" db:"judged_by"`
	JudgedByName string    `json:"judged_by_name" db:"judged_by_name"`
	UpdatedAt    time.Time `json:"updated_at" db:"updated_at"`
}

func (in *JudgementInput) validate() error {
	in.Reason = strings.TrimSpace(in.Reason)
	var v apperr.Validation
	if !slices.Contains(slideGrades, in.Grade) {
		v.Add("grade", "judge.grade_required")
	}
	if in.Grade == gradeUnqualified && in.Reason == "" {
		v.Add("reason", "judge.reason_required")
	}
	if len([]rune(in.Reason)) > 500 {
		v.Add("reason", "field.too_long", "max", 500)
	}
	return v.Err()
}

// JudgeSlide records the assigned expert's first verdict on a slide of the case.
func (s *Service) JudgeSlide(ctx context.Context, consultID, slideID int64, in JudgementInput) (*Judgement, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	me := access.FromContext(ctx).UserID
	err := s.cases.Apply(ctx, consultID, consultation.ActSlideJudge, in.summary(), func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		ok, err := upload.InCase(ctx, tx, consultID, slideID)
		if err != nil {
			return consultation.Change{}, err
		}
		if !ok {
			return consultation.Change{}, apperr.New(apperr.Invalid, "error.validation").Field("slide_id", "judge.slide_unknown")
		}
		var n int
		if err := db.Get(ctx, tx, &n, tx.Builder().Select("COUNT(*)").From("slide_judgements").Where("slide_id = ?", slideID)); err != nil {
			return consultation.Change{}, apperr.Wrap(err, "load judgement")
		}
		if n > 0 {
			return consultation.Change{}, apperr.New(apperr.Conflict, "judge.already")
		}
		now := s.now()
		_, err = db.Exec(ctx, tx, tx.Builder().Insert("slide_judgements").
			Columns("consult_id", "slide_id", "grade", "reason", "judged_by", "created_at", "updated_at").
			Values(consultID, slideID, in.Grade, in.Reason, me, now, now))
		return consultation.Change{}, apperr.Wrap(err, "judge slide")
	})
	if err != nil {
		return nil, err
	}
	return s.judgement(ctx, "j.slide_id = ?", slideID)
}

// UpdateJudgement changes the verdict on a slide of the caller's case.
func (s *Service) UpdateJudgement(ctx context.Context, judgementID int64, in JudgementInput) (*Judgement, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	j, err := s.judgement(ctx, "j.id = ?", judgementID)
	if err != nil {
		return nil, err
	}
	me := access.FromContext(ctx).UserID
	err = s.cases.Apply(ctx, j.ConsultID, consultation.ActSlideJudge, in.summary(), func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("slide_judgements").SetMap(map[string]any{
			"grade": in.Grade, "reason": in.Reason, "judged_by": me, "updated_at": s.now(),
		}).Where("id = ?", judgementID))
		return consultation.Change{}, apperr.Wrap(err, "update judgement")
	})
	if err != nil {
		return nil, err
	}
	return s.judgement(ctx, "j.id = ?", judgementID)
}

func (in JudgementInput) summary() string {
	return strings.TrimSpace(in.Grade + " " + in.Reason)
}

func (s *Service) judgements(b db.Querier) func(ctx context.Context, where string, args ...any) ([]Judgement, error) {
	return func(ctx context.Context, where string, args ...any) ([]Judgement, error) {
		out := []Judgement{}
		err := db.Select(ctx, b, &out, s.db.Builder().Select("j.id", "j.consult_id", "j.slide_id", "j.grade", "j.reason", "j.judged_by",
			"u.name AS judged_by_name", "j.updated_at").From("slide_judgements j").Join("users u ON u.id = j.judged_by").
			Where(where, args...).OrderBy("j.slide_id"))
		return out, apperr.Wrap(err, "load judgements")
	}
}

// judgement loads one judgement on a case the caller may see.
func (s *Service) judgement(ctx context.Context, where string, arg int64) (*Judgement, error) {
	l, err := s.judgements(s.db)(ctx, where, arg)
	if err != nil {
		return nil, err
	}
	if len(l) == 0 {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	if _, err := s.cases.Case(ctx, l[0].ConsultID); err != nil {
		return nil, err
	}
	return &l[0], nil
}

// CaseJudgements lists the verdicts on the slides of a case the caller may see.
func (s *Service) CaseJudgements(ctx context.Context, consultID int64) ([]Judgement, error) {
	if _, err := s.cases.Case(ctx, consultID); err != nil {
		return nil, err
	}
	return s.judgements(s.db)(ctx, "j.consult_id = ?", consultID)
}
