package audit

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
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
	IP         string          `json:"ip" db:"ip"`
	Outcome    string          `json:"outcome" db:"outcome" enum:"success,failure,denied"`
	Message    string          `json:"message" db:"message"`
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
		"ip":          {Expr: "a.ip", Type: listquery.String, Filter: true, Search: true},
		"outcome":     {Expr: "a.outcome", Type: listquery.String, Filter: true, Enum: []any{Success, Failure, Denied}},
	},
	DefaultSort: []string{"a.id DESC"},
	TieBreak:    "a.id DESC",
	ExtraParams: []string{"tab"},
}

var tabs = map[string]sq.Sqlizer{
	"all":     sq.Expr("1=1"),
	"failure": sq.Eq{"a.outcome": Failure},
	"denied":  sq.Eq{"a.outcome": Denied},
}

// List returns a page of the operation log.
func (l *Log) List(ctx context.Context, req listquery.Request) ([]Record, listquery.Pagination, error) {
	q, err := list.Parse(l.DB.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	tab, err := q.Tab(tabs)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	b := l.DB.Builder()
	rows, page, err := listquery.Run[Record](ctx, l.DB, q,
		b.Select("a.id, a.created_at, a.user_id, a.username, a.role, a.action, a.object_type, a.object_id, a.before_data, a.after_data, a.ip, a.outcome, a.message").From("audit_logs a").Where(tab),
		b.Select("COUNT(*)").From("audit_logs a").Where(tab))
	lang := httpx.Lang(ctx)
	for i := range rows {
		r := &rows[i]
		r.Before, r.After = raw(r.BeforeText), raw(r.AfterText)
		r.RoleText, r.ActionText, r.ObjectText = roleText(lang, r.Role), actionText(lang, r.Action), label(lang, "audit.object."+r.ObjectType, r.ObjectType)
	}
	return rows, page, err
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

// Routes registers the read-only operation log (admin only).
func (l *Log) Routes(api *httpx.API) {
	tags := []string{"Audit"}
	admins := []string{access.Admin}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/log/operation", ID: "audit-list", Summary: "Operation log", Tags: tags, Roles: admins},
		func(ctx context.Context, in *listquery.Input) (*httpx.List[Record], error) {
			rows, page, err := l.List(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/log/operation/count", ID: "audit-count", Summary: "Operation log tab counts", Tags: tags, Roles: admins},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			q, err := list.Parse(l.DB.Dialect, in.Request())
			if err != nil {
				return nil, err
			}
			c, err := listquery.Counts(ctx, l.DB, q, l.DB.Builder().Select().From("audit_logs a"), tabs)
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
}
