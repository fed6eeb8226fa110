package consultation

import (
	"context"
	"slices"
	"strings"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
)

// transition loads a case in tx, checks that the caller may make the named
// transition from its state, lets change write what the transition does,
// and records the case log and audit lines.
func (s *Service) transition(ctx context.Context, tx *db.Tx, id int64, name Action, detail string, change columns) error {
	return s.transitionAs(ctx, tx, id, name, detail, change, true)
}

// transitionAs is transition; byRole false makes it whatever the caller's
// roles (a consequence of the caller's own action the system takes for
// another role, e.g. a recall agreed at once), still from a state it allows.
func (s *Service) transitionAs(ctx context.Context, tx *db.Tx, id int64, name Action, detail string, change columns, byRole bool) error {
	r, err := s.rowToWrite(ctx, tx, id)
	if err != nil {
		return err
	}
	p := access.FromContext(ctx)
	checker := p
	if !byRole {
		checker = &access.Principal{UserID: p.UserID, Roles: Transitions[name].Roles}
	}
	t, err := Check(checker, name, r.State)
	if err != nil {
		return err
	}
	if err := t.holds(p, r); err != nil {
		return err
	}
	if err := s.guarded(ctx, tx, name, r); err != nil {
		return err
	}
	var before People
	if len(s.listeners) > 0 {
		if before, err = s.people(ctx, tx, id); err != nil {
			return err
		}
	}
	to := r.State
	t.Apply(&to)
	vals, err := change(tx, r, to)
	if err != nil {
		return err
	}
	if vals == nil {
		vals = map[string]any{}
	}
	vals["status"], vals["is_draft"], vals["is_recall"], vals["is_return"], vals["is_lock"], vals["manage_confirm"] =
		to.Status, to.IsDraft, to.IsRecall, to.IsReturn, to.IsLock, to.ManageConfirm
	vals["supplement_review"] = 0
	if to.SupplementReview {
		vals["supplement_review"] = 1
	}
	vals["updated_at"] = s.now()
	if _, err := db.Exec(ctx, tx, tx.Builder().Update("consultations").SetMap(vals).Where("id = ?", id)); err != nil {
		return apperr.Wrap(err, "update case")
	}
	if err := s.record(ctx, tx, id, t.logName(), r.State, to, detail, r.State, to); err != nil {
		return err
	}
	return s.tell(ctx, tx, id, name, r.State, to, &before, detail)
}

// rowToWrite is row for a write that depends on the case as read: on
// PostgreSQL it first takes the case's row lock (the one its UPDATE takes),
// so that two writes of one case run one after the other, the later one
// reading what the earlier left. Without it both read the same state under
// READ COMMITTED, both pass the life cycle's check, and the later UPDATE
// writes over the earlier from a state that no longer holds: a site's
// submit and delete of one case at once both succeeded, leaving a deleted
// case sent to its center. SQLite writes one transaction at a time.
func (s *Service) rowToWrite(ctx context.Context, tx *db.Tx, id int64) (*Row, error) {
	if tx.Dialect == db.Postgres {
		if _, err := tx.ExecContext(ctx, "SELECT 1 FROM consultations WHERE id = $1 FOR NO KEY UPDATE", id); err != nil {
			return nil, apperr.Wrap(err, "lock case")
		}
	}
	return s.row(ctx, tx, id)
}

// Guard checks what an action needs beyond the life cycle State, from the
// records of the domain that owns them (a diagnosis's review, a supplement).
// The action and the case's list of actions run the same guards, so the
// list names exactly the actions that would be allowed. It runs in the
// action's transaction, after the life cycle's own checks; a refusal is a
// conflict. Bad or missing input (an empty diagnosis) is not a guard's
// business: the action reports it.
type Guard func(ctx context.Context, q db.Querier, r *Row) error

// Guard adds a guard to an action; domains add theirs when they start.
func (s *Service) Guard(a Action, g Guard) {
	s.guards[a] = append(s.guards[a], g)
}

func (s *Service) guarded(ctx context.Context, q db.Querier, a Action, r *Row) error {
	for _, g := range s.guards[a] {
		if err := g(ctx, q, r); err != nil {
			return err
		}
	}
	return nil
}

// ChangeFunc checks what a transition asked by another domain needs beyond
// the state, writes that domain's own records in tx, and says what else
// changes on the case.
type ChangeFunc func(tx *db.Tx, r *Row, to State) (Change, error)

// columns is ChangeFunc inside the domain: the further consultation columns
// a transition sets.
type columns func(tx *db.Tx, r *Row, to State) (map[string]any, error)

