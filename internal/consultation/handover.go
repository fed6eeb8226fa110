package consultation

import (
	"context"
	"slices"
	"strings"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Handover statuses.
const (
	HandoverPending  = "pending"
	HandoverAccepted = "accepted"
	HandoverRecalled = "recalled"
	HandoverEnded    = "ended" // the case left both experts (referred or returned) before the colleague started
)

// Handover is one hand-over of a case from its expert to a colleague
// (spec 2 §7 /diagnosis/handover): the colleague continues the same draft.
type Handover struct {
	ID        int64      `json:"id" db:"id"`
	ConsultID int64      `json:"consult_id" db:"consult_id"`
	FromID    int64      `json:"from_id" db:"from_id"`
	FromName  string     `json:"from_name" db:"from_name"`
	ToID      int64      `json:"to_id" db:"to_id"`
	ToName    string     `json:"to_name" db:"to_name"`
	Note      string     `json:"note" db:"note"`
	Status    string     `json:"status" db:"status" enum:"pending,accepted,recalled,ended"`
	CreatedAt time.Time  `json:"created_at" db:"created_at"`
	DecidedAt *time.Time `json:"decided_at" db:"decided_at"`
}

// HandOver gives the caller's case, with its draft, to a colleague of the
// center. Until the colleague locks it, the caller may take it back.
func (s *Service) HandOver(ctx context.Context, id, toID int64, note string) error {
	me := access.FromContext(ctx).UserID
	note = strings.TrimSpace(note)
	if len([]rune(note)) > 500 {
		return apperr.New(apperr.Invalid, "error.validation").Field("note", "field.too_long", "max", 500)
	}
	return s.one(ctx, id, ActHandover, note, func(tx *db.Tx, r *Row, _ State) (map[string]any, error) {
		if toID == me {
			return nil, apperr.New(apperr.Invalid, "error.validation").Field("expert_id", "diagnosis.handover_self")
		}
		if err := s.checkExpert(ctx, r, toID); err != nil {
			return nil, err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("handovers").Columns("consult_id", "from_id", "to_id", "note", "status", "created_at").
			Values(id, me, toID, note, HandoverPending, s.now())); err != nil {
			return nil, apperr.Wrap(err, "handover")
		}
		return map[string]any{"expert_id": toID, "locked_by": nil, "handover_from": me}, nil
	})
}

// noPendingHandover: a case handed over is not handed over again until the
// colleague takes it or it is taken back.
func noPendingHandover(_ context.Context, _ db.Querier, r *Row) error {
	if r.HandoverFrom != nil {
		return apperr.New(apperr.Conflict, "diagnosis.handover_pending")
	}
	return nil
}

// RecallHandover takes a handed-over case back before the colleague started on it.
func (s *Service) RecallHandover(ctx context.Context, id int64) error {
	me := access.FromContext(ctx).UserID
	return s.one(ctx, id, ActHandoverRecall, "", func(tx *db.Tx, r *Row, _ State) (map[string]any, error) {
		res, err := db.Exec(ctx, tx, tx.Builder().Update("handovers").Set("status", HandoverRecalled).Set("decided_at", s.now()).
			Where("consult_id = ? AND from_id = ? AND status = ?", id, me, HandoverPending))
		if err != nil {
			return nil, apperr.Wrap(err, "recall handover")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil, apperr.New(apperr.Conflict, "diagnosis.no_handover")
		}
		return map[string]any{"expert_id": me, "locked_by": nil, "handover_from": nil}, nil
	})
}

// AcceptHandover is part of the lock: the colleague starting on a handed-over
// case ends the sender's right to recall it. It returns what changes on the case.
func (s *Service) AcceptHandover(ctx context.Context, tx *db.Tx, r *Row) (Change, error) {
	if r.HandoverFrom == nil {
		return Change{}, nil
	}
	if _, err := db.Exec(ctx, tx, tx.Builder().Update("handovers").Set("status", HandoverAccepted).Set("decided_at", s.now()).
		Where("consult_id = ? AND status = ?", r.ID, HandoverPending)); err != nil {
		return Change{}, apperr.Wrap(err, "accept handover")
	}
	return Change{HandoverFrom: Clear[int64]()}, nil
}

// EndHandover closes a pending handover when the case goes elsewhere (a
// referral, a return to the center); it returns what changes on the case.
func (s *Service) EndHandover(ctx context.Context, tx *db.Tx, id int64) (Change, error) {
	err := s.closeHandover(ctx, tx, id)
	return Change{HandoverFrom: Clear[int64]()}, err
}

// endHandover is EndHandover as the columns to set.
func (s *Service) endHandover(ctx context.Context, tx *db.Tx, id int64) (map[string]any, error) {
	return map[string]any{"handover_from": nil}, s.closeHandover(ctx, tx, id)
}

func (s *Service) closeHandover(ctx context.Context, tx *db.Tx, id int64) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Update("handovers").Set("status", HandoverEnded).Set("decided_at", s.now()).
		Where("consult_id = ? AND status = ?", id, HandoverPending))
	return apperr.Wrap(err, "end handover")
}

// Handovers lists the handovers of a case the caller may see.
func (s *Service) Handovers(ctx context.Context, id int64) ([]Handover, error) {
	if _, err := s.row(ctx, s.db, id); err != nil {
		return nil, err
	}
	out := []Handover{}
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select("h.id", "h.consult_id", "h.from_id", "a.name AS from_name", "h.to_id",
		"b.name AS to_name", "h.note", "h.status", "h.created_at", "h.decided_at").From("handovers h").
		Join("users a ON a.id = h.from_id").Join("users b ON b.id = h.to_id").Where("h.consult_id = ?", id).OrderBy("h.id"))
	return out, apperr.Wrap(err, "load handovers")
}

// ExpertOf checks that expertID is an expert of the case's center, as
// experts lists them; the refusal names field.
func ExpertOf(ctx context.Context, r *Row, experts func(ctx context.Context, centerID int64) ([]PersonRef, error), expertID int64, field string) error {
	if r.CenterID == nil {
		return apperr.New(apperr.Invalid, "error.validation").Field(field, "case.expert_unknown")
	}
	all, err := experts(ctx, *r.CenterID)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(all, func(e PersonRef) bool { return e.ID == expertID }) {
		return apperr.New(apperr.Invalid, "error.validation").Field(field, "case.expert_unknown")
	}
	return nil
}
