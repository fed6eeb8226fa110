package library

import (
	"context"
	"database/sql"
	"errors"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// Service manages the libraries. Libraries are shared configuration: every
// signed-in role reads them (sites number their cases with them); only
// administrators change them (declared on the routes).
type Service struct {
	clock clock.Clock
	db    *db.DB
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// New returns the library service.
func New(d *db.DB) *Service { return &Service{db: d} }

// maxDepth bounds walks up and down the library tree.
const maxDepth = 8

var libraryList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":          {Expr: "l.id", Type: listquery.Int, Sort: true, Filter: true},
		"name":        {Expr: "l.name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"pis_code":    {Expr: "l.pis_code", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"parent_id":   {Expr: "l.parent_id", Type: listquery.Int, Sort: true, Filter: true, Nullable: true},
		"number_name": {Expr: "l.number_name", Type: listquery.String, Filter: true, Search: true},
		"prefix":      {Expr: "l.prefix", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"report_kind": {Expr: "l.report_kind", Type: listquery.String, Sort: true, Filter: true, Enum: []any{KindRoutine, KindFrozen, KindCell}},
		"delay_hours": {Expr: "l.delay_hours", Type: listquery.Int, Sort: true, Filter: true},
		"status":      {Expr: "l.status", Type: listquery.Int, Sort: true, Filter: true},
		"created_at":  {Expr: "l.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"updated_at":  {Expr: "l.updated_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"l.id ASC"},
	TieBreak:    "l.id ASC",
	ExtraParams: []string{"tab"},
}

const libraryColumns = `l.id, l.name, l.pis_code, l.parent_id, p.name AS parent_name, l.number_name, l.prefix,
	l.middle_digits, l.symbol, l.digit_length, l.delay_hours, l.report_kind, l.status, l.created_at, l.updated_at`

func (s *Service) selectLibraries(b sq.StatementBuilderType) sq.SelectBuilder {
	return b.Select(libraryColumns).From("libraries l").LeftJoin("libraries p ON p.id = l.parent_id").Where("l.deleted_at IS NULL")
}

// List returns a page of libraries.
func (s *Service) List(ctx context.Context, req listquery.Request) ([]Library, listquery.Pagination, error) {
	q, err := libraryList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	tab, err := q.Tab(libraryTabs)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	count := s.db.Builder().Select("COUNT(*)").From("libraries l").Where("l.deleted_at IS NULL").Where(tab)
	rows, page, err := listquery.Run[Library](ctx, s.db, q, s.selectLibraries(s.db.Builder()).Where(tab), count)
	for i := range rows {
		rows[i].Example = rows[i].Rule().Example("")
	}
	return rows, page, err
}

var libraryTabs = listquery.StatusTabs("l.status")

// Tree returns the libraries that match req (paging ignored, at most
// listquery.MaxPageSize) nested under their parents; a library whose parent
// is not among them is a root. The order of req applies among siblings.
func (s *Service) Tree(ctx context.Context, req listquery.Request) ([]Library, error) {
	q, err := libraryList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	var rows []Library
	b := q.ApplyCount(s.selectLibraries(s.db.Builder())).OrderBy(q.OrderBy...).Limit(listquery.MaxPageSize)
	if err := db.Select(ctx, s.db, &rows, b); err != nil {
		return nil, apperr.Wrap(err, "library tree")
	}
	present := map[int64]bool{}
	children := map[int64][]int{}
	for i := range rows {
		rows[i].Example = rows[i].Rule().Example("")
		present[rows[i].ID] = true
	}
	var roots []int
	for i, l := range rows {
		if l.ParentID != nil && present[*l.ParentID] && *l.ParentID != l.ID {
			children[*l.ParentID] = append(children[*l.ParentID], i)
		} else {
			roots = append(roots, i)
		}
	}
	var build func(i, depth int) Library
	build = func(i, depth int) Library {
		l := rows[i]
		if depth < maxDepth {
			for _, c := range children[l.ID] {
				l.Children = append(l.Children, build(c, depth+1))
			}
		}
		return l
	}
	out := make([]Library, 0, len(roots))
	for _, i := range roots {
		out = append(out, build(i, 0))
	}
	return out, nil
}

// Count returns the tab counts of the library list: all, enabled, disabled.
func (s *Service) Count(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := libraryList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	base := s.db.Builder().Select().From("libraries l").Where("l.deleted_at IS NULL")
	return listquery.Counts(ctx, s.db, q, base, libraryTabs)
}

// Get returns a library that has not been deleted, enabled or not (a case
// registered under a library keeps using its settings, e.g. DelayHours for
// the report hesitation period, after the library is disabled). It fails
// with NotFound (error.not_found) otherwise.
func (s *Service) Get(ctx context.Context, id int64) (*Library, error) {
	return s.get(ctx, s.db, id)
}

func (s *Service) get(ctx context.Context, q db.Querier, id int64) (*Library, error) {
	var l Library
	err := db.Get(ctx, q, &l, s.selectLibraries(s.db.Builder()).Where("l.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load library")
	}
	l.Example = l.Rule().Example("")
	return &l, nil
}

// usable returns the library when it and every library above it exist and
// are enabled; otherwise a field error library.unknown on library_id.
func (s *Service) usable(ctx context.Context, id int64) (*Library, error) {
	unknown := apperr.New(apperr.Invalid, "error.validation").Field("library_id", "library.unknown")
	l, err := s.get(ctx, s.db, id)
	if apperr.CodeOf(err) == apperr.NotFound {
		return nil, unknown
	} else if err != nil {
		return nil, err
	}
	for cur, depth := l, 0; ; depth++ {
		if cur.Status != 1 || depth > maxDepth {
			return nil, unknown
		}
		if cur.ParentID == nil {
			return l, nil
		}
		if cur, err = s.get(ctx, s.db, *cur.ParentID); apperr.CodeOf(err) == apperr.NotFound {
			return nil, unknown
		} else if err != nil {
			return nil, err
		}
	}
}

// OfKind returns the enabled library of a report kind with the lowest id
// (the frozen library frozen cases are registered in), or nil when there is none.
func (s *Service) OfKind(ctx context.Context, kind string) (*Library, error) {
	var l Library
	err := db.Get(ctx, s.db, &l, s.selectLibraries(s.db.Builder()).Where("l.report_kind = ? AND l.status = 1", kind).OrderBy("l.id").Limit(1))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, apperr.Wrap(err, "library of kind")
	}
	l.Example = l.Rule().Example("")
	return &l, nil
}

// Existing returns the ids among ids of libraries that exist (enabled or
// not): an expert's subspecialties (spec 2 §8) are library ids.
func (s *Service) Existing(ctx context.Context, q db.Querier, ids []int64) ([]int64, error) {
	out := []int64{}
	if len(ids) == 0 {
		return out, nil
	}
	err := db.Select(ctx, q, &out, s.db.Builder().Select("id").From("libraries").Where(sq.Eq{"id": ids}).Where("deleted_at IS NULL"))
	return out, apperr.Wrap(err, "check libraries")
}

// Lineage returns the library and the libraries above it, nearest first
// (an expert bound to a library reads its sub-libraries too).
func (s *Service) Lineage(ctx context.Context, id int64) ([]int64, error) {
	out := []int64{}
	for cur, depth := &id, 0; cur != nil && depth <= maxDepth; depth++ {
		out = append(out, *cur)
		var parent *int64
		if err := db.Get(ctx, s.db, &parent, s.db.Builder().Select("parent_id").From("libraries").Where("id = ?", *cur)); errors.Is(err, sql.ErrNoRows) {
			break
		} else if err != nil {
			return nil, apperr.Wrap(err, "library lineage")
		}
		cur = parent
	}
	return out, nil
}