// Apply makes the named transition of the life cycle on a case the caller
// may see, in one transaction with its case log and audit records. The
// diagnosis domain makes its transitions through it.
func (s *Service) Apply(ctx context.Context, id int64, name Action, detail string, change ChangeFunc) error {
	return s.one(ctx, id, name, detail, func(tx *db.Tx, r *Row, to State) (map[string]any, error) {
		c, err := change(tx, r, to)
		if err != nil {
			return nil, err
		}
		return c.values(), nil
	})
}

// one runs a single transition in its own transaction.
func (s *Service) one(ctx context.Context, id int64, name Action, detail string, change columns) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error { return s.transition(ctx, tx, id, name, detail, change) })
}

// Submit sends a registered case to its center. It needs a charge and,
// unless the system allows otherwise, at least one slide. A case with a
// requested expert goes straight to that expert.
func (s *Service) Submit(ctx context.Context, id int64) error { return s.send(ctx, id, ActSubmit) }

// ConsultAgain sends a recalled or returned case again, on the same terms.
func (s *Service) ConsultAgain(ctx context.Context, id int64) error {
	return s.send(ctx, id, ActConsultAgain)
}

func (s *Service) send(ctx context.Context, id int64, name Action) error {
	return s.one(ctx, id, name, "", func(tx *db.Tx, r *Row, to State) (map[string]any, error) {
		var v apperr.Validation
		if r.IsDraft == 1 {
			v.Add("case", "case.draft_incomplete")
		}
		if r.ChargeStatus != ChargeCharged {
			v.Add("charge", "case.not_charged")
		}
		if s.deps.NeedSlides != nil && s.deps.NeedSlides(ctx) && r.SlideCount == 0 {
			v.Add("slides", "case.no_slide")
		}
		if err := v.Err(); err != nil {
			return nil, err
		}
		vals := map[string]any{"submitted_at": s.now(), "recall_reason": "", "return_reason": "", "expert_id": nil, "assigned_at": nil,
			"timeout_at": nil, "remind_at": nil}
		var expert *int64
		if err := db.Get(ctx, tx, &expert, tx.Builder().Select("requested_expert_id").From("consultations").Where("id = ?", id)); err != nil {
			return nil, apperr.Wrap(err, "requested expert")
		}
		if expert != nil {
			if err := s.assign(ctx, vals, *expert, r.Expedite == 1); err != nil {
				return nil, err
			}
		}
		return vals, nil
	})
}

// assign sets the expert and the timeout of an assignment.
func (s *Service) assign(ctx context.Context, vals map[string]any, expertID int64, expedite bool) error {
	t, err := s.deps.TimeoutFor(ctx, expedite)
	if err != nil {
		return err
	}
	now := s.now()
	timeout := now.Add(time.Duration(t.Hours) * time.Hour)
	vals["expert_id"], vals["assigned_at"], vals["timeout_id"], vals["returned_by"] = expertID, now, t.ID, nil
	vals["timeout_at"], vals["remind_at"] = timeout, timeout.Add(-time.Duration(t.RemindHours)*time.Hour)
	return nil
}

// Outcome is the result of one case in a batch.
type Outcome struct {
	ID      int64  `json:"id"`
	OK      bool   `json:"ok"`
	Message string `json:"message,omitempty"`
}

// batch runs fn for each id in its own transaction and reports each result,
// so that one refused case does not hold back the others.
func (s *Service) batch(ctx context.Context, ids []int64, fn func(id int64) error) ([]Outcome, error) {
	if len(ids) == 0 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("ids", "case.select_first")
	}
	if len(ids) > 1000 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("ids", "case.batch_too_large")
	}
	out := make([]Outcome, 0, len(ids))
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		o := Outcome{ID: id, OK: true}
		if err := fn(id); err != nil {
			if apperr.CodeOf(err) == apperr.Internal {
				return nil, err
			}
			o.OK, o.Message = false, apperr.Text(i18n.From(ctx), err)
		}
		out = append(out, o)
	}
	return out, nil
}

// BatchSubmit submits several cases and reports, per case, what failed.
func (s *Service) BatchSubmit(ctx context.Context, ids []int64) ([]Outcome, error) {
	return s.batch(ctx, ids, func(id int64) error { return s.Submit(ctx, id) })
}

func reason(field, text string) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", apperr.New(apperr.Invalid, "error.validation").Field(field, "case.reason_required")
	}
	if len([]rune(text)) > 500 {
		return "", apperr.New(apperr.Invalid, "error.validation").Field(field, "field.too_long", "max", 500)
	}
	return text, nil
}

