package app_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"
)

// TestTabCountsUnderSearches: after a random walk of the cases' life cycle
// and random writes of their searched texts and times (time limits and
// reminders past or to come, releases to come, print and delivery
// states), on both databases, the tab counts of the administrator, the
// site, the allocator and an expert under a search of each kind (one
// character beyond ASCII, two, a hospital's name, part of an ID number,
// one Latin letter, a pathology number's part) must each equal the
// total of that tab's list under the same search, which counts its rows
// with the tab's condition alone (listquery.Run). Under a search a search
// tally reads (on PostgreSQL a character's gram tallies) the tabs that
// compare a time are counted together (listquery.countTallied); at least
// one such tab is not zero under a search.
func TestTabCountsUnderSearches(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		w := newScopeWalk(e, 29)
		for i := range 10 {
			id := w.register()
			if i < 2 {
				continue
			}
			e.expect(e.do("POST", "/api/consultation/submit/"+id, w.tokens["site"], nil), 200)
			if i < 4 {
				continue
			}
			e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", w.tokens["allocator"], map[string]any{"expert_id": w.experts[i%len(w.experts)]}), 200)
		}
		w.tokens["admin"] = e.login("admin")
		var hospital string
		if err := e.app.DB.Get(&hospital, e.app.DB.Rebind("SELECT name FROM hospitals WHERE id = ?"), w.f.hospital); err != nil {
			t.Fatal(err)
		}
		hospitalPart := string([]rune(hospital)[:2])
		searches := []string{"王", "王芳", "李", hospitalPart, "19491231", "b", "BL2026"}
		names := []string{"王芳", "李王", "张伟", "王", "Bob 李"}
		now := time.Now().UTC().Truncate(time.Second)
		counted := 0
		check := func(after string) {
			t.Helper()
			for _, who := range []string{"admin", "site", "allocator", "expert"} {
				tok := w.tokens[who]
				for _, s := range searches {
					var counts struct {
						Data map[string]int64 `json:"data"`
					}
					e.decode(e.expect(e.do("GET", "/api/consultation/count?params="+url.QueryEscape(`{}`)+"&search="+url.QueryEscape(s), tok, nil), 200), &counts)
					if len(counts.Data) == 0 {
						t.Fatalf("after %s: %s's tab counts of %q: none", after, who, s)
					}
					for tab, n := range counts.Data {
						var page struct {
							Meta struct {
								Pagination struct {
									Total int64 `json:"total"`
								} `json:"pagination"`
							} `json:"meta"`
						}
						q := "/api/consultation/list?page_size=1&params=" + url.QueryEscape(`{"tab":"`+tab+`"}`) + "&search=" + url.QueryEscape(s)
						e.decode(e.expect(e.do("GET", q, tok, nil), 200), &page)
						if page.Meta.Pagination.Total != n {
							t.Fatalf("after %s: %s's tab %s searched for %q: counted %d, its list holds %d", after, who, tab, s, n, page.Meta.Pagination.Total)
						}
						switch tab {
						case "timeout", "soon_timeout", "releasing", "to_print", "to_send":
							if n > 0 {
								counted++
							}
						}
					}
				}
			}
		}
		write := func() {
			t.Helper()
			id := w.cases[w.r.IntN(len(w.cases))]
			at := func() any {
				if w.r.IntN(4) == 0 {
					return nil
				}
				return now.Add(time.Duration(w.r.IntN(96)-48) * time.Hour)
			}
			var err error
			switch w.r.IntN(3) {
			case 0:
				_, err = e.app.DB.Exec(e.app.DB.Rebind("UPDATE consultations SET patient_name = ? WHERE id = ?"), names[w.r.IntN(len(names))], atoi(id))
			case 1:
				_, err = e.app.DB.Exec(e.app.DB.Rebind("UPDATE consultations SET timeout_at = ?, remind_at = ? WHERE id = ?"), at(), at(), atoi(id))
			case 2:
				_, err = e.app.DB.Exec(e.app.DB.Rebind("UPDATE consultations SET release_at = ?, print_deliver_status = ? WHERE id = ?"), at(), w.r.IntN(4), atoi(id))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		for i := range 90 {
			id, act := w.step()
			write()
			if (i+1)%45 == 0 {
				check(fmt.Sprintf("step %d (%s on case %s)", i, act, id))
			}
		}
		if counted == 0 {
			t.Fatal("no tab that compares a time counted a case under a search")
		}
		t.Logf("transitions made: %v; time tabs not zero: %d", w.done, counted)
	})
}
