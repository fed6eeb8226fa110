package report

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// ReportTemplate is a report template as kept in report_templates. One
// template of each kind is in use: the preview prints with it.
type ReportTemplate struct {
	ID        int64     `json:"id" db:"id"`
	Kind      string    `json:"kind" db:"kind" enum:"routine,frozen,cell"`
	Name      string    `json:"name" db:"name"`
	Active    bool      `json:"active" db:"active" doc:"In use for its kind"`
	Layout    Layout    `json:"layout" db:"layout"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	UpdatedAt time.Time `json:"updated_at" db:"updated_at"`
}

// ReportTemplateInput creates or replaces a template. Active puts it in use for
// its kind (the kind's other templates leave use); a kind with no template in
// use prints with DefaultLayout.
type ReportTemplateInput struct {
	Kind   string `json:"kind,omitempty" doc:"routine, frozen or cell; fixed once created"`
	Name   string `json:"name" doc:"Shown in the template list"`
	Active bool   `json:"active,omitempty"`
	Layout Layout `json:"layout"`
}

const maxNameRunes = 60

// Scan reads a layout stored as JSON text.
func (l *Layout) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	case nil:
		*l = Layout{}
		return nil
	default:
		return fmt.Errorf("report: layout from %T", src)
	}
	return json.Unmarshal(b, l)
}

// Value stores a layout as JSON text.
func (l Layout) Value() (driver.Value, error) {
	b, err := json.Marshal(l)
	return string(b), err
}

// Templates keeps the configured report templates.
type Templates struct {
	clock clock.Clock
	db    *db.DB
}

// UseClock sets the clock the service reads the time from.
func (s *Templates) UseClock(c clock.Clock) { s.clock = c }

// NewTemplates returns the report template store.
func NewTemplates(d *db.DB) *Templates { return &Templates{db: d} }

var templateList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":         {Expr: "t.id", Type: listquery.Int, Sort: true, Filter: true},
		"kind":       {Expr: "t.kind", Type: listquery.String, Sort: true, Filter: true},
		"name":       {Expr: "t.name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"active":     {Expr: "t.active", Type: listquery.Bool, Sort: true, Filter: true},
		"created_at": {Expr: "t.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"updated_at": {Expr: "t.updated_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"t.kind ASC", "t.active DESC"},
	TieBreak:    "t.id ASC",
	ExtraParams: []string{"tab"},
}

const templateColumns = "t.id, t.kind, t.name, t.active, t.layout, t.created_at, t.updated_at"

// List returns a page of templates (administrators only, by route).
func (s *Templates) List(ctx context.Context, req listquery.Request) ([]ReportTemplate, listquery.Pagination, error) {
	q, err := templateList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	base := s.db.Builder().Select(templateColumns).From("report_templates t")
	count := s.db.Builder().Select("COUNT(*)").From("report_templates t")
	// The list's tabs are the report kinds; "all" (or none) shows every kind.
	if tab, _ := q.Extra["tab"].(string); tab != "" && tab != "all" {
		base, count = base.Where(sq.Eq{"t.kind": tab}), count.Where(sq.Eq{"t.kind": tab})
	}
	return listquery.Run[ReportTemplate](ctx, s.db, q, base, count)
}

// Count returns the list's tab counts: all, and one per report kind.
func (s *Templates) Count(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := templateList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	tabs := map[string]sq.Sqlizer{"all": sq.Expr("1=1")}
	for _, k := range []string{KindRoutine, KindFrozen, KindCell} {
		tabs[k] = sq.Eq{"t.kind": k}
	}
	return listquery.Counts(ctx, s.db, q, s.db.Builder().Select().From("report_templates t"), tabs)
}

// Get returns one template.
func (s *Templates) Get(ctx context.Context, id int64) (*ReportTemplate, error) {
	return s.get(ctx, s.db, id)
}

func (s *Templates) get(ctx context.Context, q db.Querier, id int64) (*ReportTemplate, error) {
	var t ReportTemplate
	err := db.Get(ctx, q, &t, s.db.Builder().Select(templateColumns).From("report_templates t").Where("t.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load report template")
	}
	return &t, nil
}

// InUse returns the layout a report of kind prints with: the kind's template
// in use, or DefaultLayout when there is none.
func (s *Templates) InUse(ctx context.Context, kind string) (Layout, error) {
	var t ReportTemplate
	err := db.Get(ctx, s.db, &t, s.db.Builder().Select(templateColumns).From("report_templates t").
		Where(sq.Eq{"t.kind": kind, "t.active": 1}).OrderBy("t.updated_at DESC", "t.id DESC").Limit(1))
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultLayout(kind), nil
	}
	if err != nil {
		return Layout{}, apperr.Wrap(err, "load report template in use")
	}
	return t.Layout, nil
}

func (s *Templates) validate(in *ReportTemplateInput) error {
	in.Kind, in.Name = strings.TrimSpace(in.Kind), strings.TrimSpace(in.Name)
	in.Layout.Normalize()
	var v apperr.Validation
	switch in.Kind {
	case KindRoutine, KindFrozen, KindCell:
	default:
		v.Add("kind", KeyKindUnknown, "kind", in.Kind)
	}
	switch n := len([]rune(in.Name)); {
	case n == 0:
		v.Add("name", "field.required")
	case n > maxNameRunes:
		v.Add("name", "report.layout.name_too_long", "max", maxNameRunes)
	}
	in.Layout.Validate(&v, "layout.")
	return v.Err()
}

// Create adds a template.
func (s *Templates) Create(ctx context.Context, in ReportTemplateInput) (*ReportTemplate, error) {
	if err := s.validate(&in); err != nil {
		return nil, err
	}
	var out *ReportTemplate
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		if in.Active {
			if err := s.leaveUse(ctx, tx, in.Kind, 0, now); err != nil {
				return err
			}
		}
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("report_templates").
			Columns("kind", "name", "active", "layout", "created_at", "updated_at").
			Values(in.Kind, in.Name, flag(in.Active), in.Layout, now, now))
		if err != nil {
			return apperr.Wrap(err, "insert report template")
		}
		if out, err = s.get(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "report_template.create", ObjectType: "report_template", ObjectID: id, After: out})
	})
	return out, err
}

// Update replaces a template. Its kind is fixed once created.
func (s *Templates) Update(ctx context.Context, id int64, in ReportTemplateInput) (*ReportTemplate, error) {
	before, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Kind == "" {
		in.Kind = before.Kind
	}
	if err := s.validate(&in); err != nil {
		return nil, err
	}
	if in.Kind != before.Kind {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("kind", "report.layout.kind_fixed")
	}
	var out *ReportTemplate
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		if in.Active {
			if err := s.leaveUse(ctx, tx, in.Kind, id, now); err != nil {
				return err
			}
		}
		res, err := db.Exec(ctx, tx, tx.Builder().Update("report_templates").
			Set("name", in.Name).Set("active", flag(in.Active)).Set("layout", in.Layout).Set("updated_at", now).
			Where("id = ?", id))
		if err != nil {
			return apperr.Wrap(err, "update report template")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.New(apperr.NotFound, "error.not_found")
		}
		if out, err = s.get(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "report_template.update", ObjectType: "report_template", ObjectID: id, Before: before, After: out})
	})
	return out, err
}

// leaveUse takes the kind's templates other than keep out of use.
func (s *Templates) leaveUse(ctx context.Context, tx *db.Tx, kind string, keep int64, now time.Time) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Update("report_templates").Set("active", 0).Set("updated_at", now).
		Where(sq.Eq{"kind": kind, "active": 1}).Where("id <> ?", keep))
	return apperr.Wrap(err, "report templates out of use")
}

// flag is a boolean as the active column stores it (0 or 1 on both dialects).
func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}
