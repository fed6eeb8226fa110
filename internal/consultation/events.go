package consultation

import (
	"context"
	"slices"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// People are the facts of a case that say who takes part in it.
type People struct {
	ConsultNo    string     `db:"consult_no"`
	PatientName  string     `db:"patient_name"`
	HospitalID   int64      `db:"hospital_id"`
	CenterID     *int64     `db:"center_id"`
	ExpertID     *int64     `db:"expert_id"`
	ReviewerID   *int64     `db:"reviewer_id"`
	HandoverFrom *int64     `db:"handover_from"`
	ReturnedBy   *int64     `db:"returned_by"`
	StaffID      *int64     `db:"staff_id"`
	Expedite     int        `db:"expedite"`
	TimeoutAt    *time.Time `db:"timeout_at"`
	DelayDays    int        `db:"delay_days"`
	// ReleaseAt is when a signed report reaches the site (after the hesitation period).
	ReleaseAt *time.Time `db:"release_at"`
}

// Event is one change of a case, told to the listeners inside the
// transaction that makes it: whatever they write commits or rolls back
// with the change.
type Event struct {
	CaseID   int64
	Action   Action
	Actor    *access.Principal
	From, To State
	// Before and After are the case's people around the change (an
	// assignment changes the expert).
	Before, After People
	Detail        string
	// Addressees are the people the acting domain names for this change
	// and that the case itself does not record (invitees, the reviewer of
	// a supplement, the third party an exam was passed to).
	Addressees []int64
}

// Addressees collects, during a transition, the people its change names.
type Addressees struct{ IDs []int64 }

// Add names people of the change, each once: a transition that InTx runs
// again after a deadlock names them again.
func (a *Addressees) Add(ids ...int64) {
	if a == nil {
		return
	}
	for _, id := range ids {
		if !slices.Contains(a.IDs, id) {
			a.IDs = append(a.IDs, id)
		}
	}
}

type addresseesKey struct{}

// WithAddressees returns ctx carrying a, which the Change of a transition
// made with that ctx fills; listeners see it as Event.Addressees.
func WithAddressees(ctx context.Context) (context.Context, *Addressees) {
	a := &Addressees{}
	return context.WithValue(ctx, addresseesKey{}, a), a
}

func addresseesOf(ctx context.Context) []int64 {
	if a, _ := ctx.Value(addresseesKey{}).(*Addressees); a != nil {
		return a.IDs
	}
	return nil
}

// Listener hears the events of cases. It is the one way another domain
// reacts to a change of a case (notifications, a frozen appointment kept in
// step, meetings ended when their case is signed):
//   - it runs inside the transaction that makes the change, after the case
//     row, its case log and its audit line are written, so whatever it
//     writes commits or rolls back with the change, and its error undoes
//     the change;
//   - it writes only its own domain's tables, and finds the case's state
//     and people in the Event;
//   - what must not happen before the commit (a live push to browsers) it
//     defers with tx.AfterCommit.
type Listener func(ctx context.Context, tx *db.Tx, e Event) error

type listener struct {
	hear Listener
	on   []Action // nil: every action
}

// Listen adds l for the events of the actions on, or of every action when
// none is named; domains add theirs when the server starts. Listeners run
// in the order they were added.
func (s *Service) Listen(l Listener, on ...Action) {
	s.listeners = append(s.listeners, listener{hear: l, on: on})
}

// people loads the people of a case, in q.
func (s *Service) people(ctx context.Context, q db.Querier, id int64) (People, error) {
	var p People
	err := db.Get(ctx, q, &p, s.db.Builder().Select("consult_no", "patient_name", "hospital_id", "center_id", "expert_id", "reviewer_id",
		"handover_from", "returned_by", "staff_id", "expedite", "timeout_at", "delay_days", "release_at").From("consultations").Where("id = ?", id))
	return p, apperr.Wrap(err, "case people")
}

// tell hands an event of case id to the listeners, in tx.
func (s *Service) tell(ctx context.Context, tx *db.Tx, id int64, action Action, from, to State, before *People, detail string) error {
	if len(s.listeners) == 0 {
		return nil
	}
	after, err := s.people(ctx, tx, id)
	if err != nil {
		return err
	}
	if before == nil {
		before = &after
	}
	e := Event{CaseID: id, Action: action, Actor: access.FromContext(ctx), From: from, To: to, Before: *before, After: after, Detail: detail,
		Addressees: addresseesOf(ctx)}
	for _, l := range s.listeners {
		if l.on != nil && !slices.Contains(l.on, action) {
			continue
		}
		if err := l.hear(ctx, tx, e); err != nil {
			return err
		}
	}
	return nil
}

// Due is a case whose reminder, deadline or release has come.
type Due struct {
	ID     int64 `db:"id"`
	Status int   `db:"status"`
	People
	RemindAt *time.Time `db:"remind_at"`
}

// Due lists the open, assigned cases whose reminder time or deadline fell
// in (since, until], and the signed cases whose report was released then
// (the hesitation period ended): the scheduler's work.
func (s *Service) Due(ctx context.Context, since, until time.Time) ([]Due, error) {
	out := []Due{}
	in := func(col string) sq.Sqlizer { return sq.And{sq.Gt{col: since}, sq.LtOrEq{col: until}} }
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select("id", "status", "consult_no", "patient_name", "hospital_id", "center_id", "expert_id", "reviewer_id",
		"handover_from", "returned_by", "staff_id", "expedite", "timeout_at", "delay_days", "release_at", "remind_at").From("consultations").
		Where("deleted_at IS NULL").
		Where(sq.Or{
			sq.And{sq.Expr("status IN (?, ?) AND is_recall = ? AND expert_id IS NOT NULL", StatusSubmitted, StatusToReview, RecallNone),
				sq.Or{in("remind_at"), in("timeout_at")}},
			sq.And{sq.Eq{"status": StatusCompleted}, in("release_at")},
		}).OrderBy("id"))
	return out, apperr.Wrap(err, "due cases")
}
