// Package listquery is the one list engine behind every list endpoint. It
// turns the list parameters of a request (page, page_size, sort_by, search,
// params, constraints — DESIGN.md §3) into a squirrel WHERE condition, ORDER BY
// terms and LIMIT/OFFSET, using a per-resource whitelist of columns.
//
// Nothing from the request ever becomes SQL text: client column names are
// looked up in Resource.Columns and replaced by the resource's own SQL
// expressions; every value is a bound parameter. Every error is an
// *apperr.Error with code apperr.Invalid and a list.* message key.
//
// Conditions (constraints):
//
//   - A group's condition joins it to the groups before it; an item's
//     condition joins it to the items before it in the same list.
//   - and binds tighter than or, as in SQL: "a and b or c and d" is
//     (a AND b) OR (c AND d). Use child to group differently.
//   - except is "and" with the operator inverted (= ↔ !=, like ↔ not like,
//     in ↔ not in, between ↔ not between, > ↔ <=, >= ↔ <). On a group, or on
//     an item with children, it is AND NOT (…) of the whole parenthesised
//     group. except on the first element simply negates it.
//   - child: an item with children forms one parenthesised group
//     (parent c1 child1 c2 child2 …), where each child's own condition joins
//     it to what precedes it (the parent for the first child), with the same
//     precedence rules; the group as a whole is joined to the item's previous
//     sibling by the item's condition. An item with children and no column is
//     a pure group of its children.
//   - An item whose value is null, "" or [] is ignored (its children still
//     apply), like empty params. relation is ignored.
//
// Values are converted to the column's Type; see Type for the accepted forms.
// Comparisons keep SQL's NULL semantics: "!=", "not in" and "not like" (and
// so except) do not select rows whose column is NULL.
// Time values given as a date or to the second cover that whole day or
// second: "= 2026-01-02" matches the whole day, "<= 2026-01-02" includes it,
// "> 2026-01-02" starts the next day, and between ["2026-01-01","2026-01-31"]
// includes all of 31 January. Such values are read in Request.Location
// (TELEPATH_TIMEZONE, default Asia/Shanghai) and compared in UTC, so store times in UTC.
package listquery

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Limits on what one request may ask for; beyond them Parse fails with
// list.too_complex (or list.bad_page for the page size).
const (
	MaxPageSize     = 10000   // the user list loads 10000 rows at once
	DefaultPageSize = 20      // when neither the request nor the resource gives one
	MaxPage         = 1000000 // keeps OFFSET sane
	MaxConditions   = 50      // params keys plus constraint items, children included
	MaxDepth        = 5       // nesting of child groups
	MaxJSON         = 64 << 10
	MaxIn           = 1000 // values of one in / not in
	MaxSearch       = 100  // runes of search text kept after trimming
	MaxSortKeys     = 10
)

// Type is the type of a column's values.
type Type int

const (
	// String accepts strings and numbers (as their text).
	String Type = iota
	// Int accepts integral numbers and numeric strings; bound as int64.
	Int
	// Float accepts numbers and numeric strings; bound as float64.
	Float
	// Bool accepts true/false, 1/0 and their strings; bound as int64 1/0
	// because the schema stores flags as INTEGER.
	Bool
	// Time accepts "YYYY-MM-DD", "YYYY-MM-DD HH:mm", "YYYY-MM-DD HH:mm:ss"
	// (also with T), read in Request.Location, and RFC 3339; bound as a UTC
	// time.Time.
	Time
)

// Column is one whitelisted column of a resource.
type Column struct {
	// Expr is the SQL expression in the resource's FROM clause, e.g. "u.username".
	Expr string
	Type Type
	// Sort, Filter and Search allow the column in sort_by, in params and
	// constraints, and in the free-text search. Search on a String column
	// uses LIKE; on an Int or Float column it matches = when the text is a
	// number. String columns sort by code point on both dialects.
	Sort, Filter, Search bool
	// Nullable makes sorting put NULLs first on asc and last on desc on both
	// dialects (PostgreSQL would otherwise put them last on asc).
	Nullable bool
	// Enum, when set, lists the allowed values (converted to Type) for =, !=,
	// in and not in.
	Enum []any
	// Lenient drops a params value that does not convert to Type instead of
	// failing (spec: the inspection filter applies only when numeric).
	Lenient bool
	// Where builds the condition of a virtual column, e.g. "role" →
	// EXISTS (SELECT 1 FROM user_roles …); when set, Expr is only used for
	// sorting. values are converted to Type (Time: time.Time, Bool: int64);
	// for like/not like values[0] is the escaped %…% pattern, and for
	// between/not between a missing end is nil. Compare builds the usual
	// condition on an expression, Exists one over a to-many relation. Use ?
	// placeholders (sq.Expr, or builders with sq.Question), never $n.
	Where func(d db.Dialect, op Operator, values []any) (sq.Sqlizer, error)
}

