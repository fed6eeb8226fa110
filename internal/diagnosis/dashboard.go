package diagnosis

import (
	"context"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/consultation"
	"telepath/internal/diagnosis/invitation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Dashboard holds the expert's to-do counts.
type Dashboard struct {
	Pending     int64 `json:"pending" db:"pending" doc:"Assigned, not started"`
	Diagnosing  int64 `json:"diagnosing" db:"diagnosing" doc:"Locked by the expert"`
	ToReview    int64 `json:"to_review" db:"to_review" doc:"Waiting for the expert's review of a colleague's diagnosis or supplementary report"`
	InReview    int64 `json:"in_review" db:"in_review" doc:"The expert's diagnoses and supplementary reports under review"`
	Invited     int64 `json:"invited" db:"invited" doc:"Invitations not yet answered"`
	Returned    int64 `json:"returned" db:"returned" doc:"Cases the expert returned to the center, not yet reassigned"`
	Releasing   int64 `json:"releasing" db:"releasing" doc:"Published, still in the hesitation period"`
	Timeout     int64 `json:"timeout" db:"timeout" doc:"Past their time limit"`
	SoonTimeout int64 `json:"soon_timeout" db:"soon_timeout" doc:"Close to their time limit"`
	Published   int64 `json:"published" db:"published" doc:"Published in the last 30 days"`
}

// Dashboard counts the caller's work in one statement.
func (s *Service) Dashboard(ctx context.Context) (*Dashboard, error) {
	me := access.FromContext(ctx).UserID
	now := s.now()
	cases := map[string]sq.Sqlizer{
		"pending": sq.Expr("c.expert_id = ? AND c.status = ? AND c.is_lock = ? AND c.is_recall = ?",
			me, consultation.StatusSubmitted, consultation.Unlocked, consultation.RecallNone),
		"diagnosing": sq.Expr("c.expert_id = ? AND c.status = ? AND c.is_lock = ? AND c.is_recall = ?",
			me, consultation.StatusSubmitted, consultation.Locked, consultation.RecallNone),
		"to_review": sq.Or{sq.Expr("c.reviewer_id = ? AND c.status = 2", me),
			sq.Expr("c.id IN (SELECT consult_id FROM diagnoses WHERE reviewer_id = ? AND type = 1 AND status = 'to_review')", me)},
		"in_review": sq.Or{sq.Expr("c.expert_id = ? AND c.status = 2", me),
			sq.Expr("c.expert_id = ? AND c.supplement_review = 1", me)},
		"releasing":    sq.And{sq.Expr("c.expert_id = ? AND c.status = 4", me), sq.Gt{"c.release_at": now}},
		"timeout":      sq.And{sq.Expr("c.expert_id = ? AND c.status IN (1, 2) AND c.is_recall = 0", me), sq.Lt{"c.timeout_at": now}},
		"soon_timeout": sq.And{sq.Expr("c.expert_id = ? AND c.status IN (1, 2) AND c.is_recall = 0", me), sq.GtOrEq{"c.timeout_at": now}, sq.LtOrEq{"c.remind_at": now}},
		"returned":     sq.Expr("c.returned_by = ? AND c.status = 1 AND c.is_return = 1 AND c.is_recall = 0", me),
		"published":    sq.And{sq.Expr("c.expert_id = ? AND c.status = 4", me), sq.Gt{"c.published_at": now.Add(-30 * 24 * time.Hour)}},
	}
	names := []string{"pending", "diagnosing", "to_review", "in_review", "releasing", "timeout", "soon_timeout", "returned", "published"}
	b := s.db.Builder().Select().From("consultations c").Where("c.deleted_at IS NULL")
	for _, n := range names {
		expr, args, err := cases[n].ToSql()
		if err != nil {
			return nil, apperr.Wrap(err, "dashboard")
		}
		b = b.Column(sq.Expr("COALESCE(SUM(CASE WHEN "+expr+" THEN 1 ELSE 0 END), 0) AS "+n, args...))
	}
	b = b.Column(invitation.Unanswered(me, "invited"))
	var out Dashboard
	if err := db.Get(ctx, s.db, &out, b); err != nil {
		return nil, apperr.Wrap(err, "dashboard")
	}
	return &out, nil
}
