package listquery

import (
	"regexp"
	"slices"
	"strings"

	sq "github.com/Masterminds/squirrel"
)

// Tally declares a table of row counts grouped by some of a resource's
// columns, kept exact by the database (triggers in the transaction that
// writes the rows). A count whose conditions name only those columns —
// the scope and tab of most lists — sums the tally instead of counting the
// rows; any other count (a search, a filter on another column, a
// subquery) counts the rows as before. The answer is the same either way.
type Tally struct {
	// From is the resource's table as its count queries name it, e.g.
	// "consultations c"; only counts over exactly that FROM use the tally.
	From string
	// Table is the tally under the same alias, e.g. "consultation_tallies c".
	Table string
	// Count is the count column, e.g. "c.n".
	Count string
	// Columns are the grouped columns as conditions name them ("c.status").
	Columns []string
	// Rows: each row of Table stands for one row of the resource (Count is
	// then "1") and holds its key under the key's own expression ("c.id",
	// one of Columns). A search tally of such rows also selects the keys of
	// a page (see CountSearchBy) when its columns cover the condition and
	// the sort.
	Rows bool
}

var (
	sqlStrings = regexp.MustCompile(`'(?:[^']|'')*'`)
	sqlWords   = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?`)
	// keywords a tallied condition may use besides the columns (a LIKE
	// filter on a copied text column: Tally.Rows).
	sqlKeywords = map[string]bool{"AND": true, "OR": true, "NOT": true, "IN": true, "IS": true, "NULL": true, "BETWEEN": true,
		"TRUE": true, "FALSE": true, "LIKE": true, "ESCAPE": true}
)

// covers reports whether the WHERE text names only tallied columns.
func (t *Tally) covers(where string) bool {
	where = sqlStrings.ReplaceAllString(where, "''")
	for _, w := range sqlWords.FindAllString(where, -1) {
		if sqlKeywords[strings.ToUpper(w)] || slices.Contains(t.Columns, w) {
			continue
		}
		return false
	}
	return true
}

// whereOf returns the WHERE text of a statement over t.From with no join,
// and whether there is one.
func (t *Tally) whereOf(b sq.SelectBuilder) (string, bool) {
	text, _, err := b.ToSql()
	if err != nil {
		return "", false
	}
	_, rest, ok := strings.Cut(text, " FROM "+t.From+" ")
	if !ok {
		return "", false
	}
	where, ok := strings.CutPrefix(rest, "WHERE ")
	return where, ok
}

// countFrom returns the count statement reading the tally instead of the
// rows, when countBase (SELECT COUNT(*) FROM From WHERE …) allows it.
func (t *Tally) countFrom(countBase sq.SelectBuilder) (sq.SelectBuilder, bool) {
	if t == nil {
		return countBase, false
	}
	where, ok := t.whereOf(countBase)
	if !ok || !t.covers(where) {
		return countBase, false
	}
	if t.Rows {
		return countBase.RemoveColumns().Column("COUNT(*)").From(t.Table), true
	}
	return countBase.RemoveColumns().Column("COALESCE(SUM(" + t.Count + "), 0)").From(t.Table), true
}

// keysFrom returns the statement selecting the keys of q's page from t
// (SELECT key FROM t.Table WHERE … ORDER BY … LIMIT …) when t holds rows
// (Tally.Rows) and its columns cover tallied's WHERE (SELECT … FROM From
// WHERE …), the sort and the key.
func (t *Tally) keysFrom(q *Query, tallied sq.SelectBuilder) (sq.SelectBuilder, bool) {
	if t == nil || !t.Rows || !slices.Contains(t.Columns, q.key) {
		return tallied, false
	}
	for _, term := range q.OrderBy {
		if !slices.Contains(t.Columns, sortExpr(term)) {
			return tallied, false
		}
	}
	where, ok := t.whereOf(tallied.Column("1"))
	if !ok || !t.covers(where) {
		return tallied, false
	}
	b := tallied.RemoveColumns().Column(q.key).From(t.Table).OrderBy(q.OrderBy...)
	return b.Limit(uint64(q.PageSize)).Offset(uint64(q.Offset())), true
}

// UseTally makes q's counts read t instead of its resource's Tally, for a
// request whose count reads another table than the resource's (nil: none).
func (q *Query) UseTally(t *Tally) { q.tally = t }

// searchTally is a tally of the rows by what a search matches, and the
// search's condition on it (see CountSearchBy).
type searchTally struct {
	t    *Tally
	cond sq.Sqlizer
}

// CountSearchBy makes q's counts read t, a tally of the rows by the
// pieces of text a search matches (e.g. each case's one-character pieces),
// with cond, the search's condition on t's columns, in place of the
// search's, when the rest of the count's WHERE names only t's columns
// too; with t.Rows also the keys of its pages, when t's columns name the
// sort as well (see keysFrom). The rows a search matches are scattered
// over the table; their tally rows lie together in t's index. No search
// in q: nothing changes.
func (q *Query) CountSearchBy(t *Tally, cond sq.Sqlizer) {
	if q.searchAt >= 0 {
		q.search = &searchTally{t: t, cond: cond}
	}
}

// searchBase is countBase (SELECT … FROM … WHERE scope) with q's WHERE
// condition, its search replaced by the search tally's condition, and the
// search tally; false when q has none.
func (q *Query) searchBase(countBase sq.SelectBuilder) (sq.SelectBuilder, *Tally, bool) {
	if q.search == nil {
		return countBase, nil, false
	}
	where := slices.Clone(q.parts)
	where[q.searchAt] = q.search.cond
	return countBase.Where(flat(where)), q.search.t, true
}

// countOf is the statement counting the rows of q over countBase (SELECT
// COUNT(*) FROM … WHERE scope): the search tally's sum, else the tally's,
// else the rows' count.
func (q *Query) countOf(countBase sq.SelectBuilder) sq.SelectBuilder {
	if b, t, ok := q.searchBase(countBase); ok {
		if cb, ok := t.countFrom(b); ok {
			return cb
		}
	}
	cb, _ := q.tally.countFrom(q.ApplyCount(countBase))
	return cb
}
