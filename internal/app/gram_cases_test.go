package app_test

import (
	"fmt"
	"net/url"
	"slices"
	"testing"

	"telepath/internal/platform/db"
)

// TestGramSearchAfterRandomTransitions drives cases through the random
// walk of their life cycle (see TestExpertScopeAfterRandomTransitions).
// Every third step the site also changes a case's registration (gender,
// age, inspection date) where it may; such a change writes the searched
// texts too, so the case's pieces and their copies are made again
// (TestGramCases writes each copied column alone). On SQLite, after every
// step, consultation_gram_cases (migrations 0089, 0092) must hold exactly
// the one-character pieces of the cases with their columns. On both
// databases, every 20 steps, a search of 王 (every walked case's patient
// is 王芳, and no hospital's name holds it) must list and count what the
// lists without a search do: the tab counts, and the first two pages of
// each tab with their totals, also under the case screens' own filters and
// sorts, for the administrator, the site and the allocator.
func TestGramSearchAfterRandomTransitions(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		w := newScopeWalk(e, 17)
		for i := range 8 {
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
		sqlite := e.app.DB.Dialect == db.SQLite
		copies := func(after string) {
			t.Helper()
			if !sqlite {
				return
			}
			var off int
			if err := e.app.DB.Get(&off, gramCasesDiff); err != nil {
				t.Fatal(err)
			}
			if off != 0 {
				t.Fatalf("after %s: %d rows of consultation_gram_cases differ from the cases' pieces and columns", after, off)
			}
		}
		type page struct {
			Data []struct {
				ID int64 `json:"id"`
			} `json:"data"`
			Meta struct {
				Pagination struct {
					Total int64 `json:"total"`
				} `json:"pagination"`
			} `json:"meta"`
		}
		lists := func(after string) {
			t.Helper()
			for _, who := range []string{"admin", "site", "allocator"} {
				tok := w.tokens[who]
				var plain, searched struct {
					Data map[string]int64 `json:"data"`
				}
				e.decode(e.expect(e.do("GET", "/api/consultation/count?params="+url.QueryEscape(`{}`), tok, nil), 200), &plain)
				e.decode(e.expect(e.do("GET", "/api/consultation/count?params="+url.QueryEscape(`{}`)+"&search="+url.QueryEscape("王"), tok, nil), 200), &searched)
				if len(plain.Data) == 0 || fmt.Sprint(plain.Data) != fmt.Sprint(searched.Data) {
					t.Fatalf("after %s: %s's tab counts %v, searched for 王 %v", after, who, plain.Data, searched.Data)
				}
				type list struct{ sort, params string }
				var ls []list
				for tab := range plain.Data {
					ls = append(ls, list{`{"created_at":"desc"}`, `{"tab":"` + tab + `"}`})
				}
				// The screens' filters and sorts (web/src/features/consultation).
				for _, tab := range []string{"all", "submitted", "completed"} {
					ls = append(ls, list{`{"patient_name":"asc"}`, `{"tab":"` + tab + `","expedite":0,"gender":"female"}`},
						list{`{"age":"asc"}`, `{"tab":"` + tab + `","gender":["male","unknown"]}`},
						list{`{"inspection_date":"desc"}`, `{"tab":"` + tab + `","inspection_date":["2026-10-01","2026-10-20"]}`},
						list{`{"slide_count":"desc"}`, `{"tab":"` + tab + `","charge_status":2}`},
						list{`{"consult_no":"asc"}`, `{"tab":"` + tab + `","age":[30,31,32,33,34,35,36,37,38,39,40]}`},
						list{`{"pathology_number":"desc"}`, `{"tab":"` + tab + `"}`},
						list{`{"assigned_at":"asc"}`, `{"tab":"` + tab + `","status":[1,2,4]}`})
				}
				for _, l := range ls {
					for _, n := range []string{"1", "2"} {
						q := "/api/consultation/list?page_size=3&page=" + n + "&sort_by=" + url.QueryEscape(l.sort) + "&params=" + url.QueryEscape(l.params)
						var a, b page
						e.decode(e.expect(e.do("GET", q, tok, nil), 200), &a)
						e.decode(e.expect(e.do("GET", q+"&search="+url.QueryEscape("王"), tok, nil), 200), &b)
						ids := func(p page) []int64 {
							var out []int64
							for _, r := range p.Data {
								out = append(out, r.ID)
							}
							return out
						}
						if !slices.Equal(ids(a), ids(b)) || a.Meta.Pagination.Total != b.Meta.Pagination.Total {
							t.Fatalf("after %s: %s's list %s by %s, page %s: %v of %d, searched for 王 %v of %d", after, who, l.params, l.sort, n,
								ids(a), a.Meta.Pagination.Total, ids(b), b.Meta.Pagination.Total)
						}
					}
				}
			}
		}
		copies("the start")
		lists("the start")
		const steps = 120
		edits := 0
		for i := range steps {
			id, act := w.step()
			after := fmt.Sprintf("step %d (%s on case %s)", i, act, id)
			copies(after)
			if i%3 == 0 {
				// A registration changed: the copies of gender, age and the
				// inspection date follow (the name stays 王芳).
				id := w.cases[w.r.IntN(len(w.cases))]
				reg := registration(w.f, fmt.Sprintf("BL2026-%05d", 41000+i), e.slide(w.f.hospital, "site"))
				reg["gender"], reg["age"] = []string{"male", "female", "unknown"}[w.r.IntN(3)], fmt.Sprint(20+w.r.IntN(50))
				reg["inspection_date"] = fmt.Sprintf("2026-10-%02d", 1+w.r.IntN(30))
				switch r := e.do("POST", "/api/consultation/"+id, w.tokens["site"], reg); r.Status {
				case 200:
					edits++
					copies(fmt.Sprintf("step %d (the registration of case %s changed)", i, id))
				case 409:
				default:
					t.Fatalf("case %s: changing its registration: %d %s", id, r.Status, r.Body)
				}
			}
			if (i+1)%20 == 0 {
				lists(after)
			}
		}
		if edits == 0 {
			t.Error("no registration was changed")
		}
		t.Logf("transitions made: %v, registrations changed: %d", w.done, edits)
	})
}