// Recall asks the center to give a submitted case back to the site. When
// the center need not agree (the rollback_need_check setting off), the
// recall is agreed at once in the same transaction, as the center would.
func (s *Service) Recall(ctx context.Context, id int64, why string) error {
	why, err := reason("reason", why)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.transition(ctx, tx, id, ActRecall, why, func(*db.Tx, *Row, State) (map[string]any, error) {
			return map[string]any{"recall_reason": why}, nil
		}); err != nil {
			return err
		}
		if s.deps.RecallNeedsCheck == nil || s.deps.RecallNeedsCheck(ctx) {
			return nil
		}
		return s.transitionAs(ctx, tx, id, ActRecallAgree, "", s.agreeRecall(ctx), false)
	})
}

// BatchRecall asks for several recalls with one reason.
func (s *Service) BatchRecall(ctx context.Context, ids []int64, why string) ([]Outcome, error) {
	if _, err := reason("reason", why); err != nil {
		return nil, err
	}
	return s.batch(ctx, ids, func(id int64) error { return s.Recall(ctx, id, why) })
}

// RecallDecision is the center's answer to a recall request.
func (s *Service) RecallDecision(ctx context.Context, id int64, decision, note string) error {
	name := map[string]Action{"agree": ActRecallAgree, "reject": ActRecallReject, "ignore": ActRecallIgnore}[decision]
	if name == "" {
		return apperr.New(apperr.NotFound, "error.not_found")
	}
	if decision == "reject" {
		var err error
		if note, err = reason("reason", note); err != nil {
			return err
		}
	}
	if decision == "agree" {
		return s.one(ctx, id, name, note, s.agreeRecall(ctx))
	}
	return s.one(ctx, id, name, note, func(*db.Tx, *Row, State) (map[string]any, error) { return nil, nil })
}

// agreeRecall is what an agreed recall writes: the case leaves its expert.
func (s *Service) agreeRecall(ctx context.Context) columns {
	return func(tx *db.Tx, r *Row, _ State) (map[string]any, error) {
		vals, err := s.endHandover(ctx, tx, r.ID)
		vals["expert_id"], vals["assigned_at"], vals["timeout_at"], vals["remind_at"] = nil, nil, nil, nil
		return vals, err
	}
}

// BatchAgreeRecall agrees to several recalls.
func (s *Service) BatchAgreeRecall(ctx context.Context, ids []int64) ([]Outcome, error) {
	return s.batch(ctx, ids, func(id int64) error { return s.RecallDecision(ctx, id, "agree", "") })
}

// RecallReason returns why the site asked for a recall.
func (s *Service) RecallReason(ctx context.Context, id int64) (string, error) {
	r, err := s.row(ctx, s.db, id)
	if err != nil {
		return "", err
	}
	return r.RecallReason, nil
}

// BindExpert assigns a case to an expert of its center.
func (s *Service) BindExpert(ctx context.Context, id, expertID int64) error {
	return s.one(ctx, id, ActBindExpert, "", func(_ *db.Tx, r *Row, _ State) (map[string]any, error) {
		if err := s.checkExpert(ctx, r, expertID); err != nil {
			return nil, err
		}
		vals := map[string]any{}
		return vals, s.assign(ctx, vals, expertID, r.Expedite == 1)
	})
}

// BatchBindExpert assigns several cases to one expert.
func (s *Service) BatchBindExpert(ctx context.Context, ids []int64, expertID int64) ([]Outcome, error) {
	return s.batch(ctx, ids, func(id int64) error { return s.BindExpert(ctx, id, expertID) })
}

// Referral gives an assigned case to a different expert (the allocator).
func (s *Service) Referral(ctx context.Context, id, expertID int64, why string) error {
	return s.refer(ctx, ActReferral, id, expertID, strings.TrimSpace(why))
}

// ExpertReferral is the assigned expert giving their case to a different
// expert of the center, with a reason; the lock and any pending handover end.
func (s *Service) ExpertReferral(ctx context.Context, id, expertID int64, why string) error {
	why, err := reason("reason", why)
	if err != nil {
		return err
	}
	return s.refer(ctx, ActExpertReferral, id, expertID, why)
}

