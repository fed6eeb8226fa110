package listquery

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// row is one lq_items row, kept in Go too so each test computes its
// expected ids independently of SQL.
type row struct {
	ID    int64      `db:"id"`
	Name  string     `db:"name"`
	N     int64      `db:"n"`
	Score float64    `db:"score"`
	Flag  int64      `db:"flag"`
	Kind  string     `db:"kind"`
	At    *time.Time `db:"at"`
	tags  []string
}

// fixture: 50 rows with mixed-case, wildcard and Chinese names and times
// around midnight Asia/Shanghai (16:00 UTC).
func fixture() []row {
	names := []string{"Alpha", "ALPHA beta", "alphabet", "50% off", "5000 units", "a_b", "axb", "病理切片", "细胞病理学", "冰冻切片",
		`back\slash`, "Gamma", "delta", "Delta force", "epsilon"}
	base := time.Date(2025, 12, 31, 12, 0, 0, 0, time.UTC) // 20:00 in Shanghai
	var rows []row
	for i := range 50 {
		r := row{
			ID:    int64(i + 1),
			Name:  names[i%len(names)],
			N:     int64(i % 7),
			Score: float64(i) / 4,
			Flag:  int64(i % 2),
			Kind:  []string{"a", "b"}[i%3%2],
		}
		if i%10 != 9 {
			at := base.Add(time.Duration(i) * time.Hour)
			r.At = &at
		}
		if i%4 == 0 {
			r.tags = []string{"red"}
		}
		if i%5 == 0 {
			r.tags = append(r.tags, "Blue")
		}
		rows = append(rows, r)
	}
	return rows
}

