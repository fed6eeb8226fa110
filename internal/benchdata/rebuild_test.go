package benchdata_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"telepath/internal/benchdata"
	"telepath/internal/demo"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// written are the tables the loader writes itself; every other table the
// load changes is kept by triggers.
var written = []string{"hospitals", "hospital_centers", "users", "user_roles", "user_centers", "user_hospitals", "consultations", "diagnoses",
	"case_logs", "charges", "invitations", "advices", "slides", "slide_judgements", "frozen_appointments", "timeout_notices"}

// The fast load (triggers off, counted again at the end) leaves every table
// the triggers keep exactly as a load with the triggers on: the tables a
// triggered load changes besides the loader's own are found by comparing
// the database before and after it, so a trigger added later whose table
// the fast load does not rebuild fails here.
func TestFastLoad(t *testing.T) {
	for _, dialect := range dbtest.Dialects() {
		t.Run(string(dialect), func(t *testing.T) {
			ctx := context.Background()
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			ref, fast := dbtest.Open(t, dialect), dbtest.Open(t, dialect)
			for _, d := range []*db.DB{ref, fast} {
				if err := demo.Seed(ctx, d, log, clock.Clock{}); err != nil {
					t.Fatal(err)
				}
			}
			before := dump(t, ref)
			o := benchdata.Options{Cases: 500, Users: 100, Hospitals: 6, Experts: 8, Years: 1, Now: time.Now(), Triggers: true}
			if err := benchdata.Load(ctx, ref, o, log); err != nil {
				t.Fatal(err)
			}
			o.Triggers = false
			if err := benchdata.Load(ctx, fast, o, log); err != nil {
				t.Fatal(err)
			}
			want, got := dump(t, ref), dump(t, fast)
			var kept []string
			for table, rows := range want {
				if slices.Contains(written, table) {
					if len(got[table]) != len(rows) {
						t.Errorf("%s: %d rows, want %d", table, len(got[table]), len(rows))
					}
					continue
				}
				if slices.Equal(rows, before[table]) {
					continue
				}
				kept = append(kept, table)
				if !slices.Equal(got[table], rows) {
					t.Errorf("%s differs from the triggered load: %d rows, want %d%s", table, len(got[table]), len(rows), firstDiff(got[table], rows))
				}
			}
			slices.Sort(kept)
			must := []string{"consultation_tallies", "stat_daily", "stat_turnaround", "stat_monthly", "stat_weekly", "stat_turnaround_yearly", "stat_reasons"}
			if dialect == db.SQLite {
				must = append(must, "consultations_search_docsize", "consultations_id_search_docsize", "consultation_grams", "consultation_gram_cases")
			} else {
				must = append(must, "consultation_gram_tallies") // dropped from SQLite (0088)
			}
			for _, m := range must {
				if !slices.Contains(kept, m) {
					t.Errorf("the triggered load did not change %s (kept by triggers: %v)", m, kept)
				}
			}
			// The special exams' turnarounds (migration 0074) are among
			// the rollups both loads hold.
			var advice int
			if err := fast.GetContext(ctx, &advice, "SELECT COUNT(*) FROM stat_turnaround WHERE span = 'advice' AND n <> 0"); err != nil {
				t.Fatal(err)
			}
			if advice == 0 {
				t.Error("the fast load holds no special-exam turnaround")
			}
			if dialect == db.SQLite {
				// The search index answers the same: its segments differ
				// (built at once, not row by row), so they are compared
				// by what they find.
				for _, q := range []struct{ index, text string }{
					{"consultations_search", "TP2"}, {"consultations_search", "BL2"}, {"consultations_search", "000012"}, {"consultations_search", "-0001"},
					{"consultations_id_search", "3302"}, {"consultations_id_search", "1985"},
				} {
					find := func(d *db.DB) []int64 {
						var ids []int64
						if err := d.SelectContext(ctx, &ids, "SELECT rowid FROM "+q.index+" WHERE "+q.index+" MATCH ? ORDER BY rowid", `"`+q.text+`"`); err != nil {
							t.Fatal(err)
						}
						return ids
					}
					if w, g := find(ref), find(fast); !slices.Equal(w, g) || len(w) == 0 {
						t.Errorf("%s %q finds %d cases, want %d", q.index, q.text, len(g), len(w))
					}
				}
			}
		})
	}
}

// dump reads every table into sorted rows of text, leaving out counters
// at zero (a triggered count that went up and down again).
func dump(t *testing.T, d *db.DB) map[string][]string {
	t.Helper()
	ctx := context.Background()
	var tables []string
	q := "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
	if d.Dialect == db.SQLite {
		// FTS5 keeps its index in segments whose layout depends on the
		// order of writes: those are compared by searching instead.
		q = `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
			AND NOT (name LIKE '%\_data' ESCAPE '\' OR name LIKE '%\_idx' ESCAPE '\')`
	}
	if err := d.SelectContext(ctx, &tables, q); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, table := range tables {
		rows, err := d.QueryxContext(ctx, `SELECT * FROM "`+table+`"`)
		if err != nil {
			t.Fatal(table, err)
		}
		cols, _ := rows.Columns()
		n := slices.Index(cols, "n")
		for rows.Next() {
			vals, err := rows.SliceScan()
			if err != nil {
				t.Fatal(table, err)
			}
			if n >= 0 && fmt.Sprint(vals[n]) == "0" {
				continue
			}
			var b strings.Builder
			for _, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				if tm, ok := v.(time.Time); ok {
					v = tm.UTC().Format(time.RFC3339Nano)
				}
				fmt.Fprintf(&b, "%v|", v)
			}
			out[table] = append(out[table], b.String())
		}
		if err := rows.Err(); err != nil {
			t.Fatal(table, err)
		}
		rows.Close()
		slices.Sort(out[table])
	}
	return out
}

func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("; first difference: %s, want %s", got[i], want[i])
		}
	}
	return ""
}
