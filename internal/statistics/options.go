package statistics

import (
	"context"
	"slices"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Option is one choice of a filter.
type Option struct {
	ID   int64  `json:"id" db:"id"`
	Name string `json:"name" db:"name"`
}

// Options are the filter choices of the statistics screens within the
// caller's widest statistics scope: the values the screens accept.
type Options struct {
	Centers   []Option `json:"centers"`
	Hospitals []Option `json:"hospitals"`
	Libraries []Option `json:"libraries"`
	Experts   []Option `json:"experts"`
	Kinds     []string `json:"kinds"`
}

// StatReaders are the roles that open at least one statistics screen.
var StatReaders = func() []string {
	var out []string
	for _, sc := range screens {
		for _, r := range sc.roles {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	access.SortRoles(out)
	return out
}()

// Options lists the filter choices.
func (s *Service) Options(ctx context.Context) (*Options, error) {
	sc := scopeOf(access.FromContext(ctx), StatReaders)
	b := s.db.Builder()
	centers := b.Select("id, name").From("centers").Where("deleted_at IS NULL").OrderBy("name", "id")
	hospitals := b.Select("id, name").From("hospitals").Where("deleted_at IS NULL").OrderBy("name", "id")
	experts := b.Select("u.id, u.name").From("users u").Join("user_roles ur ON ur.user_id = u.id").
		Where("ur.role = ? AND u.deleted_at IS NULL", access.Expert).OrderBy("u.name", "u.id")
	in := func(col string, xs []int64) sq.Sqlizer { return sq.Eq{col: xs} }
	switch {
	case len(sc.centers) > 0:
		centers = centers.Where(in("id", sc.centers))
		hospitals = hospitals.Where(sq.Expr("id IN (SELECT hospital_id FROM hospital_centers WHERE center_id IN ("+sq.Placeholders(len(sc.centers))+"))", ids(sc.centers)...))
		experts = experts.Where(sq.Expr("u.id IN (SELECT user_id FROM user_centers WHERE center_id IN ("+sq.Placeholders(len(sc.centers))+"))", ids(sc.centers)...))
	case len(sc.hospitals) > 0:
		linked := "SELECT center_id FROM hospital_centers WHERE hospital_id IN (" + sq.Placeholders(len(sc.hospitals)) + ")"
		centers = centers.Where(sq.Expr("id IN ("+linked+")", ids(sc.hospitals)...))
		hospitals = hospitals.Where(in("id", sc.hospitals))
		experts = experts.Where(sq.Expr("u.id IN (SELECT user_id FROM user_centers WHERE center_id IN ("+linked+"))", ids(sc.hospitals)...))
	case sc.expert > 0:
		mine := "SELECT center_id FROM user_centers WHERE user_id = ?"
		centers = centers.Where(sq.Expr("id IN ("+mine+")", sc.expert))
		hospitals = hospitals.Where(sq.Expr("id IN (SELECT hospital_id FROM hospital_centers WHERE center_id IN ("+mine+"))", sc.expert))
		experts = experts.Where("u.id = ?", sc.expert)
	}
	out := &Options{Kinds: Kinds}
	for _, q := range []struct {
		dst *[]Option
		b   sq.SelectBuilder
	}{
		{&out.Centers, centers}, {&out.Hospitals, hospitals}, {&out.Experts, experts},
		{&out.Libraries, b.Select("id, name").From("libraries").Where("deleted_at IS NULL").OrderBy("id")},
	} {
		*q.dst = []Option{}
		if err := db.Select(ctx, s.db, q.dst, q.b); err != nil {
			return nil, apperr.Wrap(err, "statistics options")
		}
	}
	return out, nil
}
