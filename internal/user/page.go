package user

import (
	"context"
	"slices"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// readPage reads q's page of the user list as listquery.Run does (a
// deferred join past the first page: the page's ids from count's FROM and
// scope, then their rows), except that a page past the middle of the list
// is read from its end: its ids are the reversed order's after total −
// offset − size rows. The user list has no previous page's key, so page
// 5,000 of 5,001 sorted by name would otherwise walk the sort index over
// the 99,980 users before it; from the end it walks a few dozen. The total
// comes first, from user_tallies when the query allows (listquery.Counts),
// and the rows are returned in the list's order.
func readPage(ctx context.Context, x db.Querier, q *listquery.Query, base, count sq.SelectBuilder) ([]User, listquery.Pagination, error) {
	if q.Page == 1 {
		return listquery.Run[User](ctx, x, q, base, count)
	}
	from := count.RemoveColumns()
	n, err := listquery.Counts(ctx, x, q, from, map[string]sq.Sqlizer{"total": nil})
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	total, off, size := n["total"], int64(q.Offset()), int64(q.PageSize)
	rows := make([]User, 0)
	if off >= total {
		return rows, q.Pagination(total), nil
	}
	// ? placeholders: the outer query numbers them for its dialect.
	keys := q.Apply(from.Column("u.id").PlaceholderFormat(sq.Question))
	after := total - off - size
	backward := after < off
	if backward {
		limit := size + min(after, 0)
		keys = q.ApplyCount(from.Column("u.id").PlaceholderFormat(sq.Question)).
			OrderBy(reversed(q.OrderBy)...).Limit(uint64(limit)).Offset(uint64(max(after, 0)))
	}
	if err := db.Select(ctx, x, &rows, base.Where(sq.Expr("u.id IN (?)", keys)).OrderBy(q.OrderBy...)); err != nil {
		return nil, listquery.Pagination{}, apperr.Wrap(err, "user page")
	}
	return rows, q.Pagination(total), nil
}

// reversed turns each ORDER BY term the list parser writes ("x ASC",
// "x DESC NULLS LAST", "u.id DESC") the other way, nulls included.
func reversed(terms []string) []string {
	swap := map[string]string{"ASC": "DESC", "DESC": "ASC", "FIRST": "LAST", "LAST": "FIRST"}
	out := make([]string, len(terms))
	for i, t := range terms {
		f := strings.Fields(t)
		dir := slices.IndexFunc(f, func(w string) bool { return strings.EqualFold(w, "ASC") || strings.EqualFold(w, "DESC") })
		if dir < 0 { // ascending: DESC reverses its nulls too on both databases
			out[i] = t + " DESC"
			continue
		}
		for j := dir; j < len(f); j++ {
			if s, ok := swap[strings.ToUpper(f[j])]; ok && (j == dir || strings.EqualFold(f[j-1], "NULLS")) {
				f[j] = s
			}
		}
		out[i] = strings.Join(f, " ")
	}
	return out
}
