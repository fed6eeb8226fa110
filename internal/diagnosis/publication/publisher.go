package publication

import (
	"context"
	"strings"

	"telepath/internal/consultation"
	"telepath/internal/diagnosis"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// PublisherPublish releases a report in its hesitation period now: the
// publisher has checked it (spec 1 §2 publisher, spec 2 §4 Release).
func (s *Service) PublisherPublish(ctx context.Context, id int64) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActPublisherPublish, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		now := s.now()
		if err := s.deps.Diagnoses.ReleaseNow(ctx, tx, id, now); err != nil {
			return consultation.Change{}, err
		}
		return consultation.Change{ReleaseAt: consultation.Set(now)}, nil
	})
}

// PublisherReturn sends a report in its hesitation period back to its
// expert with a reason: the diagnosis becomes a draft again, unsigned.
func (s *Service) PublisherReturn(ctx context.Context, id int64, reason string) error {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return apperr.New(apperr.Invalid, "error.validation").Field("reason", "case.reason_required")
	}
	return s.deps.Cases.Apply(ctx, id, consultation.ActPublisherReturn, reason, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		if err := s.deps.Diagnoses.Unsign(ctx, tx, id, s.now()); err != nil {
			return consultation.Change{}, err
		}
		return diagnosis.Unsigned(nil), nil
	})
}

// FirstResultInput is the administrator's verdict on a case's first report.
type FirstResultInput struct {
	ConsultID int64  `json:"consult_id,omitempty"`
	Result    string `json:"result,omitempty" enum:"consistent,minor_difference,major_difference"`
	Reason    string `json:"reason,omitempty" maxLength:"2000" doc:"Required unless the first result is consistent"`
}

// ChangeFirstResult records, during a counter-audit (CounterAuditAsked or CounterAuditRejected),
// whether the first published report stands.
func (s *Service) ChangeFirstResult(ctx context.Context, in FirstResultInput) error {
	in.Reason = strings.TrimSpace(in.Reason)
	var v apperr.Validation
	if in.ConsultID <= 0 {
		v.Add("consult_id", "field.required")
	}
	if in.Result == "" {
		v.Add("result", "field.required")
	}
	if in.Result != "" && in.Result != "consistent" && in.Reason == "" {
		v.Add("reason", "case.reason_required")
	}
	if len([]rune(in.Reason)) > 500 {
		v.Add("reason", "field.too_long", "max", 500)
	}
	if err := v.Err(); err != nil {
		return err
	}
	me := access.FromContext(ctx).UserID
	detail := in.Result
	if in.Reason != "" {
		detail += ": " + in.Reason
	}
	return s.deps.Cases.Apply(ctx, in.ConsultID, consultation.ActChangeFirstResult, detail, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		return consultation.Change{}, s.deps.Diagnoses.SetFirstResult(ctx, tx, in.ConsultID, in.Result, in.Reason, me, s.now())
	})
}

func (s *Service) publisherReturn(ctx context.Context, in *diagnosis.NoteBody) error {
	return s.PublisherReturn(ctx, in.ID, in.Text())
}
