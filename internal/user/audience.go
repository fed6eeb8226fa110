package user

import (
	"context"

	sq "github.com/Masterminds/squirrel"

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
	err := db.Select(ctx, s.db, &out, q)
	return out, apperr.Wrap(err, "audience")
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
