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
