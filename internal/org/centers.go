package org

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

var centerList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":         {Expr: "c.id", Type: listquery.Int, Sort: true, Filter: true},
		"name":       {Expr: "c.name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"code":       {Expr: "c.code", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"parent_id":  {Expr: "c.parent_id", Type: listquery.Int, Filter: true},
		"address":    {Expr: "c.address", Type: listquery.String, Filter: true, Search: true},
		"contact":    {Expr: "c.contact", Type: listquery.String, Filter: true, Search: true},
		"phone":      {Expr: "c.phone", Type: listquery.String, Filter: true},
		"status":     {Expr: "c.status", Type: listquery.Int, Sort: true, Filter: true},
		"created_at": {Expr: "c.created_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"c.id ASC"},
	TieBreak:    "c.id ASC",
}

const centerColumns = `c.id, c.name, c.code, c.parent_id, p.name AS parent_name, c.address, c.phone, c.contact,
	c.remark, c.status, c.frozen_amber_min, c.frozen_red_min, c.created_at, c.updated_at,
	(SELECT COUNT(*) FROM hospital_centers hc JOIN hospitals h ON h.id = hc.hospital_id AND h.deleted_at IS NULL
	 WHERE hc.center_id = c.id) AS hospital_count`

func (s *Service) centerScope(ctx context.Context, b sq.SelectBuilder) (sq.SelectBuilder, error) {
	sc, err := s.ScopeOf(ctx, access.FromContext(ctx))
	if err != nil {
		return b, err
	}
	b = b.Where("c.deleted_at IS NULL")
	if !sc.All {
		b = b.Where(sq.Eq{"c.id": nonNil(sc.CenterIDs)})
	}
	return b, nil
}

// ListCenters returns a page of the centers the caller may see.
func (s *Service) ListCenters(ctx context.Context, req listquery.Request) ([]Center, listquery.Pagination, error) {
	q, err := centerList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	base, err := s.centerScope(ctx, s.db.Builder().Select(centerColumns).From("centers c").LeftJoin("centers p ON p.id = c.parent_id"))
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	count, _ := s.centerScope(ctx, s.db.Builder().Select("COUNT(*)").From("centers c"))
	return listquery.Run[Center](ctx, s.db, q, base, count)
}

// CountCenters returns the tab counts of the center list.
func (s *Service) CountCenters(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := centerList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	base, err := s.centerScope(ctx, s.db.Builder().Select().From("centers c"))
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, s.db, q, base, map[string]sq.Sqlizer{"all": sq.Expr("1=1")})
}

// Center returns one center the caller may see.
func (s *Service) Center(ctx context.Context, id int64) (*Center, error) {
	return s.center(ctx, s.db, id)
}

func (s *Service) center(ctx context.Context, q db.Querier, id int64) (*Center, error) {
	b, err := s.centerScope(ctx, s.db.Builder().Select(centerColumns).From("centers c").LeftJoin("centers p ON p.id = c.parent_id").Where("c.id = ?", id))
	if err != nil {
		return nil, err
	}
	var c Center
	if err := db.Get(ctx, q, &c, b); errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load center")
	}
	return &c, nil
}

func (s *Service) validateCenter(ctx context.Context, q db.Querier, id int64, in *CenterInput) error {
	in.Name = strings.TrimSpace(in.Name)
	var v apperr.Validation
	if in.Name == "" {
		v.Add("name", "field.required")
	} else {
		var n int
		if err := db.Get(ctx, q, &n, s.db.Builder().Select("COUNT(*)").From("centers").
			Where("name = ? AND id <> ? AND deleted_at IS NULL", in.Name, id)); err != nil {
			return apperr.Wrap(err, "check name")
		}
		if n > 0 {
			v.Add("name", "org.name_taken")
		}
	}
	if (in.FrozenAmberMin != nil && *in.FrozenAmberMin <= 0) || (in.FrozenAmberMin != nil && *in.FrozenAmberMin > 1440) {
		v.Add("frozen_amber_min", "org.frozen_minutes")
	}
	if (in.FrozenRedMin != nil && *in.FrozenRedMin <= 0) || (in.FrozenRedMin != nil && *in.FrozenRedMin > 1440) {
		v.Add("frozen_red_min", "org.frozen_minutes")
	}
	if in.ParentID != nil {
		if *in.ParentID == id {
			v.Add("parent_id", "org.parent_self")
		} else if err := s.checkIDs(ctx, "centers", true, nil, "parent_id", []int64{*in.ParentID}); err != nil {
			v.Add("parent_id", "org.unknown_ref")
		} else if id != 0 {
			below, err := s.withSubCenters(ctx, []int64{id})
			if err != nil {
				return err
			}
			for _, b := range below {
				if b == *in.ParentID {
					v.Add("parent_id", "org.parent_cycle")
				}
			}
		}
	}
	return v.Err()
}

