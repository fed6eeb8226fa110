package listquery

import (
	"context"
	"reflect"
	"testing"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

func TestTallyCoversOnlyItsColumns(t *testing.T) {
	tl := &Tally{From: "cases c", Table: "case_tallies c", Count: "c.n", Columns: []string{"c.status", "c.hospital_id", "c.deleted_at"}}
	for where, want := range map[string]bool{
		"c.deleted_at IS NULL AND c.hospital_id = ? AND c.status IN (1, 2)": true,
		"(c.status <> 0 OR c.hospital_id = $1) AND NOT (c.status = 4)":      true,
		"c.status = 1 AND c.expert_id IS NULL":                              false,
		"c.id IN (SELECT consult_id FROM invitations WHERE invitee_id = ?)": false,
		"c.patient_name LIKE ? ESCAPE '\\'":                                 false,
		"c.status = 4 AND c.hospital_id NOT LIKE ? ESCAPE '\\'":             true,
		"c.status = 1 AND COALESCE(c.hospital_id, 0) = 1":                   false,
		"c.status = 'c.patient_name'":                                       true,
		"status = 1":                                                        false,
	} {
		if got := tl.covers(where); got != want {
			t.Errorf("covers(%q) = %v, want %v", where, got, want)
		}
	}
	b := sq.Select("COUNT(*)").From("cases c").Where("c.status = ?", 1)
	if cb, ok := tl.countFrom(b); !ok {
		t.Error("a count over the tallied columns should read the tally")
	} else if text, _, _ := cb.ToSql(); text != "SELECT COALESCE(SUM(c.n), 0) FROM case_tallies c WHERE c.status = ?" {
		t.Errorf("tally count: %s", text)
	}
	if _, ok := tl.countFrom(sq.Select("COUNT(*)").From("cases c").Join("users u ON u.id = c.user_id").Where("c.status = ?", 1)); ok {
		t.Error("a count with a join must count the rows")
	}
	if _, ok := (*Tally)(nil).countFrom(b); ok {
		t.Error("no tally, no tally count")
	}
}

// TestCountsFromTally checks that the tab counts summed from a tally equal
// the rows' counts, for tallied tabs and for tabs counted row by row, on
// both dialects; a tally sum that misreads its tab's condition fails.
func TestCountsFromTally(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		setup(t, d)
		if _, err := d.ExecContext(ctx, `CREATE TABLE lq_tallies AS SELECT kind, flag, COUNT(*) AS n FROM lq_items GROUP BY kind, flag`); err != nil {
			t.Fatal(err)
		}
		tallied := *items
		tallied.Tally = &Tally{From: "lq_items i", Table: "lq_tallies i", Count: "i.n", Columns: []string{"i.kind", "i.flag"}}
		q, err := tallied.Parse(d.Dialect, Request{})
		if err != nil {
			t.Fatal(err)
		}
		from := d.Builder().Select().From("lq_items i").Where("i.kind IN ('a', 'b')")
		if _, ok := q.tally.countFrom(q.ApplyCount(from.Column("COUNT(*)"))); !ok {
			t.Fatal("the scope should be counted from the tally")
		}
		tabs := map[string]sq.Sqlizer{"all": nil, "a": sq.Expr("i.kind = 'a'"), "flagged": sq.Eq{"i.flag": 1},
			"a_unflagged": sq.Expr("i.kind = ? AND NOT (i.flag = 1)", "a"), "big": sq.Expr("i.n >= ?", 3)}
		got, err := Counts(ctx, d, q, from, tabs)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Counts(ctx, d, nil, from, tabs)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || want["a"] == 0 || want["flagged"] == want["all"] {
			t.Errorf("counts from the tally %v, from the rows %v", got, want)
		}
	})
}

// TestCountSearchBy checks the counts of a search read from a tally of the
// rows by what the search matches (Query.CountSearchBy) against the rows'
// counts, on both dialects: the list's total and the tab counts, with a
// filter the tally covers kept beside the search's condition, and one it
// does not cover counted from the rows. A count that drops the filter, or
// that ignores the tally, fails.
func TestCountSearchBy(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		setup(t, d)
		if _, err := d.ExecContext(ctx, `CREATE TABLE lq_tag_tallies AS SELECT g.tag, i.kind, i.flag, COUNT(*) + 100 AS n
			FROM lq_tags g JOIN lq_items i ON i.id = g.item_id GROUP BY g.tag, i.kind, i.flag`); err != nil {
			t.Fatal(err)
		}
		// Each tally row is 100 over its rows: a count from the tally is
		// told from the rows' by that, then the 100s taken off.
		tagged := *items
		tagged.SearchIndex = func(db.Dialect, string) sq.Sqlizer {
			return sq.Expr("i.id IN (SELECT item_id FROM lq_tags WHERE tag = 'red')")
		}
		tally := &Tally{From: "lq_items i", Table: "lq_tag_tallies i", Count: "i.n", Columns: []string{"i.tag", "i.kind", "i.flag"}}
		from := d.Builder().Select().From("lq_items i").Where("i.kind IN ('a', 'b')")
		tabs := map[string]sq.Sqlizer{"all": nil, "flagged": sq.Eq{"i.flag": 1}, "big": sq.Expr("i.n >= ?", 3)}
		for _, c := range []struct {
			params  string
			tallied bool
		}{{`{"kind":"a"}`, true}, {`{"kind":"a","n":1}`, false}} {
			req := Request{Search: "red", Params: c.params, PageSize: "1"}
			q, err := tagged.Parse(d.Dialect, req)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Counts(ctx, d, q, from, tabs)
			if err != nil {
				t.Fatal(err)
			}
			_, wantPage, err := Run[struct{ ID int64 }](ctx, d, q, d.Builder().Select("i.id").From("lq_items i"), d.Builder().Select("COUNT(*)").From("lq_items i"))
			if err != nil {
				t.Fatal(err)
			}
			q.CountSearchBy(tally, sq.Eq{"i.tag": "red"})
			got, err := Counts(ctx, d, q, from, tabs)
			if err != nil {
				t.Fatal(err)
			}
			_, page, err := Run[struct{ ID int64 }](ctx, d, q, d.Builder().Select("i.id").From("lq_items i"), d.Builder().Select("COUNT(*)").From("lq_items i"))
			if err != nil {
				t.Fatal(err)
			}
			if c.tallied { // the tally rows of red under kind a; the big tab counts rows
				var all, flagged int64
				if err := d.GetContext(ctx, &all, "SELECT COUNT(*) FROM lq_tag_tallies WHERE tag = 'red' AND kind = 'a'"); err != nil {
					t.Fatal(err)
				}
				if err := d.GetContext(ctx, &flagged, "SELECT COUNT(*) FROM lq_tag_tallies WHERE tag = 'red' AND kind = 'a' AND flag = 1"); err != nil {
					t.Fatal(err)
				}
				got["all"] -= 100 * all
				got["flagged"] -= 100 * flagged
				page.Total -= 100 * all
			}
			if !reflect.DeepEqual(got, want) || page.Total != wantPage.Total || (c.tallied && (want["all"] == 0 || want["big"] == want["all"])) {
				t.Errorf("%s: counts with the search tally %v (total %d), from the rows %v (total %d)", c.params, got, page.Total, want, wantPage.Total)
			}
		}
	})
}
