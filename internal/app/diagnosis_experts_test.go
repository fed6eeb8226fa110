package app_test

import (
	"slices"
	"testing"
)

// The expert lists of spec 2 §7 (exp_list/other, review, invite) offer only
// the colleagues an action accepts, and invitations are not repeated while
// the earlier one is unanswered.
func TestExpertChoices(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-03001", f.expert)
		expert, expert2, site := e.login("expert"), e.login("expert2"), e.login("site")
		d := "/api/diagnosis/" + id
		third := e.cloneUser("expert2", "expert3", "王三 主治医师")
		choices := func(kind string) []int64 {
			t.Helper()
			var out struct {
				Data []struct {
					ID   int64  `json:"id"`
					Name string `json:"name"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", d+"/exp_list/"+kind, expert, nil), 200), &out)
			ids := []int64{}
			for _, p := range out.Data {
				if p.Name == "" {
					t.Fatalf("%s: nameless expert %d", kind, p.ID)
				}
				ids = append(ids, p.ID)
			}
			slices.Sort(ids)
			return ids
		}
		colleagues := []int64{f.expert2, third}
		slices.Sort(colleagues)
		for _, kind := range []string{"other", "review", "invite"} {
			if got := choices(kind); !slices.Equal(got, colleagues) {
				t.Fatalf("%s: %v, want %v", kind, got, colleagues)
			}
		}

		e.expect(e.do("POST", d+"/invited", expert, map[string]any{"invitee_ids": []int64{f.expert2}, "message": "请会诊"}), 200)
		if got := choices("invite"); !slices.Equal(got, []int64{third}) {
			t.Fatalf("invite after inviting expert2: %v", got)
		}
		invitations := e.count("invitations", "consult_id = ?", id)
		for _, lang := range []string{"zh-CN", "en-US"} {
			r := e.do("POST", d+"/invited", expert, map[string]any{"invitee_ids": []int64{f.expert2}}, "user-language", lang)
			if !fieldRefusedIn(e, r, lang, "invitee_ids") {
				t.Errorf("invite again (%s): %s", lang, r.Body)
			}
		}
		if n := e.count("invitations", "consult_id = ?", id); n != invitations {
			t.Fatalf("a refused invitation wrote a row: %d → %d", invitations, n)
		}
		var inv struct {
			Data []struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/diagnosis/invitations", expert2, nil), 200), &inv)
		e.expect(e.do("POST", d+"/invited/"+itoa(inv.Data[0].ID), expert2, map[string]any{"reply": "同意。"}), 200)
		if got := choices("invite"); !slices.Equal(got, colleagues) {
			t.Fatalf("invite after the answer: %v", got)
		}

		// Only the case's experts may ask; others do not learn the case exists.
		e.expect(e.do("GET", d+"/exp_list/review", e.login("expert3"), nil), 404)
		e.expect(e.do("GET", d+"/exp_list/review", site, nil), 403)
		e.expect(e.do("GET", d+"/exp_list/review", "", nil), 401)
		e.expect(e.do("GET", "/api/diagnosis/999999/exp_list/other", expert, nil), 404)
	})
}
