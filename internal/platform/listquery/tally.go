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
}

var (
	sqlStrings = regexp.MustCompile(`'(?:[^']|'')*'`)
	sqlWords   = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?`)
	// keywords a tallied condition may use besides the columns.
	sqlKeywords = map[string]bool{"AND": true, "OR": true, "NOT": true, "IN": true, "IS": true, "NULL": true, "BETWEEN": true,
		"TRUE": true, "FALSE": true}
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
	return countBase.RemoveColumns().Column("COALESCE(SUM(" + t.Count + "), 0)").From(t.Table), true
}

// UseTally makes q's counts read t instead of its resource's Tally, for a
// request whose count reads another table than the resource's (nil: none).
func (q *Query) UseTally(t *Tally) { q.tally = t }
