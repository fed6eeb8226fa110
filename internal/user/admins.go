package user

import (
	"context"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/listquery"
)

// Administrator is a row of /admin/manage: an administrator or center
// administrator and what they may manage (spec 1 §2 admin group).
type Administrator struct {
	User
	ManagesAll bool `json:"manages_all" db:"-" doc:"An administrator: every center and hospital"`
}

// adminTabs are the tabs of /admin/manage (params.tab).
var adminTabs = map[string]sq.Sqlizer{
	"all":          nil,
	"admin":        sq.Expr("u.id IN (SELECT r.user_id FROM user_roles r WHERE r.role = ?)", access.Admin),
	"center_admin": sq.Expr("u.id IN (SELECT r.user_id FROM user_roles r WHERE r.role = ?)", access.CenterAdmin),
}

var administrative = sq.Expr("u.id IN (SELECT r.user_id FROM user_roles r WHERE r.role IN (?, ?))", access.Admin, access.CenterAdmin)

func (s *Service) parseAdmins(ctx context.Context, req listquery.Request, b sq.SelectBuilder, withTab bool) (*listquery.Query, sq.SelectBuilder, error) {
	q, err := list.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, b, err
	}
	b = b.Where(administrative)
	if tab := q.ExtraString("tab"); tab != "" && withTab {
		cond, ok := adminTabs[tab]
		if !ok {
			return nil, b, apperr.New(apperr.Invalid, "list.bad_value").With("column", "tab")
		}
		if cond != nil {
			b = b.Where(cond)
		}
	}
	b, err = s.scoped(ctx, b)
	return q, b, err
}

// Administrators lists the administrators and center administrators with
// the centers each may manage.
func (s *Service) Administrators(ctx context.Context, req listquery.Request) ([]Administrator, listquery.Pagination, error) {
	q, base, err := s.parseAdmins(ctx, req, s.db.Builder().Select(columns).From("users u"), true)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	_, count, _ := s.parseAdmins(ctx, req, s.db.Builder().Select("COUNT(*)").From("users u"), true)
	rows, page, err := listquery.Run[User](ctx, s.db, q, base, count)
	if err != nil {
		return nil, page, err
	}
	if err := s.attach(ctx, s.db, rows); err != nil {
		return nil, page, err
	}
	if err := s.markManageable(ctx, rows); err != nil {
		return nil, page, err
	}
	out := make([]Administrator, len(rows))
	for i, u := range rows {
		out[i] = Administrator{User: u}
		for _, r := range u.Roles {
			out[i].ManagesAll = out[i].ManagesAll || r == access.Admin || r == access.Root
		}
	}
	return out, page, nil
}

// AdministratorCounts counts the tabs of /admin/manage.
func (s *Service) AdministratorCounts(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, base, err := s.parseAdmins(ctx, req, s.db.Builder().Select().From("users u"), false)
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, s.db, q, base, adminTabs)
}