func setup(t *testing.T, d *db.DB) []row {
	t.Helper()
	ctx := context.Background()
	ts := "DATETIME"
	if d.Dialect == db.Postgres {
		ts = "TIMESTAMPTZ"
	}
	for _, s := range []string{
		`CREATE TABLE lq_items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER NOT NULL, score DOUBLE PRECISION NOT NULL,
			flag INTEGER NOT NULL, status INTEGER NOT NULL DEFAULT 0, kind TEXT NOT NULL, at ` + ts + `, secret TEXT NOT NULL DEFAULT '')`,
		`CREATE TABLE lq_tags (item_id INTEGER NOT NULL, tag TEXT NOT NULL)`,
	} {
		if _, err := d.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	rows := fixture()
	ins := d.Builder().Insert("lq_items").Columns("id", "name", "n", "score", "flag", "kind", "at")
	tags := d.Builder().Insert("lq_tags").Columns("item_id", "tag")
	for _, r := range rows {
		var at any
		if r.At != nil {
			at = *r.At
		}
		ins = ins.Values(r.ID, r.Name, r.N, r.Score, r.Flag, r.Kind, at)
		for _, tag := range r.tags {
			tags = tags.Values(r.ID, tag)
		}
	}
	for _, b := range []sq.InsertBuilder{ins, tags} {
		if _, err := db.Exec(ctx, d, b); err != nil {
			t.Fatal(err)
		}
	}
	return rows
}

func ids(rows []row, keep func(row) bool) []int64 {
	out := []int64{}
	for _, r := range rows {
		if keep(r) {
			out = append(out, r.ID)
		}
	}
	return out
}

func at(r row, lo, hi string) bool { // lo <= at < hi, Shanghai wall time
	return r.At != nil && !r.At.Before(cst(lo)) && r.At.Before(cst(hi))
}

func TestDatabase(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		rows := setup(t, d)
		base := d.Builder().Select("i.id", "i.name", "i.n", "i.score", "i.flag", "i.kind", "i.at").From("lq_items i")
		count := d.Builder().Select("COUNT(*)").From("lq_items i")
		run := func(t *testing.T, req Request) ([]row, Pagination) {
			t.Helper()
			q, err := items.Parse(d.Dialect, req)
			if err != nil {
				t.Fatal(err)
			}
			got, p, err := Run[row](ctx, d, q, base, count)
			if err != nil {
				t.Fatal(err)
			}
			return got, p
		}
		all := func(row) bool { return true }
		tests := []struct {
			name string
			req  Request
			want func(row) bool
		}{
			{"All", Request{}, all},
			{"LikeIsCaseInsensitive", Request{Constraints: one("and", "name", "like", "alpha")}, func(r row) bool { return strings.Contains(strings.ToLower(r.Name), "alpha") }},
			{"NotLike", Request{Constraints: one("and", "name", "not like", "ALPHA")}, func(r row) bool { return !strings.Contains(strings.ToLower(r.Name), "alpha") }},
			{"SearchPercentIsLiteral", Request{Search: "50%"}, func(r row) bool { return strings.Contains(r.Name, "50%") }},
			{"SearchUnderscoreIsLiteral", Request{Search: "a_b"}, func(r row) bool { return r.Name == "a_b" }},
			{"SearchBackslashIsLiteral", Request{Search: `k\s`}, func(r row) bool { return strings.Contains(r.Name, `k\s`) }},
			{"SearchChinese", Request{Search: "病理"}, func(r row) bool { return strings.Contains(r.Name, "病理") }},
			{"SearchVirtualColumn", Request{Search: "blu"}, func(r row) bool { return slices.Contains(r.tags, "Blue") }},
			{"SearchNumberMatchesId", Request{Search: "7"}, func(r row) bool { return r.ID == 7 }},
			{"ParamsScalarAndIn", Request{Params: `{"n":[1,2],"flag":true}`}, func(r row) bool { return (r.N == 1 || r.N == 2) && r.Flag == 1 }},
			{"ParamsExtraIgnored", Request{Params: `{"tab":"x","kind":"b"}`}, func(r row) bool { return r.Kind == "b" }},
			{"ParamsTimeDayRange", Request{Params: `{"at":["2026-01-01","2026-01-01"]}`}, func(r row) bool { return at(r, "2026-01-01 00:00:00", "2026-01-02 00:00:00") }},
			{"ParamsTimeSecondsRange", Request{Params: `{"at":["2026-01-01 08:00:00","2026-01-01 10:00:00"]}`}, func(r row) bool { return at(r, "2026-01-01 08:00:00", "2026-01-01 10:00:01") }},
			{"ParamsTimeOpenEnd", Request{Params: `{"at":["2026-01-02 12:00:00",""]}`}, func(r row) bool { return at(r, "2026-01-02 12:00:00", "2100-01-01 00:00:00") }},
			{"TimeDayEquals", Request{Constraints: one("and", "at", "=", "2025-12-31")}, func(r row) bool { return at(r, "2025-12-31 00:00:00", "2026-01-01 00:00:00") }},
			{"TimeAfterDay", Request{Constraints: one("and", "at", ">", "2026-01-01")}, func(r row) bool { return at(r, "2026-01-02 00:00:00", "2100-01-01 00:00:00") }},
			{"TimeExceptBetweenKeepsNonNull", Request{Constraints: one("except", "at", "between", `RAW:["2026-01-01","2026-01-01"]`)}, func(r row) bool {
				return r.At != nil && !at(r, "2026-01-01 00:00:00", "2026-01-02 00:00:00")
			}},
			{"TimeRFC3339", Request{Constraints: one("and", "at", "<=", "2025-12-31T14:00:00Z")}, func(r row) bool { return r.At != nil && !r.At.After(time.Date(2025, 12, 31, 14, 0, 0, 0, time.UTC)) }},
			{"ExceptIn", Request{Constraints: one("except", "n", "in", "RAW:[0,1,2,3]")}, func(r row) bool { return r.N > 3 }},
			{"FloatBetween", Request{Constraints: one("and", "score", "between", "RAW:[2.5,5]")}, func(r row) bool { return r.Score >= 2.5 && r.Score <= 5 }},
			{"VirtualNotIn", Request{Constraints: one("and", "tag", "not in", `RAW:["red"]`)}, func(r row) bool { return !slices.Contains(r.tags, "red") }},
			{"Precedence", Request{Constraints: `[{"constraint":[{"column":"n","value":1},{"condition":"and","column":"flag","value":1},{"condition":"or","column":"n","value":2}]}]`},
				func(r row) bool { return r.N == 1 && r.Flag == 1 || r.N == 2 }},
			{"ChildGroup", Request{Constraints: `[{"constraint":[{"column":"kind","value":"a"},{"condition":"and","column":"n","value":1,"child":[{"condition":"or","column":"n","value":2}]}]},
				{"condition":"except","constraint":[{"column":"flag","value":0}]}]`},
				func(r row) bool { return r.Kind == "a" && (r.N == 1 || r.N == 2) && r.Flag != 0 }},
			{"ParamsSearchConstraintsTogether", Request{Params: `{"kind":"a"}`, Search: "ALPHA", Constraints: one("and", "n", ">=", 3)},
				func(r row) bool {
					return r.Kind == "a" && strings.Contains(strings.ToLower(r.Name), "alpha") && r.N >= 3
				}},
			{"InjectionIsAValue", Request{Search: `'; DROP TABLE lq_items; --`, Params: `{"name":"x' OR '1'='1"}`}, func(row) bool { return false }},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tt.req.PageSize = "100"
				tt.req.SortBy = `{"id":"asc"}`
				got, p := run(t, tt.req)
				want := ids(rows, tt.want)
				if g := ids(got, func(row) bool { return true }); !reflect.DeepEqual(g, want) {
					t.Errorf("got  %v\nwant %v", g, want)
				}
				if p.Total != int64(len(want)) {
					t.Errorf("total %d, want %d", p.Total, len(want))
				}
			})
		}

		t.Run("SortOrderPreserved", func(t *testing.T) {
			got, _ := run(t, Request{PageSize: "100", SortBy: `{"n":"desc","score":"asc"}`})
			want := slices.Clone(rows)
			slices.SortStableFunc(want, func(a, b row) int {
				if a.N != b.N {
					return int(b.N - a.N)
				}
				return int(a.Score*4 - b.Score*4)
			})
			if g, w := ids(got, all), ids(want, all); !reflect.DeepEqual(g, w) {
				t.Errorf("got  %v\nwant %v", g, w)
			}
		})
		t.Run("TextSortsByCodePoint", func(t *testing.T) {
			got, _ := run(t, Request{PageSize: "100", SortBy: `{"name":"asc"}`})
			want := slices.Clone(rows)
			slices.SortStableFunc(want, func(a, b row) int {
				if c := strings.Compare(a.Name, b.Name); c != 0 {
					return c
				}
				return int(b.ID - a.ID)
			})
			if g, w := ids(got, all), ids(want, all); !reflect.DeepEqual(g, w) {
				t.Errorf("got  %v\nwant %v", g, w)
			}
		})
		t.Run("NullsSortTheSameOnBothDialects", func(t *testing.T) {
			asc, _ := run(t, Request{PageSize: "100", SortBy: `{"at":"asc"}`})
			desc, _ := run(t, Request{PageSize: "100", SortBy: `{"at":"desc"}`})
			if asc[0].At != nil || desc[0].At == nil || desc[len(desc)-1].At != nil {
				t.Errorf("nulls misplaced: asc first %v, desc first %v last %v", asc[0].At, desc[0].At, desc[len(desc)-1].At)
			}
			// Nulls come first on asc, ordered by the tie-break (id desc).
			if asc[0].ID != 50 || asc[4].ID != 10 || asc[5].ID != 1 {
				t.Errorf("asc head %v", ids(asc[:6], all))
			}
		})
		t.Run("DefaultSortAndTimesRoundTrip", func(t *testing.T) {
			got, _ := run(t, Request{PageSize: "3"})
			if got[0].ID != 49 || got[1].ID != 48 || !got[0].At.Equal(*rows[48].At) {
				t.Errorf("head %v %v", ids(got, all), got[0].At)
			}
		})
		t.Run("Pagination", func(t *testing.T) {
			var seen []int64
			for page := 1; page <= 3; page++ {
				got, p := run(t, Request{Page: fmt.Sprint(page), PageSize: "20", SortBy: `{"kind":"asc"}`})
				want := map[int]int{1: 20, 2: 20, 3: 10}[page]
				if len(got) != want || p != (Pagination{Total: 50, CurrentPage: page, PerPage: 20, TotalPage: 3}) {
					t.Errorf("page %d: %d rows, %+v", page, len(got), p)
				}
				seen = append(seen, ids(got, all)...)
			}
			slices.Sort(seen)
			if !reflect.DeepEqual(seen, ids(rows, all)) {
				t.Errorf("pages do not cover every row once: %v", seen)
			}
			got, p := run(t, Request{Page: "4", PageSize: "20"})
			if len(got) != 0 || got == nil || p.Total != 50 || p.TotalPage != 3 {
				t.Errorf("past the end: %v %+v", got, p)
			}
			_, p = run(t, Request{Params: `{"name":"nobody"}`})
			if p != (Pagination{Total: 0, CurrentPage: 1, PerPage: 20, TotalPage: 1}) {
				t.Errorf("empty: %+v", p)
			}
		})
		t.Run("Counts", func(t *testing.T) {
			q, err := items.Parse(d.Dialect, Request{Params: `{"kind":"a"}`, Search: "a"})
			if err != nil {
				t.Fatal(err)
			}
			tabs := map[string]sq.Sqlizer{
				"all":       nil,
				"flagged":   sq.Eq{"i.flag": 1},
				"low":       sq.Lt{"i.n": 3},
				"red":       sq.Expr("EXISTS (SELECT 1 FROM lq_tags t WHERE t.item_id = i.id AND t.tag = ?)", "red"),
				"none":      sq.Expr("1=0"),
				"odd name'": sq.Eq{"i.kind": "a"},
			}
			got, err := Counts(ctx, d, q, d.Builder().Select().From("lq_items i"), tabs)
			if err != nil {
				t.Fatal(err)
			}
			match := func(r row) bool {
				return r.Kind == "a" && (strings.Contains(strings.ToLower(r.Name), "a") || slices.ContainsFunc(r.tags, func(s string) bool { return strings.Contains(strings.ToLower(s), "a") }))
			}
			n := func(f func(row) bool) int64 {
				return int64(len(ids(rows, func(r row) bool { return match(r) && f(r) })))
			}
			want := map[string]int64{
				"all":       n(all),
				"flagged":   n(func(r row) bool { return r.Flag == 1 }),
				"low":       n(func(r row) bool { return r.N < 3 }),
				"red":       n(func(r row) bool { return slices.Contains(r.tags, "red") }),
				"none":      0,
				"odd name'": n(all),
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %v\nwant %v", got, want)
			}
			empty, err := Counts(ctx, d, nil, d.Builder().Select().From("lq_items i").Where("1=0"), map[string]sq.Sqlizer{"x": sq.Eq{"i.flag": 1}})
			if err != nil || empty["x"] != 0 {
				t.Errorf("no rows: %v %v", empty, err)
			}
		})
	})
}
