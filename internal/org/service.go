package org

import (
	"context"
	"slices"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Service manages centers and hospitals and answers data-scope questions
// about them for the other domains.
type Service struct {
	clock clock.Clock
	db    *db.DB
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// New returns the organisation service.
func New(d *db.DB) *Service { return &Service{db: d} }

// Scope is the set of organisations a principal may see; All means no limit.
type Scope struct {
	All         bool
	CenterIDs   []int64
	HospitalIDs []int64
}

// ScopeOf returns what p may see: admin everything; a center administrator
// their centers, the sub-centers below them and the hospitals bound to any of
// those; everyone else the centers and hospitals they are bound to.
func (s *Service) ScopeOf(ctx context.Context, p *access.Principal) (Scope, error) {
	if p.IsAdmin() {
		return Scope{All: true}, nil
	}
	centers := slices.Clone(p.CenterIDs)
	hospitals := slices.Clone(p.HospitalIDs)
	if p.Has(access.CenterAdmin) && len(p.CenterIDs) > 0 {
		var err error
		if centers, err = s.withSubCenters(ctx, p.CenterIDs); err != nil {
			return Scope{}, err
		}
		var bound []int64
		if err := db.Select(ctx, s.db, &bound, s.db.Builder().Select("DISTINCT hospital_id").From("hospital_centers").
			Where(sq.Eq{"center_id": centers})); err != nil {
			return Scope{}, apperr.Wrap(err, "scope hospitals")
		}
		hospitals = union(hospitals, bound)
	}
	return Scope{CenterIDs: centers, HospitalIDs: hospitals}, nil
}

// withSubCenters returns ids and every center below them.
func (s *Service) withSubCenters(ctx context.Context, ids []int64) ([]int64, error) {
	all := slices.Clone(ids)
	frontier := ids
	for depth := 0; depth < 8 && len(frontier) > 0; depth++ {
		var children []int64
		if err := db.Select(ctx, s.db, &children, s.db.Builder().Select("id").From("centers").
			Where(sq.Eq{"parent_id": frontier}).Where("deleted_at IS NULL")); err != nil {
			return nil, apperr.Wrap(err, "sub-centers")
		}
		var next []int64
		for _, c := range children {
			if !slices.Contains(all, c) {
				all = append(all, c)
				next = append(next, c)
			}
		}
		frontier = next
	}
	return all, nil
}

// HospitalsOfCenters returns the hospitals bound to any of the centers.
func (s *Service) HospitalsOfCenters(ctx context.Context, centerIDs []int64) ([]int64, error) {
	var ids []int64
	if len(centerIDs) == 0 {
		return ids, nil
	}
	err := db.Select(ctx, s.db, &ids, s.db.Builder().Select("DISTINCT hospital_id").From("hospital_centers").Where(sq.Eq{"center_id": centerIDs}))
	return ids, apperr.Wrap(err, "hospitals of centers")
}

// CentersOfHospital returns the centers a hospital is bound to.
func (s *Service) CentersOfHospital(ctx context.Context, hospitalID int64) ([]int64, error) {
	ids := []int64{}
	err := db.Select(ctx, s.db, &ids, s.db.Builder().Select("center_id").From("hospital_centers").Where("hospital_id = ?", hospitalID).OrderBy("center_id"))
	return ids, apperr.Wrap(err, "centers of hospital")
}

// CenterRefs returns id and name of the given centers, in id order.
func (s *Service) CenterRefs(ctx context.Context, ids []int64) ([]Ref, error) {
	return s.refs(ctx, "centers", ids)
}

// HospitalRefs returns id and name of the given hospitals, in id order.
func (s *Service) HospitalRefs(ctx context.Context, ids []int64) ([]Ref, error) {
	return s.refs(ctx, "hospitals", ids)
}

func (s *Service) refs(ctx context.Context, table string, ids []int64) ([]Ref, error) {
	out := []Ref{}
	if len(ids) == 0 {
		return out, nil
	}
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select("id", "name").From(table).Where(sq.Eq{"id": ids}).OrderBy("id"))
	return out, apperr.Wrap(err, "load %s", table)
}

// CheckCenters refuses center ids that do not exist or lie outside scope.
func (s *Service) CheckCenters(ctx context.Context, sc Scope, field string, ids []int64) error {
	return s.checkIDs(ctx, "centers", sc.All, sc.CenterIDs, field, ids)
}

// CheckHospitals refuses hospital ids that do not exist or lie outside scope.
func (s *Service) CheckHospitals(ctx context.Context, sc Scope, field string, ids []int64) error {
	return s.checkIDs(ctx, "hospitals", sc.All, sc.HospitalIDs, field, ids)
}

func (s *Service) checkIDs(ctx context.Context, table string, all bool, allowed []int64, field string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	bad := apperr.New(apperr.Invalid, "error.validation").Field(field, "org.unknown_ref")
	for _, id := range ids {
		if !all && !slices.Contains(allowed, id) {
			return bad
		}
	}
	var n int
	if err := db.Get(ctx, s.db, &n, s.db.Builder().Select("COUNT(*)").From(table).
		Where(sq.Eq{"id": dedupe(ids)}).Where("deleted_at IS NULL")); err != nil {
		return apperr.Wrap(err, "check %s", table)
	}
	if n != len(dedupe(ids)) {
		return bad
	}
	return nil
}

func union(a, b []int64) []int64 {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func dedupe(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