// CreateCenter adds a center (admin only, by route).
func (s *Service) CreateCenter(ctx context.Context, in CenterInput) (*Center, error) {
	var out *Center
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.validateCenter(ctx, tx, 0, &in); err != nil {
			return err
		}
		if err := checkThresholds(statusOr(in.FrozenAmberMin, 15), statusOr(in.FrozenRedMin, 20)); err != nil {
			return err
		}
		now := s.clock.Now()
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("centers").
			Columns("name", "code", "parent_id", "address", "phone", "contact", "remark", "status", "frozen_amber_min", "frozen_red_min", "created_at", "updated_at").
			Values(in.Name, in.Code, in.ParentID, in.Address, in.Phone, in.Contact, in.Remark, statusOr(in.Status, 1), statusOr(in.FrozenAmberMin, 15), statusOr(in.FrozenRedMin, 20), now, now))
		if err != nil {
			return apperr.Wrap(err, "insert center")
		}
		if out, err = s.center(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "center.create", ObjectType: "center", ObjectID: id, After: out})
	})
	return out, err
}

// UpdateCenter changes a center.
func (s *Service) UpdateCenter(ctx context.Context, id int64, in CenterInput) (*Center, error) {
	var out *Center
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.center(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := s.validateCenter(ctx, tx, id, &in); err != nil {
			return err
		}
		amber, red := statusOr(in.FrozenAmberMin, before.FrozenAmberMin), statusOr(in.FrozenRedMin, before.FrozenRedMin)
		if err := checkThresholds(amber, red); err != nil {
			return err
		}
		_, err = db.Exec(ctx, tx, tx.Builder().Update("centers").SetMap(map[string]any{
			"name": in.Name, "code": in.Code, "parent_id": in.ParentID, "address": in.Address, "phone": in.Phone,
			"contact": in.Contact, "remark": in.Remark, "status": statusOr(in.Status, before.Status), "updated_at": s.clock.Now(),
			"frozen_amber_min": amber, "frozen_red_min": red,
		}).Where("id = ?", id))
		if err != nil {
			return apperr.Wrap(err, "update center")
		}
		if out, err = s.center(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "center.update", ObjectType: "center", ObjectID: id, Before: before, After: out})
	})
	return out, err
}

// DeleteCenter removes a center that has no sub-centers and no hospitals.
func (s *Service) DeleteCenter(ctx context.Context, id int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.center(ctx, tx, id)
		if err != nil {
			return err
		}
		var children int
		if err := db.Get(ctx, tx, &children, tx.Builder().Select("COUNT(*)").From("centers").Where("parent_id = ? AND deleted_at IS NULL", id)); err != nil {
			return apperr.Wrap(err, "count sub-centers")
		}
		if children > 0 {
			return apperr.New(apperr.Conflict, "org.center_has_children")
		}
		if before.HospitalCount > 0 {
			return apperr.New(apperr.Conflict, "org.center_has_hospitals")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("centers").Set("deleted_at", s.clock.Now()).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete center")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "center.delete", ObjectType: "center", ObjectID: id, Before: before})
	})
}

func statusOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// nonNil keeps IN () from matching everything when a scope is empty.
func nonNil(ids []int64) []int64 {
	if len(ids) == 0 {
		return []int64{-1}
	}
	return ids
}

// checkThresholds refuses a frozen clock that turns red before it turns amber.
func checkThresholds(amber, red int) error {
	if amber >= red {
		var v apperr.Validation
		v.Add("frozen_red_min", "org.frozen_red_after_amber")
		return v.Err()
	}
	return nil
}
