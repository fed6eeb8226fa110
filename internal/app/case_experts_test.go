package app_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"testing"
)

// expertScopeBefore is the expert's case scope as it was written before
// migration 0056: the OR of the six ways an expert is named on a case, over
// the base tables, for a case the center has (or returned).
const expertScopeBefore = `c.deleted_at IS NULL AND (c.status <> 0 OR c.is_return = -1) AND (
	c.expert_id = ? OR c.reviewer_id = ? OR c.returned_by = ? OR c.handover_from = ?
	OR c.id IN (SELECT consult_id FROM invitations WHERE invitee_id = ?)
	OR c.id IN (SELECT consult_id FROM diagnoses WHERE reviewer_id = ? AND type = 1))`

// TestExpertScopeAfterRandomTransitions drives cases over the API through
// a random sequence of the transitions that change who may see them
// (assign, reassign, refer by the allocator and by the expert, invite and
// answer, send to review and return from it, return to the center and to
// the site, recall, hand over and take back, submit again) and then checks
// that case_experts equals the OR of the six conditions over the base
// tables, and that each expert's lists and tab counts hold exactly the
// cases the old scope selects.
func TestExpertScopeAfterRandomTransitions(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		site, alloc := e.login("site"), e.login("allocator")
		experts := map[int64]string{f.expert: e.login("expert"), f.expert2: e.login("expert2")}
		ids := []int64{f.expert, f.expert2}
		var cases []string
		for i := range 6 {
			cases = append(cases, e.submittedCase(f, fmt.Sprintf("BL2026-%05d", 31000+i), ids[i%2]))
		}
		r := rand.New(rand.NewPCG(5, 6))
		done := map[string]int{}
		for range 200 {
			id := cases[r.IntN(len(cases))]
			who := ids[r.IntN(2)]
			other := ids[0]
			if who == other {
				other = ids[1]
			}
			tok := experts[who]
			d := "/api/diagnosis/" + id
			var name string
			var res resp
			switch r.IntN(13) {
			case 0:
				name, res = "assign", e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": who})
			case 1:
				name, res = "allocator referral", e.do("POST", "/api/distribute/"+id+"/referral", alloc, map[string]any{"expert_id": who, "reason": "忙"})
			case 2:
				name, res = "expert referral", e.do("POST", d+"/referral", tok, map[string]any{"expert_id": other, "reason": "专长"})
			case 3:
				name, res = "invite", e.do("POST", d+"/invited", tok, map[string]any{"invitee_ids": []int64{other}, "message": "请看"})
			case 4:
				var inv struct {
					Data []struct {
						ID        int64 `json:"id"`
						ConsultID int64 `json:"consult_id"`
						Status    int   `json:"status"`
					} `json:"data"`
				}
				e.decode(e.do("GET", "/api/diagnosis/invitations", tok, nil), &inv)
				for _, i := range inv.Data {
					if i.Status == 0 {
						name, res = "answer", e.do("POST", "/api/diagnosis/"+itoa(i.ConsultID)+"/invited/"+itoa(i.ID), tok, map[string]any{"reply": "同意"})
						break
					}
				}
			case 5:
				e.do("POST", d+"/lock", tok, nil)
				e.do("POST", d+"/save", tok, map[string]any{"microscopic": "镜下", "opinion": "良性"})
				name, res = "to review", e.do("POST", d+"/toreview", tok, map[string]any{"reviewer_id": other})
			case 6:
				name, res = "review return", e.do("POST", d+"/reviewreturn", tok, map[string]any{"note": "再看"})
			case 7:
				name, res = "return to center", e.do("POST", d+"/return", tok, map[string]any{"reason": "资料不全"})
			case 8:
				name, res = "return to site", e.do("POST", "/api/distribute/"+id+"/return", alloc, map[string]any{"reason": "资料不全"})
			case 9:
				name, res = "recall", e.do("POST", "/api/consultation/recall/"+id, site, map[string]any{"reason": "补充"})
			case 10:
				name, res = "hand over", e.do("POST", d+"/handover", tok, map[string]any{"expert_id": other, "note": "交班"})
			case 11:
				name, res = "take back", e.do("POST", "/api/diagnosis/handover/recall/"+id, tok, nil)
			default:
				name, res = "submit", e.do("POST", "/api/consultation/submit/"+id, site, nil)
			}
			if name != "" && res.Status == 200 {
				done[name]++
			}
		}
		t.Logf("transitions done: %v", done)
		if len(done) < 6 {
			t.Fatalf("too few kinds of transition succeeded: %v", done)
		}

		for _, u := range ids {
			var want, have []int64
			named := `SELECT c.id FROM consultations c WHERE c.expert_id = ? OR c.reviewer_id = ? OR c.returned_by = ? OR c.handover_from = ?
				OR c.id IN (SELECT consult_id FROM invitations WHERE invitee_id = ?) OR c.id IN (SELECT consult_id FROM diagnoses WHERE reviewer_id = ? AND type = 1) ORDER BY c.id`
			if err := e.app.DB.Select(&want, e.app.DB.Rebind(named), u, u, u, u, u, u); err != nil {
				t.Fatal(err)
			}
			if err := e.app.DB.Select(&have, e.app.DB.Rebind("SELECT case_id FROM case_experts WHERE expert_id = ? ORDER BY case_id"), u); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(want, have) {
				t.Fatalf("expert %d: case_experts %v, named on %v", u, have, want)
			}

			// Every tab of the expert's screens lists the cases of the old
			// scope, and the counts agree.
			var counts struct {
				Data map[string]int64 `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/count?params="+url.QueryEscape(`{}`), experts[u], nil), 200), &counts)
			for _, tab := range []string{"all", "pending", "diagnosing", "to_review", "completed", "returned_center", "recall"} {
				var old []int64
				cond := map[string]string{"all": "1=1", "pending": "c.status = 1 AND c.expert_id IS NOT NULL AND c.is_lock = 0 AND c.is_recall = 0",
					"diagnosing": "c.status = 1 AND c.expert_id IS NOT NULL AND c.is_lock = 1 AND c.is_recall = 0",
					"to_review":  "(c.status = 2 OR c.supplement_review = 1)", "completed": "c.status = 4",
					"returned_center": "c.status = 1 AND c.is_return = 1", "recall": "c.is_recall IN (1, 2)"}[tab]
				if err := e.app.DB.Select(&old, e.app.DB.Rebind("SELECT c.id FROM consultations c WHERE "+expertScopeBefore+" AND "+cond+" ORDER BY c.id DESC"), u, u, u, u, u, u); err != nil {
					t.Fatal(err)
				}
				var list struct {
					Data []struct {
						ID int64 `json:"id"`
					} `json:"data"`
				}
				e.decode(e.expect(e.do("GET", "/api/consultation/list?page_size=100&params="+url.QueryEscape(`{"tab":"`+tab+`"}`), experts[u], nil), 200), &list)
				var got []int64
				for _, c := range list.Data {
					got = append(got, c.ID)
				}
				if !slices.Equal(got, old) {
					t.Errorf("expert %d, tab %s: listed %v, the old scope selects %v", u, tab, got, old)
				}
				if counts.Data[tab] != int64(len(old)) {
					t.Errorf("expert %d, tab %s: counted %d, the old scope selects %d", u, tab, counts.Data[tab], len(old))
				}
			}
		}
	})
}
