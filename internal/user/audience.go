package user

import (
	"context"
	"slices"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Audience names a set of users by role and organisation: the enabled users
// who hold one of Roles (any role when empty) and are bound to one of
// CenterIDs or HospitalIDs (anywhere when both are empty), narrowed to
// UserIDs when given.
type Audience struct {
	Roles       []string
	CenterIDs   []int64
	HospitalIDs []int64
	UserIDs     []int64
}

// Audience lists the ids of the users a names, in id order.
func (s *Service) Audience(ctx context.Context, a Audience) ([]int64, error) {
	q := s.db.Builder().Select("u.id").From("users u").Where("u.status = 1 AND u.deleted_at IS NULL").OrderBy("u.id")
	if len(a.Roles) > 0 {
		q = q.Where(sq.Expr("u.id IN (SELECT user_id FROM user_roles WHERE "+inList("role", len(a.Roles))+")", anys(a.Roles)...))
	}
	org := sq.Or{}
	if len(a.CenterIDs) > 0 {
		org = append(org, sq.Expr("u.id IN (SELECT user_id FROM user_centers WHERE "+inList("center_id", len(a.CenterIDs))+")", anys(a.CenterIDs)...))
	}
	if len(a.HospitalIDs) > 0 {
		org = append(org, sq.Expr("u.id IN (SELECT user_id FROM user_hospitals WHERE "+inList("hospital_id", len(a.HospitalIDs))+")", anys(a.HospitalIDs)...))
	}
	if len(org) > 0 {
		q = q.Where(org)
	}
	if a.UserIDs != nil {
		if len(a.UserIDs) == 0 {
			return []int64{}, nil
		}
		q = q.Where(sq.Eq{"u.id": a.UserIDs})
	}
	out := []int64{}
	if err := db.Select(ctx, s.db, &out, q); err != nil {
		return nil, apperr.Wrap(err, "audience")
	}
	return s.workingThere(ctx, a, out)
}

// workingThere drops from ids the users the audience names only by a role
// whose configuration places them elsewhere (as the principal is narrowed
// at sign-in): an allocator configured with other centers, a site account
// configured with another site.
func (s *Service) workingThere(ctx context.Context, a Audience, ids []int64) ([]int64, error) {
	narrowed := map[string][]int64{access.Allocator: a.CenterIDs, access.Site: a.HospitalIDs}
	check := false
	for role, where := range narrowed {
		check = check || (len(where) > 0 && slices.Contains(a.Roles, role))
	}
	if !check || len(ids) == 0 {
		return ids, nil
	}
	var rows []struct {
		UserID int64  `db:"user_id"`
		Role   string `db:"role"`
		Config string `db:"cfg"`
	}
	if err := db.Select(ctx, s.db, &rows, s.db.Builder().Select("user_id", "role", "CAST(config AS TEXT) AS cfg").From("user_roles").
		Where(sq.Eq{"user_id": ids})); err != nil {
		return nil, apperr.Wrap(err, "audience roles")
	}
	// by user: whether another role names them, and whether a narrowed role places them elsewhere
	other, elsewhere := map[int64]bool{}, map[int64]bool{}
	for _, r := range rows {
		where, narrows := narrowed[r.Role]
		switch {
		case r.Role == access.Admin || r.Role == access.Root || r.Role == access.CenterAdmin && len(a.CenterIDs) > 0:
			other[r.UserID] = true
		case narrows && len(where) > 0 && slices.Contains(a.Roles, r.Role):
			c := parseConfig(r.Config)
			places := c.CenterIDs
			if r.Role == access.Site && c.SiteID != nil {
				places = []int64{*c.SiteID}
			}
			if len(places) > 0 && !slices.ContainsFunc(places, func(id int64) bool { return slices.Contains(where, id) }) {
				elsewhere[r.UserID] = true
			} else {
				other[r.UserID] = true
			}
		case len(a.Roles) == 0 || slices.Contains(a.Roles, r.Role):
			other[r.UserID] = true
		}
	}
	return slices.DeleteFunc(ids, func(id int64) bool { return elsewhere[id] && !other[id] }), nil
}

func inList(col string, n int) string {
	s := col + " IN ("
	for i := range n {
		if i > 0 {
			s += ", "
		}
		s += "?"
	}
	return s + ")"
}

func anys[T any](v []T) []any {
	out := make([]any, len(v))
	for i := range v {
		out[i] = v[i]
	}
	return out
}

// Named is a user's name and user name, for lists that show people.
type Named struct {
	ID       int64  `db:"id"`
	Name     string `db:"name"`
	Username string `db:"username"`
}

// Names returns the names of the users ids (deleted ones too: a list of
// who read a notice keeps showing them).
func (s *Service) Names(ctx context.Context, ids []int64) (map[int64]Named, error) {
	out := map[int64]Named{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []Named
	if err := db.Select(ctx, s.db, &rows, s.db.Builder().Select("id", "name", "username").From("users").Where(sq.Eq{"id": ids})); err != nil {
		return nil, apperr.Wrap(err, "user names")
	}
	for _, r := range rows {
		out[r.ID] = r
	}
	return out, nil
}
