package consultation

import (
	"context"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
)

// LogEntry is one line of a case's history.
type LogEntry struct {
	ID         int64     `json:"id" db:"id"`
	UserID     *int64    `json:"user_id" db:"user_id"`
	Username   string    `json:"username" db:"username"`
	UserName   string    `json:"user_name" db:"user_name"`
	Role       string    `json:"role" db:"role"`
	Action     string    `json:"action" db:"action"`
	ActionText string    `json:"action_text" db:"-"`
	FromStatus string    `json:"from_status" db:"from_status"`
	ToStatus   string    `json:"to_status" db:"to_status"`
	FromText   string    `json:"from_text" db:"-"`
	ToText     string    `json:"to_text" db:"-"`
	Detail     string    `json:"detail" db:"detail"`
	CreatedAt  time.Time `json:"created_at" db:"created_at"`
}

// record writes the case log line and the audit record of a change, in tx.
func (s *Service) record(ctx context.Context, tx *db.Tx, id int64, action Action, from, to State, detail string, before, after any) error {
	p := access.FromContext(ctx)
	_, err := db.Exec(ctx, tx, tx.Builder().Insert("case_logs").
		Columns("consult_id", "user_id", "username", "user_name", "role", "action", "from_status", "to_status", "detail", "created_at").
		Values(id, p.UserID, p.Username, p.Name, p.PrimaryRole(), action, LabelKey(from), LabelKey(to), truncate(detail, 500), s.now()))
	if err != nil {
		return apperr.Wrap(err, "case log")
	}
	return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "consultation." + string(action), ObjectType: "consultation", ObjectID: id,
		Before: before, After: after, Message: truncate(detail, 200)})
}

// Log returns the history of a case the caller may see.
func (s *Service) Log(ctx context.Context, id int64) ([]LogEntry, error) {
	if _, err := s.row(ctx, s.db, id); err != nil {
		return nil, err
	}
	out := []LogEntry{}
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select("id", "user_id", "username", "user_name", "role", "action",
		"from_status", "to_status", "detail", "created_at").From("case_logs").Where("consult_id = ?", id).OrderBy("id"))
	if err != nil {
		return nil, apperr.Wrap(err, "load case log")
	}
	lang := i18n.From(ctx)
	for i := range out {
		e := &out[i]
		e.ActionText = i18n.T(lang, "case.action."+e.Action, nil)
		e.FromText, e.ToText = i18n.T(lang, "case.status."+e.FromStatus, nil), i18n.T(lang, "case.status."+e.ToStatus, nil)
	}
	return out, nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

// RecordEvent writes a case log line, in tx, for an event by someone outside
// the case's data scope (a third party answering advice); the state is unchanged.
func (s *Service) RecordEvent(ctx context.Context, tx *db.Tx, id int64, action Action, detail string) error {
	var st struct {
		State
		ExpertID  *int64     `db:"expert_id"`
		ReleaseAt *time.Time `db:"release_at"`
	}
	if err := db.Get(ctx, tx, &st, tx.Builder().Select("status", "is_draft", "is_recall", "is_return", "is_lock", "manage_confirm", "supplement_review", "expert_id", "release_at").
		From("consultations").Where("id = ?", id)); err != nil {
		return apperr.Wrap(err, "load case state")
	}
	st.Assigned = st.ExpertID != nil
	st.Releasing = st.Status == StatusCompleted && st.ReleaseAt != nil && s.now().Before(*st.ReleaseAt)
	if err := s.record(ctx, tx, id, action, st.State, st.State, detail, nil, nil); err != nil {
		return err
	}
	return s.tell(ctx, tx, id, action, st.State, st.State, nil, detail)
}
