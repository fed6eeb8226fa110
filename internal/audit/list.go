package audit

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// Record is one row of the operation log.
type Record struct {
	ID         int64           `json:"id" db:"id"`
	CreatedAt  time.Time       `json:"created_at" db:"created_at"`
	UserID     *int64          `json:"user_id" db:"user_id"`
	Username   string          `json:"username" db:"username"`
	Role       string          `json:"role" db:"role"`
	RoleText   string          `json:"role_text" db:"-"`
	Action     string          `json:"action" db:"action"`
	ActionText string          `json:"action_text" db:"-"`
	ObjectType string          `json:"object_type" db:"object_type"`
	ObjectText string          `json:"object_text" db:"-"`
	ObjectID   string          `json:"object_id" db:"object_id"`
	BeforeText *string         `json:"-" db:"before_data"`
	AfterText  *string         `json:"-" db:"after_data"`
	Before     json.RawMessage `json:"before" db:"-"`
	After      json.RawMessage `json:"after" db:"-"`
	CaseID     *int64          `json:"case_id" db:"case_id" doc:"The case (patient) the action touched"`
	CaseText   string          `json:"case_text" db:"-" doc:"That case for people: consultation number and patient"`
	IP         string          `json:"ip" db:"ip"`
	UserAgent  string          `json:"user_agent" db:"user_agent"`
	Outcome    string          `json:"outcome" db:"outcome" enum:"success,failure,denied,not_found"`
	Message    string          `json:"message" db:"message" doc:"For list reads and exports, the filter they ran with"`
	Seq        *int64          `json:"seq" db:"seq" doc:"Place in the tamper-evident chain; empty until sealed (within seconds)"`
}

var list = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":          {Expr: "a.id", Type: listquery.Int, Sort: true, Filter: true},
		"created_at":  {Expr: "a.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"user_id":     {Expr: "a.user_id", Type: listquery.Int, Filter: true},
		"username":    {Expr: "a.username", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"role":        {Expr: "a.role", Type: listquery.String, Filter: true},
		"action":      {Expr: "a.action", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"object_type": {Expr: "a.object_type", Type: listquery.String, Filter: true},
		"object_id":   {Expr: "a.object_id", Type: listquery.String, Filter: true, Search: true},
		"case_id":     {Expr: "a.case_id", Type: listquery.Int, Filter: true, Nullable: true},
		"ip":          {Expr: "a.ip", Type: listquery.String, Filter: true, Search: true},
		"outcome":     {Expr: "a.outcome", Type: listquery.String, Filter: true, Enum: []any{Success, Failure, Denied, NotFound}},
	},
	DefaultSort: []string{"a.id DESC"},
	TieBreak:    "a.id DESC",
	// patient: a case id, a consultation or pathology number, a patient's
	// name or ID number; the log then shows what was done to that patient's cases.
	ExtraParams: []string{"tab", "patient"},
}

var tabs = map[string]sq.Sqlizer{
	"all":     sq.Expr("1=1"),
	"failure": sq.Eq{"a.outcome": Failure},
	"denied":  sq.Eq{"a.outcome": Denied},
}

// where is the condition of a log request: its tab and its patient.
func (l *Log) where(ctx context.Context, q *listquery.Query) (sq.Sqlizer, error) {
	tab, err := q.Tab(tabs)
	if err != nil {
		return nil, err
	}
	patient, err := l.patient(ctx, q)
	if err != nil {
		return nil, err
	}
	return sq.And{tab, patient}, nil
}

// patient limits the log to the records of the cases params.patient names.
func (l *Log) patient(ctx context.Context, q *listquery.Query) (sq.Sqlizer, error) {
	text := strings.TrimSpace(q.ExtraString("patient"))
	if text == "" || l.Cases == nil {
		return sq.Expr("1=1"), nil
	}
	ids, err := l.Cases.FindCases(ctx, text)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return sq.Expr("1=0"), nil
	}
	return sq.Eq{"a.case_id": ids}, nil
}

// List returns a page of the operation log.
func (l *Log) List(ctx context.Context, req listquery.Request) ([]Record, listquery.Pagination, error) {
	q, err := list.Parse(l.DB.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	where, err := l.where(ctx, q)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	b := l.DB.Builder()
	rows, page, err := listquery.Run[Record](ctx, l.DB, q,
		b.Select("a.id, a.created_at, a.user_id, a.username, a.role, a.action, a.object_type, a.object_id, a.case_id, "+
			"a.before_data, a.after_data, a.ip, a.user_agent, a.outcome, a.message, a.seq").From("audit_logs a").Where(where),
		b.Select("COUNT(*)").From("audit_logs a").Where(where))
	if err != nil {
		return nil, page, err
	}
	lang := i18n.From(ctx)
	for i := range rows {
		r := &rows[i]
		r.Before, r.After = raw(r.BeforeText), raw(r.AfterText)
		r.RoleText, r.ActionText, r.ObjectText = roleText(lang, r.Role), actionText(lang, r.Action), label(lang, "audit.object."+r.ObjectType, r.ObjectType)
	}
	return rows, page, l.nameCases(ctx, rows)
}

// nameCases fills CaseText from the consultation domain.
func (l *Log) nameCases(ctx context.Context, rows []Record) error {
	if l.Cases == nil {
		return nil
	}
	var ids []int64
	for _, r := range rows {
		if r.CaseID != nil {
			ids = append(ids, *r.CaseID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	names, err := l.Cases.CaseLabels(ctx, ids)
	for i, r := range rows {
		if r.CaseID != nil {
			rows[i].CaseText = names[*r.CaseID]
		}
	}
	return err
}

// label is the message for key in lang, or fallback when there is none.
func label(lang i18n.Lang, key, fallback string) string {
	if msg := i18n.T(lang, key, nil); msg != key {
		return msg
	}
	return fallback
}

// actionText names an action for people; case transitions share the case
// log's names.
func actionText(lang i18n.Lang, action string) string {
	if step, ok := strings.CutPrefix(action, "consultation."); ok {
		return label(lang, "case.action."+step, action)
	}
	return label(lang, "audit.action."+action, action)
}

// roleText names each role of a comma-separated list.
func roleText(lang i18n.Lang, roles string) string {
	if roles == "" {
		return ""
	}
	parts := strings.Split(roles, ",")
	for i, r := range parts {
		parts[i] = label(lang, "role."+r, r)
	}
	return strings.Join(parts, "、")
}

func raw(s *string) json.RawMessage {
	if s == nil || *s == "" {
		return nil
	}
	return json.RawMessage(*s)
}

// Count returns the operation log's tab counts; the patient filter narrows each.
func (l *Log) Count(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := list.Parse(l.DB.Dialect, req)
	if err != nil {
		return nil, err
	}
	patient, err := l.patient(ctx, q)
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, l.DB, q, l.DB.Builder().Select().From("audit_logs a").Where(patient), tabs)
}

// Localize writes the report's finding in lang.
func (r *Report) Localize(lang i18n.Lang) {
	if r.Broken == nil {
		return
	}
	key := "audit.verify." + r.Broken.Reason
	if r.Broken.ID == 0 {
		key = "audit.verify.missing_end"
	}
	r.Broken.Message = i18n.T(lang, key, map[string]any{"id": r.Broken.ID, "seq": r.Broken.Seq})
}
