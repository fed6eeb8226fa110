package listquery

import (
	"context"
	"reflect"
	"testing"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// TestCountsUnderSearchTogether checks, on both dialects, the tab counts
// of a search whose tally covers some tabs and not others (those are
// counted from the rows in one statement under a search tally, each on
// its own under a search the resource's tally covers, see countTallied)
// against a plain COUNT(*) of each tab. The uncounted tabs overlap, one
// matches no row and one compares a time some rows lack, so a statement
// that counts their union, or drops a tab's own condition, fails.
func TestCountsUnderSearchTogether(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		setup(t, d)
		for _, s := range []string{
			`CREATE TABLE lq_tag_tallies AS SELECT g.tag, i.kind, i.flag, COUNT(*) AS n FROM lq_tags g JOIN lq_items i ON i.id = g.item_id GROUP BY g.tag, i.kind, i.flag`,
			`CREATE TABLE lq_tallies AS SELECT kind, flag, COUNT(*) AS n FROM lq_items GROUP BY kind, flag`,
		} {
			if _, err := d.ExecContext(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		cut := cst("2026-01-01 08:00:00")
		tabs := map[string]sq.Sqlizer{"all": nil, "flagged": sq.Eq{"i.flag": 1}, "a": sq.Expr("i.kind = 'a'"),
			"big": sq.Expr("i.n >= ?", 3), "small": sq.Expr("i.n < ?", 2), "big_flagged": sq.Expr("i.n >= 3 AND i.flag = 1"),
			"none": sq.Expr("i.n > ?", 100), "early": sq.Lt{"i.at": cut}, "late_or_none": sq.Or{sq.GtOrEq{"i.at": cut}, sq.Expr("i.at IS NULL")}}
		from := d.Builder().Select().From("lq_items i").Where("i.kind IN ('a', 'b')")
		for _, c := range []struct {
			name   string
			search sq.Sqlizer // what the search selects
			by     *Tally     // its tally (nil: the resource's, that covers it)
			cond   sq.Sqlizer
		}{
			{"SearchTally", sq.Expr("i.id IN (SELECT item_id FROM lq_tags WHERE tag = 'red')"),
				&Tally{From: "lq_items i", Table: "lq_tag_tallies i", Count: "i.n", Columns: []string{"i.tag", "i.kind", "i.flag"}}, sq.Eq{"i.tag": "red"}},
			{"CoveredSearch", sq.Eq{"i.flag": 0}, nil, nil},
		} {
			r := *items
			r.Tally = &Tally{From: "lq_items i", Table: "lq_tallies i", Count: "i.n", Columns: []string{"i.kind", "i.flag"}}
			r.SearchIndex = func(db.Dialect, string) sq.Sqlizer { return c.search }
			q, err := r.Parse(d.Dialect, Request{Search: "red"})
			if err != nil {
				t.Fatal(err)
			}
			if c.by != nil {
				q.CountSearchBy(c.by, c.cond)
			}
			got, err := Counts(ctx, d, q, from, tabs)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int64{}
			for name, tab := range tabs {
				b := from.Column("COUNT(*)").Where(c.search)
				if tab != nil {
					b = b.Where(tab)
				}
				var n int64
				if err := db.Get(ctx, d, &n, b); err != nil {
					t.Fatal(err)
				}
				want[name] = n
			}
			if !reflect.DeepEqual(got, want) || want["big"] == 0 || want["big"] == want["all"] || want["early"] == 0 {
				t.Errorf("%s: counts %v, each tab's COUNT(*) %v", c.name, got, want)
			}
		}
	})
}
