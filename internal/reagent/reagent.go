// Package reagent keeps the antibodies and reagents of special exams (spec 1
// §2 /setting/reagent): name, clone, vendor, lot, expiry and status. The
// advice dialog's marker picker offers the enabled ones that have not
// expired (Options).
package reagent

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// Service manages reagents.
type Service struct {
	clock clock.Clock
	db    *db.DB
}

// New returns the reagent service.
func New(d *db.DB) *Service { return &Service{db: d} }

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// Reagent is an antibody or reagent of special exams.
type Reagent struct {
	ID        int64     `json:"id" db:"id"`
	Name      string    `json:"name" db:"name" doc:"Antibody or reagent, e.g. Ki-67"`
	Clone     string    `json:"clone" db:"clone" doc:"Antibody clone, e.g. MIB-1"`
	Vendor    string    `json:"vendor" db:"vendor"`
	Lot       string    `json:"lot" db:"lot"`
	ExpiresOn string    `json:"expires_on" db:"expires_on" doc:"Last day of use, YYYY-MM-DD"`
	Status    int       `json:"status" db:"status" enum:"0,1" doc:"1 enabled, 0 disabled"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	UpdatedAt time.Time `json:"updated_at" db:"updated_at"`
}

// ReagentInput creates a reagent.
type ReagentInput struct {
	Name      string `json:"name,omitempty" maxLength:"100"`
	Clone     string `json:"clone,omitempty" maxLength:"100"`
	Vendor    string `json:"vendor,omitempty" maxLength:"100"`
	Lot       string `json:"lot,omitempty" maxLength:"50"`
	ExpiresOn string `json:"expires_on,omitempty" maxLength:"10" doc:"YYYY-MM-DD, today or later"`
	Status    *int   `json:"status,omitempty" enum:"0,1"`
}

// ReagentPatch changes the given fields of a reagent.
type ReagentPatch struct {
	ID        int64   `json:"id" minimum:"1"`
	Name      *string `json:"name,omitempty" maxLength:"100"`
	Clone     *string `json:"clone,omitempty" maxLength:"100"`
	Vendor    *string `json:"vendor,omitempty" maxLength:"100"`
	Lot       *string `json:"lot,omitempty" maxLength:"50"`
	ExpiresOn *string `json:"expires_on,omitempty" maxLength:"10"`
	Status    *int    `json:"status,omitempty" enum:"0,1"`
}

// ReagentOption is a reagent the marker picker offers.
type ReagentOption struct {
	ID        int64  `json:"id" db:"id"`
	Name      string `json:"name" db:"name"`
	Clone     string `json:"clone" db:"clone"`
	Lot       string `json:"lot" db:"lot"`
	ExpiresOn string `json:"expires_on" db:"expires_on"`
}

var list = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":         {Expr: "r.id", Type: listquery.Int, Sort: true, Filter: true},
		"name":       {Expr: "r.name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"clone":      {Expr: "r.clone", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"vendor":     {Expr: "r.vendor", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"lot":        {Expr: "r.lot", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"expires_on": {Expr: "r.expires_on", Type: listquery.String, Sort: true, Filter: true},
		"status":     {Expr: "r.status", Type: listquery.Int, Sort: true, Filter: true},
		"created_at": {Expr: "r.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"updated_at": {Expr: "r.updated_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"r.name ASC"},
	TieBreak:    "r.id ASC",
	ExtraParams: []string{"tab"},
}

var tabs = listquery.StatusTabs("r.status")

const columns = `r.id, r.name, r.clone, r.vendor, r.lot, r.expires_on, r.status, r.created_at, r.updated_at`

func (s *Service) selectAll() sq.SelectBuilder {
	return s.db.Builder().Select(columns).From("reagents r")
}

// List returns a page of reagents.
func (s *Service) List(ctx context.Context, req listquery.Request) ([]Reagent, listquery.Pagination, error) {
	q, err := list.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	tab, err := q.Tab(tabs)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	count := s.db.Builder().Select("COUNT(*)").From("reagents r").Where(tab)
	return listquery.Run[Reagent](ctx, s.db, q, s.selectAll().Where(tab), count)
}

// Count returns the tab counts: all, enabled, disabled.
func (s *Service) Count(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := list.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, s.db, q, s.db.Builder().Select().From("reagents r"), tabs)
}

// Get returns a reagent.
func (s *Service) Get(ctx context.Context, id int64) (*Reagent, error) { return s.get(ctx, s.db, id) }

func (s *Service) get(ctx context.Context, q db.Querier, id int64) (*Reagent, error) {
	var r Reagent
	if err := db.Get(ctx, q, &r, s.selectAll().Where("r.id = ?", id)); errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load reagent")
	}
	return &r, nil
}

func (s *Service) today() string { return s.clock.Local(s.clock.Now()).Format(time.DateOnly) }

// Options returns the enabled reagents that have not expired, by name.
func (s *Service) Options(ctx context.Context) ([]ReagentOption, error) {
	out := []ReagentOption{}
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select("r.id, r.name, r.clone, r.lot, r.expires_on").From("reagents r").
		Where("r.status = 1 AND r.expires_on >= ?", s.today()).OrderBy("r.name ASC", "r.expires_on ASC", "r.id ASC"))
	if err != nil {
		return nil, apperr.Wrap(err, "load reagent options")
	}
	return out, nil
}

// Field limits, in characters.
const (
	maxName = 100
	maxLot  = 50
)

// validate normalises r and reports bad fields: an empty name, a bad or
// past expiry (checked when changed), a name and lot pair already there.
func (s *Service) validate(ctx context.Context, q db.Querier, r *Reagent, expiryChanged bool) error {
	r.Name, r.Clone, r.Vendor, r.Lot = strings.TrimSpace(r.Name), strings.TrimSpace(r.Clone), strings.TrimSpace(r.Vendor), strings.TrimSpace(r.Lot)
	r.ExpiresOn = strings.TrimSpace(r.ExpiresOn)
	var v apperr.Validation
	if r.Name == "" {
		v.Add("name", "field.required")
	}
	for field, val := range map[string]string{"name": r.Name, "clone": r.Clone, "vendor": r.Vendor} {
		if utf8.RuneCountInString(val) > maxName {
			v.Add(field, "field.too_long", "max", maxName)
		}
	}
	if utf8.RuneCountInString(r.Lot) > maxLot {
		v.Add("lot", "field.too_long", "max", maxLot)
	}
	if r.Status != 0 && r.Status != 1 {
		v.Add("status", "field.invalid")
	}
	if r.ExpiresOn == "" {
		v.Add("expires_on", "field.required")
	} else if d, err := time.Parse(time.DateOnly, r.ExpiresOn); err != nil || d.Format(time.DateOnly) != r.ExpiresOn {
		v.Add("expires_on", "reagent.bad_date")
	} else if expiryChanged && r.ExpiresOn < s.today() {
		v.Add("expires_on", "reagent.expired")
	}
	if r.Name != "" && !v.Has("name") {
		var n int
		if err := db.Get(ctx, q, &n, s.db.Builder().Select("COUNT(*)").From("reagents").
			Where("name = ? AND lot = ? AND id <> ?", r.Name, r.Lot, r.ID)); err != nil {
			return apperr.Wrap(err, "check reagent")
		}
		if n > 0 {
			v.Add("lot", "reagent.taken")
		}
	}
	return v.Err()
}

func (r *Reagent) values(now time.Time) map[string]any {
	return map[string]any{"name": r.Name, "clone": r.Clone, "vendor": r.Vendor, "lot": r.Lot,
		"expires_on": r.ExpiresOn, "status": r.Status, "updated_at": now}
}

// Create adds a reagent.
func (s *Service) Create(ctx context.Context, in ReagentInput) (*Reagent, error) {
	r := Reagent{Name: in.Name, Clone: in.Clone, Vendor: in.Vendor, Lot: in.Lot, ExpiresOn: in.ExpiresOn, Status: 1}
	if in.Status != nil {
		r.Status = *in.Status
	}
	var out *Reagent
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.validate(ctx, tx, &r, true); err != nil {
			return err
		}
		vals := r.values(s.clock.Now())
		vals["created_at"] = vals["updated_at"]
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("reagents").SetMap(vals))
		if err != nil {
			return apperr.Wrap(err, "insert reagent")
		}
		if out, err = s.get(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "reagent.create", ObjectType: "reagent", ObjectID: id, After: out})
	})
	return out, err
}

// Update changes the fields present in p. An expiry already past may stay
// (to disable an expired reagent); a new one must be today or later.
func (s *Service) Update(ctx context.Context, p ReagentPatch) (*Reagent, error) {
	var out *Reagent
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.get(ctx, tx, p.ID)
		if err != nil {
			return err
		}
		r := *before
		set := func(dst *string, v *string) {
			if v != nil {
				*dst = *v
			}
		}
		set(&r.Name, p.Name)
		set(&r.Clone, p.Clone)
		set(&r.Vendor, p.Vendor)
		set(&r.Lot, p.Lot)
		set(&r.ExpiresOn, p.ExpiresOn)
		if p.Status != nil {
			r.Status = *p.Status
		}
		if err := s.validate(ctx, tx, &r, p.ExpiresOn != nil && strings.TrimSpace(*p.ExpiresOn) != before.ExpiresOn); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("reagents").SetMap(r.values(s.clock.Now())).Where("id = ?", p.ID)); err != nil {
			return apperr.Wrap(err, "update reagent")
		}
		if out, err = s.get(ctx, tx, p.ID); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "reagent.update", ObjectType: "reagent", ObjectID: p.ID, Before: before, After: out})
	})
	return out, err
}

// Destroy deletes reagents, all or none. Advice already ordered keeps its
// marker text.
func (s *Service) Destroy(ctx context.Context, ids []int64) error {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			before, err := s.get(ctx, tx, id)
			if err != nil {
				return err
			}
			if _, err := db.Exec(ctx, tx, tx.Builder().Delete("reagents").Where("id = ?", id)); err != nil {
				return apperr.Wrap(err, "delete reagent")
			}
			if err := audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "reagent.delete", ObjectType: "reagent", ObjectID: id, Before: before}); err != nil {
				return err
			}
		}
		return nil
	})
}