func (s *Service) refer(ctx context.Context, name Action, id, expertID int64, why string) error {
	return s.one(ctx, id, name, why, func(tx *db.Tx, r *Row, _ State) (map[string]any, error) {
		if r.ExpertID != nil && *r.ExpertID == expertID {
			return nil, apperr.New(apperr.Invalid, "error.validation").Field("expert_id", "case.same_expert")
		}
		if err := s.checkExpert(ctx, r, expertID); err != nil {
			return nil, err
		}
		vals, err := s.endHandover(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		vals["locked_by"] = nil
		return vals, s.assign(ctx, vals, expertID, r.Expedite == 1)
	})
}

// staffBindable: p may name the staff member of r now (an allocator, while
// the case is at the center).
func staffBindable(p *access.Principal, r *Row) bool {
	return p.HasAny(access.Allocators) && r.Status == StatusSubmitted && r.IsRecall == RecallNone
}

// BindStaff names the staff member who prepares a case for the expert;
// staffID 0 removes the one named. The staff member sees the case while bound.
func (s *Service) BindStaff(ctx context.Context, id, staffID int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		r, err := s.rowToWrite(ctx, tx, id)
		if err != nil {
			return err
		}
		p := access.FromContext(ctx)
		if !p.HasAny(access.Allocators) {
			return apperr.New(apperr.Forbidden, "error.forbidden")
		}
		if !staffBindable(p, r) {
			return apperr.New(apperr.Conflict, "case.bad_state").With("action", apperr.MsgKey("case.action."+string(ActBindStaff))).
				With("status", apperr.MsgKey("case.status."+LabelKey(r.State)))
		}
		if staffID == 0 {
			return s.unbindStaff(ctx, tx, r)
		}
		if r.CenterID == nil {
			return apperr.New(apperr.Invalid, "error.validation").Field("staff_id", "case.staff_unknown")
		}
		staff, err := s.deps.Members(ctx, *r.CenterID, access.Staff)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(staff, func(m PersonRef) bool { return m.ID == staffID })
		if i < 0 {
			return apperr.New(apperr.Invalid, "error.validation").Field("staff_id", "case.staff_unknown")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("consultations").Set("staff_id", staffID).Set("updated_at", s.now()).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "bind staff")
		}
		return s.record(ctx, tx, id, ActBindStaff, r.State, r.State, staff[i].Name, nil, map[string]any{"staff_id": staffID})
	})
}

func (s *Service) unbindStaff(ctx context.Context, tx *db.Tx, r *Row) error {
	var was *int64
	if err := db.Get(ctx, tx, &was, tx.Builder().Select("staff_id").From("consultations").Where("id = ?", r.ID)); err != nil {
		return apperr.Wrap(err, "load staff")
	}
	if was == nil {
		return apperr.New(apperr.Invalid, "error.validation").Field("staff_id", "case.staff_none")
	}
	if _, err := db.Exec(ctx, tx, tx.Builder().Update("consultations").Set("staff_id", nil).Set("updated_at", s.now()).Where("id = ?", r.ID)); err != nil {
		return apperr.Wrap(err, "unbind staff")
	}
	return s.record(ctx, tx, r.ID, ActUnbindStaff, r.State, r.State, "", map[string]any{"staff_id": *was}, nil)
}

// CaseStaff lists the staff members of the case's center, for the allocator.
func (s *Service) CaseStaff(ctx context.Context, id int64) ([]PersonRef, error) {
	r, err := s.row(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if r.CenterID == nil {
		return []PersonRef{}, nil
	}
	return s.deps.Members(ctx, *r.CenterID, access.Staff)
}

// ReturnToSite gives a submitted case back to the hospital with a reason.
func (s *Service) ReturnToSite(ctx context.Context, id int64, why string) error {
	why, err := reason("reason", why)
	if err != nil {
		return err
	}
	return s.one(ctx, id, ActReturnToSite, why, func(tx *db.Tx, _ *Row, _ State) (map[string]any, error) {
		vals, err := s.endHandover(ctx, tx, id)
		vals["return_reason"], vals["expert_id"], vals["assigned_at"], vals["timeout_at"], vals["remind_at"] = why, nil, nil, nil, nil
		return vals, err
	})
}

// ReturnReasons are the preset reasons offered when returning a case.
func ReturnReasons(lang i18n.Lang) []string {
	out := []string{}
	for _, k := range []string{"slides_unclear", "slides_missing", "info_incomplete", "not_in_scope", "duplicate", "other"} {
		out = append(out, i18n.T(lang, "case.return_reason."+k, nil))
	}
	return out
}

// Charge states of a case.
const (
	ChargeNone     = 1
	ChargeCharged  = 2
	ChargeRefunded = 3
)
