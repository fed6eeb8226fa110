package listquery

import (
	"context"
	"fmt"
	"sort"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Run loads one page of rows into []T and the pagination. base selects the
// row columns (SELECT … FROM … JOIN … WHERE scope), countBase counts the
// same rows (SELECT COUNT(*) FROM … WHERE scope) and must name every table
// the WHERE condition and the sort use, as it also selects the keys of the
// page. The count query is
// skipped when the page itself shows the total (a short, non-empty page, or
// an empty first page). The slice is never nil, so it encodes as [].
// Pages after the first are read by key (see Query.applyPage), so a deep
// page costs a walk over an index's keys rather than over the rows before it.
func Run[T any](ctx context.Context, x db.Querier, q *Query, base, countBase sq.SelectBuilder) ([]T, Pagination, error) {
	rows := make([]T, 0)
	if err := db.Select(ctx, x, &rows, q.applyPage(base, countBase)); err != nil {
		return nil, Pagination{}, apperr.Wrap(err, "listquery: page")
	}
	n := len(rows)
	var total int64
	if (n > 0 && n < q.PageSize) || (n == 0 && q.Page == 1) {
		total = int64(q.Offset() + n)
	} else {
		if err := db.Get(ctx, x, &total, q.countOf(countBase)); err != nil {
			return nil, Pagination{}, apperr.Wrap(err, "listquery: count")
		}
	}
	return rows, q.Pagination(total), nil
}

// Counts counts, in one SQL statement, the rows of from (SELECT with no
// columns: FROM … JOIN … WHERE scope) that match q (nil: no list filter) and
// each tab's condition; a nil condition counts every row. It serves the
// …/count endpoints: {tab: number}. When the resource has a Tally that
// covers from and q, the tabs it covers are summed from the tally in one
// statement and the others are counted from the rows: under a search
// read by a search tally (CountSearchBy) in one more statement over the
// search's rows, else each on its own (so that its index narrows it).
func Counts(ctx context.Context, x db.Querier, q *Query, from sq.SelectBuilder, tabs map[string]sq.Sqlizer) (map[string]int64, error) {
	out := make(map[string]int64, len(tabs))
	if len(tabs) == 0 {
		return out, nil
	}
	names := make([]string, 0, len(tabs))
	for name := range tabs {
		names = append(names, name)
	}
	sort.Strings(names)
	base := from
	var t *Tally
	if q != nil {
		base, t = q.ApplyCount(from), q.tally
		if sb, st, ok := q.searchBase(from); ok {
			if where, ok := st.whereOf(sb.Column("1")); ok && st.covers(where) {
				return countTallied(ctx, x, st, sb, base, names, tabs, true)
			}
		}
	}
	if t != nil {
		if where, ok := t.whereOf(base.Column("1")); ok && t.covers(where) {
			return countTallied(ctx, x, t, base, base, names, tabs, false)
		}
	}
	return countRows(ctx, x, base, names, tabs, "1")
}

// countRows counts every tab in one statement over base; one is what a row counts.
func countRows(ctx context.Context, x db.Querier, base sq.SelectBuilder, names []string, tabs map[string]sq.Sqlizer, one string) (map[string]int64, error) {
	out := make(map[string]int64, len(names))
	if len(names) == 0 {
		return out, nil
	}
	b := base
	for i, name := range names {
		// Aliases are generated, never the tab names, so no name reaches SQL.
		// FILTER rather than SUM(CASE …): over an expert's 26,000 rows and
		// 22 tabs SQLite spends ~4.8 ms, not ~7.6; over the tally's 9,000
		// groups ~5.3 ms, not ~7.7.
		if c := tabs[name]; c != nil && one == "1" {
			b = b.Column(sq.Expr(fmt.Sprintf("COUNT(*) FILTER (WHERE ?) AS c%d", i), c))
		} else if c != nil {
			b = b.Column(sq.Expr(fmt.Sprintf("COALESCE(SUM(%s) FILTER (WHERE ?), 0) AS c%d", one, i), c))
		} else if one == "1" {
			b = b.Column(fmt.Sprintf("COUNT(*) AS c%d", i))
		} else {
			b = b.Column(fmt.Sprintf("COALESCE(SUM(%s), 0) AS c%d", one, i))
		}
	}
	query, args, err := b.ToSql()
	if err != nil {
		return nil, apperr.Wrap(err, "listquery: counts")
	}
	vals := make([]int64, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := x.QueryRowxContext(ctx, query, args...).Scan(ptrs...); err != nil {
		return nil, apperr.Wrap(err, "listquery: counts")
	}
	for i, name := range names {
		out[name] = vals[i]
	}
	return out, nil
}

// countTallied sums over tallied (base's FROM and WHERE, that t covers)
// the tabs the tally covers and counts over base the others' rows: with
// together (t is a search tally) in one statement over the rows of any of
// those tabs, else each tab in a statement of its own.
//
// A search a search tally reads selects its rows from an index of its
// own, which each tab's statement read again: at 1M an admin's tab counts
// of 王 on PostgreSQL summed 17 tabs from the gram tallies and read the
// ~9,860 cases of 王 five more times, once for each tab that compares a
// time (EXPLAIN ANALYZE: 108-155 ms for the five, 32-44 ms for the one).
// Where the resource's tally covers the whole condition (a search of a
// hospital's name) each such tab reads its own partial index, which one
// statement over all of them would not (an admin's tab counts of 明州,
// 8 clients: p50 50-68 ms, 209 ms together).
func countTallied(ctx context.Context, x db.Querier, t *Tally, tallied, base sq.SelectBuilder, names []string, tabs map[string]sq.Sqlizer, together bool) (map[string]int64, error) {
	var summed, counted []string
	for _, name := range names {
		c := tabs[name]
		if c == nil {
			summed = append(summed, name)
			continue
		}
		text, _, err := c.ToSql()
		if err == nil && t.covers(text) {
			summed = append(summed, name)
		} else {
			counted = append(counted, name)
		}
	}
	out, err := countRows(ctx, x, tallied.From(t.Table), summed, tabs, t.Count)
	if err != nil {
		return nil, err
	}
	if together && len(counted) > 0 {
		either := make(sq.Or, len(counted))
		for i, name := range counted {
			either[i] = tabs[name]
		}
		more, err := countRows(ctx, x, base.Where(either), counted, tabs, "1")
		if err != nil {
			return nil, err
		}
		for name, n := range more {
			out[name] = n
		}
		return out, nil
	}
	for _, name := range counted {
		var n int64
		if err := db.Get(ctx, x, &n, base.Column("COUNT(*)").Where(tabs[name])); err != nil {
			return nil, apperr.Wrap(err, "listquery: counts")
		}
		out[name] = n
	}
	return out, nil
}