// Resource declares what a list endpoint allows.
type Resource struct {
	Columns map[string]Column
	// DefaultSort is the ORDER BY used when sort_by is empty, e.g. {"u.id DESC"}.
	DefaultSort []string
	// TieBreak is appended to every ORDER BY (unless already there) for
	// stable paging, e.g. "u.id DESC". Its expression must be a unique key
	// of the rows: pages after the first select their keys first (see Run).
	TieBreak string
	// PageSize is the page size when the request gives none; 0 means
	// DefaultPageSize.
	PageSize int
	// ExtraParams are params keys the handler consumes itself (e.g. "tab");
	// their values are returned in Query.Extra instead of becoming conditions.
	ExtraParams []string
	// SearchIndex, when set and returning a condition for the (trimmed)
	// search text, replaces the LIKE '%text%' search over the Search
	// columns: a full-text index of those same columns that selects exactly
	// the same rows. nil falls back to LIKE (e.g. a text too short for it).
	SearchIndex func(d db.Dialect, text string) sq.Sqlizer
	// Tally, when set, answers the counts its columns allow (see Tally).
	Tally *Tally
}

// Request holds the raw list parameters as the client sent them.
type Request struct {
	Page, PageSize, SortBy, Search, Params, Constraints string
	// Location reads times without a zone; nil means clock.DefaultZone.
	Location *time.Location
}

// Describe is the request as compact JSON, naming only what was given (for
// the audit record of a list read): {"search":…,"params":…,"page":…}.
func (r Request) Describe() string {
	m := map[string]string{}
	for k, v := range map[string]string{"page": r.Page, "page_size": r.PageSize, "sort_by": r.SortBy, "search": r.Search,
		"params": r.Params, "constraints": r.Constraints} {
		if v != "" {
			m[k] = v
		}
	}
	if len(m) == 0 {
		return ""
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// Query is a parsed, safe list request.
type Query struct {
	Page, PageSize int
	// Where holds params, search and constraints; never nil (sq.And{} when empty).
	Where sq.Sqlizer
	// OrderBy holds safe SQL terms, the tie-break included.
	OrderBy []string
	// key is the tie-break's expression, a unique key of the rows ("" when
	// the resource has no tie-break).
	key   string
	tally *Tally
	// parts are Where's terms, the search's at searchAt (-1: none); see
	// CountSearchBy.
	parts    sq.And
	searchAt int
	search   *searchTally
	// keysFirst: the first page too is read by key (see KeysFirst).
	keysFirst bool
	// Extra holds the values of the resource's ExtraParams (strings,
	// json.Number, bool, []any…), empty values dropped.
	Extra map[string]any
}

// Parse checks req against the resource and builds the query.
func (r *Resource) Parse(d db.Dialect, req Request) (*Query, error) {
	q := &Query{Extra: map[string]any{}, tally: r.Tally, searchAt: -1}
	if r.TieBreak != "" {
		q.key = sortExpr(r.TieBreak)
	}
	var err error
	if q.Page, err = parseInt(req.Page, 1, 1, MaxPage); err != nil {
		return nil, err
	}
	def := DefaultPageSize
	if r.PageSize > 0 {
		def = min(r.PageSize, MaxPageSize)
	}
	if q.PageSize, err = parseInt(req.PageSize, def, 1, MaxPageSize); err != nil {
		return nil, err
	}
	if q.OrderBy, err = r.parseSort(d, req.SortBy); err != nil {
		return nil, err
	}
	loc := req.Location
	if loc == nil {
		loc = clock.Clock{}.Zone()
	}
	p := &parser{r: r, d: d, loc: loc}
	var where sq.And
	params, err := p.params(req.Params, q.Extra)
	if err != nil {
		return nil, err
	}
	where = append(where, params...)
	if s := p.search(req.Search); s != nil {
		q.searchAt = len(where)
		where = append(where, s)
	}
	c, err := p.constraints(req.Constraints)
	if err != nil {
		return nil, err
	}
	if c != nil {
		where = append(where, c)
	}
	q.Where, q.parts = sq.And{}, where
	if len(where) > 0 {
		q.Where = flat(where)
	}
	return q, nil
}

// Offset is the number of rows before the page.
func (q *Query) Offset() int { return (q.Page - 1) * q.PageSize }

// Apply adds the WHERE condition, ORDER BY and LIMIT/OFFSET to b.
func (q *Query) Apply(b sq.SelectBuilder) sq.SelectBuilder {
	b = q.ApplyCount(b)
	if len(q.OrderBy) > 0 {
		b = b.OrderBy(q.OrderBy...)
	}
	return b.Limit(uint64(q.PageSize)).Offset(uint64(q.Offset()))
}

// applyPage selects the rows of q's page from base. Past the first page
// the rows to skip are skipped over their keys only (a deferred join): a
// subquery selects the page's keys from countBase (the FROM and scope of
// the count, without the row query's other joins) with the WHERE
// condition, ORDER BY and LIMIT/OFFSET, which an index on the sort columns
// ending in the key serves without reading the skipped rows (nor joining
// or computing their columns), and the page's rows are read by key in the
// same order. The order is total (it ends in the key), so the page is
// exactly the one of Apply.
func (q *Query) applyPage(base, countBase sq.SelectBuilder) sq.SelectBuilder {
	if q.key == "" || (q.Offset() == 0 && !q.keysFirst) {
		return q.Apply(base)
	}
	// ? placeholders: the outer query numbers them for its dialect.
	keys := q.Apply(countBase.RemoveColumns().Column(q.key).PlaceholderFormat(sq.Question))
	if sb, t, ok := q.searchBase(countBase.PlaceholderFormat(sq.Question)); ok {
		if k, ok := t.keysFrom(q, sb); ok {
			keys = k
		}
	}
	return base.Where(sq.Expr(q.key+" IN (?)", keys)).OrderBy(q.OrderBy...)
}

// KeysFirst reads the first page by key too when q has a search (see
// applyPage): the caller's countBase must then name every table the WHERE
// condition and the sort use on the first page as well. A search whose
// cases are many and not in the sort's order (on SQLite the cases of a
// common character, read by id from their index) has every matching row
// read, joined and its columns computed before the sort keeps twenty; by
// key only the sort's columns are read for them. No-op without a search.
func (q *Query) KeysFirst() {
	q.keysFirst = q.searchAt >= 0
}

// ApplyCount adds only the WHERE condition to b (for the COUNT(*) query).
func (q *Query) ApplyCount(b sq.SelectBuilder) sq.SelectBuilder {
	if a, ok := q.Where.(sq.And); ok && len(a) == 0 {
		return b
	}
	return b.Where(q.Where)
}

// ExtraString returns an extra param as text ("" when absent).
func (q *Query) ExtraString(key string) string {
	switch v := q.Extra[key].(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	default:
		if s, ok := v.(interface{ String() string }); ok {
			return s.String()
		}
		return ""
	}
}

// Pagination is the meta.pagination object of a list response.
type Pagination struct {
	Total       int64 `json:"total"`
	CurrentPage int   `json:"current_page"`
	PerPage     int   `json:"per_page"`
	TotalPage   int   `json:"total_page"`
}

// Pagination describes the page of q given the total row count. TotalPage
// is at least 1 so that a client jumping to the last page never asks for page 0.
func (q *Query) Pagination(total int64) Pagination {
	pages := int((total + int64(q.PageSize) - 1) / int64(q.PageSize))
	return Pagination{Total: total, CurrentPage: q.Page, PerPage: q.PageSize, TotalPage: max(pages, 1)}
}

func parseInt(s string, def, lo, hi int) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, errPage()
	}
	return n, nil
}