// gramCasesDiff counts the rows by which consultation_gram_cases differs
// from the one-character pieces of consultation_grams joined to their
// cases' columns, both ways.
const gramCasesDiff = `SELECT COUNT(*) FROM (
	SELECT * FROM (SELECT gram, id, hospital_id, center_id, expert_id, user_id, staff_id, status, is_draft, is_recall, is_return, is_lock,
		supplement_review, print_deliver_status, expedite, charge_status, deleted_at, created_at, submitted_at, timeout_at, remind_at, release_at,
		gender, age, slide_count, patient_name, consult_no, pathology_number, inspection_date, assigned_at
		FROM consultation_gram_cases
	EXCEPT SELECT g.gram, c.id, c.hospital_id, c.center_id, c.expert_id, c.user_id, c.staff_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock,
		c.supplement_review, c.print_deliver_status, c.expedite, c.charge_status, c.deleted_at, c.created_at, c.submitted_at, c.timeout_at, c.remind_at, c.release_at,
		c.gender, c.age, c.slide_count, c.patient_name, c.consult_no, c.pathology_number, c.inspection_date, c.assigned_at
		FROM consultation_grams g JOIN consultations c ON c.id = g.case_id WHERE length(g.gram) = 1)
	UNION ALL
	SELECT * FROM (SELECT g.gram, c.id, c.hospital_id, c.center_id, c.expert_id, c.user_id, c.staff_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock,
		c.supplement_review, c.print_deliver_status, c.expedite, c.charge_status, c.deleted_at, c.created_at, c.submitted_at, c.timeout_at, c.remind_at, c.release_at,
		c.gender, c.age, c.slide_count, c.patient_name, c.consult_no, c.pathology_number, c.inspection_date, c.assigned_at
		FROM consultation_grams g JOIN consultations c ON c.id = g.case_id WHERE length(g.gram) = 1
	EXCEPT SELECT gram, id, hospital_id, center_id, expert_id, user_id, staff_id, status, is_draft, is_recall, is_return, is_lock,
		supplement_review, print_deliver_status, expedite, charge_status, deleted_at, created_at, submitted_at, timeout_at, remind_at, release_at,
		gender, age, slide_count, patient_name, consult_no, pathology_number, inspection_date, assigned_at
		FROM consultation_gram_cases))`
