package consultation

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"telepath/internal/platform/access"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
	"telepath/internal/platform/listquery"
)

// TestExpertSearchEqualsLike writes cases at random (new cases in several
// hospitals, changed names and numbers, a case moved to another hospital,
// state changes, reassignments, deletes, renamed hospitals) and checks
// after each round, on each database, that an expert-only caller's search
// (written on their rows of case_experts x, see expertParse) lists and
// counts exactly the cases a plain LIKE '%text%' over the case columns
// and the hospital's name finds within the expert's old scope: the list
// with and without a tab and a hospital filter, its total, and the tab
// counts. Texts of one character (the grams), two, three and more (a
// consultation number's part), hospital names matching one or several
// hospitals, and one no index serves. A search of hospitals (and of named
// cases) counts over x alone.
func TestExpertSearchEqualsLike(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		r := rand.New(rand.NewPCG(7, 8))
		get := func(q string, args ...any) int64 {
			t.Helper()
			var id int64
			if err := d.GetContext(ctx, &id, d.Rebind(q+" RETURNING id"), args...); err != nil {
				t.Fatal(err)
			}
			return id
		}
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := d.ExecContext(ctx, d.Rebind(q), args...); err != nil {
				t.Fatal(err)
			}
		}
		hospitalNames := []string{"明州人民医院", "临江人民医院", "东湖中心医院", "Hospital of Qingshan", "王家医院"}
		var hospitals []int64
		for _, n := range hospitalNames {
			hospitals = append(hospitals, get("INSERT INTO hospitals (name, created_at, updated_at) VALUES (?, ?, ?)", n, now, now))
		}
		var experts []int64
		for i := range 3 {
			experts = append(experts, get("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES (?, 'x', ?, ?)", fmt.Sprint("e", i), now, now))
		}
		chars := []rune("王李张伟芳明州人民ab")
		name := func() string {
			n := make([]rune, 1+r.IntN(3))
			for i := range n {
				n[i] = chars[r.IntN(len(chars))]
			}
			return string(n)
		}
		number := func(p string) string { return fmt.Sprintf("%s%04d-%03d", p, 2023+r.IntN(3), r.IntN(1000)) }
		svc := New(d, Deps{})
		svc.UseClock(clock.New(nil, func() time.Time { return now }))
		like, idExpr := "LIKE", "json_extract(c.case_data, '$.id_number')"
		if d.Dialect == db.Postgres {
			like, idExpr = "ILIKE", "(c.case_data::jsonb ->> 'id_number')"
		}
		tabs := map[string]string{"all": "1=1", "completed": "c.status = 4", "submitted": "c.status IN (1, 2)",
			"pending": "c.status = 1 AND c.expert_id IS NOT NULL AND c.is_lock = 0 AND c.is_recall = 0"}
		texts := []string{"王", "人", "王伟", "明州", "人民医院", "人民", "中心医院", "TP2024", "2025-0", "BL202", "a", "hospital", "州人民", "无此"}
		var ids []int64
		for round := range 4 {
			for range 80 {
				switch k := r.IntN(12); {
				case k < 4 || len(ids) == 0:
					ids = append(ids, get(`INSERT INTO consultations (hospital_id, user_id, expert_id, status, consult_no, pathology_number, patient_name, case_data, submitted_at, created_at, updated_at)
						VALUES (?, ?, ?, ?, ?, ?, ?, '{}', ?, ?, ?)`, hospitals[r.IntN(len(hospitals))], experts[0], experts[r.IntN(len(experts))],
						[]int{0, 1, 2, 4, 4}[r.IntN(5)], number("TP"), number("BL"), name(), now.Add(-time.Duration(r.IntN(1000))*time.Hour), now, now))
				case k < 6:
					exec("UPDATE consultations SET hospital_id = ? WHERE id = ?", hospitals[r.IntN(len(hospitals))], ids[r.IntN(len(ids))])
				case k < 7:
					exec("UPDATE consultations SET patient_name = ?, consult_no = ? WHERE id = ?", name(), number("TP"), ids[r.IntN(len(ids))])
				case k < 9:
					exec("UPDATE consultations SET status = ?, expert_id = ? WHERE id = ?", []int{0, 1, 2, 4}[r.IntN(4)], experts[r.IntN(len(experts))], ids[r.IntN(len(ids))])
				case k < 10:
					exec("UPDATE hospitals SET name = ? WHERE id = ?", hospitalNames[r.IntN(len(hospitalNames))]+name(), hospitals[r.IntN(len(hospitals))])
				default:
					i := r.IntN(len(ids))
					exec("DELETE FROM consultations WHERE id = ?", ids[i])
					ids = slices.Delete(ids, i, i+1)
				}
			}
			for _, e := range experts {
				ctx := access.WithPrincipal(ctx, &access.Principal{UserID: e, Roles: []string{access.Expert}})
				for _, text := range texts {
					p := listquery.LikePattern(text)
					base := fmt.Sprintf(`SELECT c.id FROM consultations c JOIN hospitals h ON h.id = c.hospital_id
						WHERE c.deleted_at IS NULL AND (c.status <> 0 OR c.is_return = -1) AND c.expert_id = ?
						AND (c.consult_no %[1]s ? ESCAPE '\' OR c.pathology_number %[1]s ? ESCAPE '\' OR c.patient_name %[1]s ? ESCAPE '\'
						OR %[2]s %[1]s ? ESCAPE '\' OR h.name %[1]s ? ESCAPE '\')`, like, idExpr)
					counts, err := svc.Count(ctx, listquery.Request{Search: text})
					if err != nil {
						t.Fatal(err)
					}
					for tab, cond := range tabs {
						for _, filter := range []string{"", fmt.Sprintf(`,"hospital_id":[%d,%d]`, hospitals[0], hospitals[3])} {
							where := cond
							if filter != "" {
								where += fmt.Sprintf(" AND c.hospital_id IN (%d, %d)", hospitals[0], hospitals[3])
							}
							var want []int64
							if err := d.SelectContext(ctx, &want, d.Rebind(base+" AND "+where+" ORDER BY c.submitted_at DESC, c.id DESC"), e, p, p, p, p, p); err != nil {
								t.Fatal(err)
							}
							req := listquery.Request{Search: text, PageSize: "100", SortBy: `{"submitted_at":"desc"}`, Params: `{"tab":"` + tab + `"` + filter + `}`}
							rows, page, err := svc.List(ctx, req)
							if err != nil {
								t.Fatal(err)
							}
							got := []int64{}
							for _, row := range rows {
								got = append(got, row.ID)
							}
							if !slices.Equal(got, append([]int64{}, want...)) && !(len(got) == 0 && len(want) == 0) {
								t.Fatalf("round %d, expert %d, %q, tab %s%s: listed %v, LIKE finds %v", round, e, text, tab, filter, got, want)
							}
							req.PageSize = "1"
							if _, page, err = svc.List(ctx, req); err != nil {
								t.Fatal(err)
							}
							if page.Total != int64(len(want)) {
								t.Fatalf("round %d, expert %d, %q, tab %s%s: total %d, LIKE finds %d", round, e, text, tab, filter, page.Total, len(want))
							}
							if filter == "" && counts[tab] != int64(len(want)) {
								t.Fatalf("round %d, expert %d, %q: tab %s counted %d, LIKE finds %d", round, e, text, tab, counts[tab], len(want))
							}
						}
					}
				}
			}
		}
		// The searches an index serves count over case_experts x alone;
		// on SQLite a text of one or two characters that names no
		// hospital (here 王 and 明州) is searched as on the other lists.
		ctx = access.WithPrincipal(ctx, &access.Principal{UserID: experts[0], Roles: []string{access.Expert}})
		for _, text := range []string{"王", "明州", "人民医院", "TP2024"} {
			l, err := svc.parse(ctx, listquery.Request{Search: text, Params: `{"tab":"completed"}`})
			if err != nil {
				t.Fatal(err)
			}
			onX := d.Dialect == db.Postgres || utf8.RuneCountInString(text) > 2
			if (l.count == "case_experts x") != onX {
				t.Errorf("%s %q: count from %s", d.Dialect, text, l.count)
			}
		}
		// A search that names hospitals only (医院: no case's columns hold
		// it) counts from the expert's tally by hospital (migration 0091):
		// its rows changed by one show in every tab count.
		before, err := svc.Count(ctx, listquery.Request{Search: "医院"})
		if err != nil {
			t.Fatal(err)
		}
		if before["completed"] == 0 || before["all"] == 0 {
			t.Fatalf("no completed case of a hospital named 医院: %v", before)
		}
		exec("UPDATE case_expert_tallies SET n = n + 1 WHERE expert_id = ? AND n > 0", experts[0])
		after, err := svc.Count(ctx, listquery.Request{Search: "医院"})
		if err != nil {
			t.Fatal(err)
		}
		exec("UPDATE case_expert_tallies SET n = n - 1 WHERE expert_id = ? AND n > 1", experts[0])
		// Its page is read by its keys first, also under a sort by a
		// column of the cases (the keys are then read with them joined).
		for _, sort := range []string{`{"submitted_at":"desc"}`, `{"patient_name":"asc"}`} {
			rows, page, err := svc.List(ctx, listquery.Request{Search: "医院", PageSize: "100", SortBy: sort})
			if err != nil {
				t.Fatal(err)
			}
			if page.Total != before["all"] || int64(len(rows)) != min(before["all"], 100) || len(rows) < 4 {
				t.Fatalf("%s: a search of 医院 sorted by %s listed %d of %d, counted %d", d.Dialect, sort, len(rows), page.Total, before["all"])
			}
			short, _, err := svc.List(ctx, listquery.Request{Search: "医院", PageSize: "3", SortBy: sort})
			if err != nil {
				t.Fatal(err)
			}
			for i := range short {
				if short[i].ID != rows[i].ID {
					t.Errorf("%s: a search of 医院 sorted by %s: page of 3 starts %d, not %d", d.Dialect, sort, short[i].ID, rows[i].ID)
				}
			}
		}
		for _, tab := range []string{"all", "completed"} {
			if after[tab] == before[tab] {
				t.Errorf("%s: a search of 医院 counted %d in tab %s, as the rows, with the tally changed", d.Dialect, after[tab], tab)
			}
		}
	})
}