// parser carries what one Parse call needs.
type parser struct {
	r     *Resource
	d     db.Dialect
	loc   *time.Location
	count int
}

func (p *parser) tick() error {
	p.count++
	if p.count > MaxConditions {
		return errComplex()
	}
	return nil
}

// column looks up a filterable column.
func (p *parser) column(name string) (Column, error) {
	c, ok := p.r.Columns[name]
	if !ok || !c.Filter || (c.Expr == "" && c.Where == nil) {
		return Column{}, errColumn(name)
	}
	return c, nil
}

// searchColumns returns the searchable columns in a stable order.
func (r *Resource) searchColumns() []string {
	var names []string
	for name, c := range r.Columns {
		if c.Search && (c.Expr != "" || c.Where != nil) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// Tab returns the condition of the tab the "tab" extra param names; an
// unknown tab is refused (list.bad_value). No tab, or a nil condition in
// tabs, shows everything.
func (q *Query) Tab(tabs map[string]sq.Sqlizer) (sq.Sqlizer, error) {
	all := sq.Expr("1=1")
	name := q.ExtraString("tab")
	if name == "" {
		return all, nil
	}
	cond, ok := tabs[name]
	if !ok {
		return nil, apperr.New(apperr.Invalid, KeyBadValue).With("column", "tab")
	}
	if cond == nil {
		return all, nil
	}
	return cond, nil
}

// StatusTabs are the tabs of a list of records that are enabled (status 1)
// or disabled (0); col is the status column.
func StatusTabs(col string) map[string]sq.Sqlizer {
	return map[string]sq.Sqlizer{"all": nil, "enabled": sq.Eq{col: 1}, "disabled": sq.Eq{col: 0}}
}

// Drive rewrites the sort terms and the key that name a column a driving
// table holds a copy of (e.g. "c.submitted_at" → "x.submitted_at", "c.id"
// → "x.case_id"), for a list read from that table joined to the rows, so
// that the driving table's index serves the order. The copies are equal
// to the columns, so the order and the pages are the same.
func (q *Query) Drive(copies map[string]string) {
	for i, t := range q.OrderBy {
		e := sortExpr(t)
		if to, ok := copies[e]; ok && strings.HasPrefix(t, e) {
			q.OrderBy[i] = to + t[len(e):]
		}
	}
	if to, ok := copies[q.key]; ok {
		q.key = to
	}
}

// Filtered reports whether the request adds a condition (params, search or
// constraints) to the scope.
func (q *Query) Filtered() bool {
	a, ok := q.Where.(sq.And)
	return !ok || len(a) > 0
}
