package diagnosis

import (
	"context"
	"strings"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// PublisherPublish releases a report in its hesitation period now: the
// publisher has checked it (spec 1 §2 publisher, spec 2 §4 Release).
func (s *Service) PublisherPublish(ctx context.Context, id int64) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActPublisherPublish, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		now := s.now()
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("release_at", now).Set("updated_at", now).
			Where("consult_id = ? AND type = ? AND status = ? AND release_at > ?", id, TypeNormal, Published, now)); err != nil {
			return nil, apperr.Wrap(err, "release report")
		}
		return map[string]any{"release_at": now}, nil
	})
}

// PublisherReturn sends a report in its hesitation period back to its
// expert with a reason: the diagnosis becomes a draft again, unsigned.
func (s *Service) PublisherReturn(ctx context.Context, id int64, reason string) error {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return apperr.New(apperr.Invalid, "error.validation").Field("reason", "case.reason_required")
	}
	return s.deps.Cases.Apply(ctx, id, consultation.ActPublisherReturn, reason, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		now := s.now()
		_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(map[string]any{
			"status": Draft, "published_at": nil, "release_at": nil, "report_no": "", "verify_code": "", "updated_at": now,
		}).Where("consult_id = ? AND type = ? AND status = ? AND release_at > ?", id, TypeNormal, Published, now))
		if err != nil {
			return nil, apperr.Wrap(err, "return report")
		}
		return map[string]any{"locked_by": nil, "published_at": nil, "release_at": nil, "print_deliver_status": 0}, nil
	})
}

// First-result verdicts of a counter-audit.
var firstResults = []string{"consistent", "minor_difference", "major_difference"}

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
	return s.deps.Cases.Apply(ctx, in.ConsultID, consultation.ActChangeFirstResult, detail, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		var first int64
		if err := db.Get(ctx, tx, &first, tx.Builder().Select("COALESCE(MIN(id), 0)").From("diagnoses").
			Where("consult_id = ? AND type = ? AND status = ?", in.ConsultID, TypeNormal, Published)); err != nil {
			return nil, apperr.Wrap(err, "first report")
		}
		if first == 0 {
			return nil, refuse("diagnosis.no_report")
		}
		_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(map[string]any{
			"first_result": in.Result, "first_result_reason": in.Reason, "first_result_by": me, "first_result_at": s.now(),
		}).Where("id = ?", first))
		return nil, apperr.Wrap(err, "first result")
	})
}

func (s *Service) publisherReturn(ctx context.Context, in *noteBody) error {
	return s.PublisherReturn(ctx, in.ID, in.text())
}
