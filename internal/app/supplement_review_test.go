package app_test

import (
	"testing"
)

// The review of a supplementary report (spec 2 §5): the author sends it to a
// colleague, who finds it in their to-review work, rejects it with a reason
// or accepts it; only an accepted one is published, beside the original.
func TestSupplementReview(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-01401", f.expert)
		expert, expert2, site := e.login("expert"), e.login("expert2"), e.login("site")
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（乳腺）浸润性导管癌。"}), 200)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
		e.expect(e.do("POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：ER(+)，PR(+)。"}), 200)

		refused := func(method, path, token string, body any, status int) {
			t.Helper()
			before := e.snapshot(id)
			for _, lang := range []string{"zh-CN", "en-US"} {
				r := e.do(method, path, token, body, "user-language", lang)
				if r.Status != status {
					t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, status, r.Body)
				}
				if msg := message(r); msg == "" || rawKey.MatchString(msg) || (lang == "zh-CN") != han.MatchString(msg) {
					t.Fatalf("%s %s: message not localized: %q", method, path, msg)
				}
			}
			if e.snapshot(id) != before {
				t.Fatalf("refused %s %s changed the case", method, path)
			}
		}
		label := func() string {
			t.Helper()
			var c struct {
				Data struct {
					StatusLabel struct {
						Key string `json:"key"`
					} `json:"status_label"`
					SupplementReview bool `json:"supplement_review"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 200), &c)
			if c.Data.SupplementReview != (c.Data.StatusLabel.Key == "supplement_to_review") {
				t.Fatalf("supplement_review %v with label %s", c.Data.SupplementReview, c.Data.StatusLabel.Key)
			}
			return c.Data.StatusLabel.Key
		}
		dashboard := func(token string) map[string]int {
			var out struct {
				Data map[string]int `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/diagnosis/list/statistical_count", token, nil), 200), &out)
			return out.Data
		}
		toReviewTab := func(token string) int {
			return e.list("/api/consultation/list", token, map[string][]string{"params": {`{"tab":"to_review"}`}}).Meta.Pagination.Total
		}

		// Before it is sent the reviewer cannot see the case.
		e.expect(e.do("GET", "/api/consultation/resources/"+id, expert2, nil), 404)
		refused("POST", d+"/append_diagnosis/toreview", expert, map[string]any{"reviewer_id": f.expert}, 422)
		refused("POST", d+"/append_diagnosis/toreview", expert, map[string]any{"reviewer_id": 999999}, 422)
		refused("POST", d+"/append_diagnosis/toreview", expert2, map[string]any{"reviewer_id": f.expert2}, 404)
		e.expect(e.do("POST", d+"/append_diagnosis/toreview", expert, map[string]any{"reviewer_id": f.expert2}), 200)
		if l := label(); l != "supplement_to_review" {
			t.Fatalf("label %s", l)
		}

		// The reviewer finds it: the case, the to-review tab and the dashboard.
		e.expect(e.do("GET", "/api/consultation/resources/"+id, expert2, nil), 200)
		if n := toReviewTab(expert2); n != 1 {
			t.Fatalf("reviewer's to-review tab: %d", n)
		}
		if c := dashboard(expert2); c["to_review"] != 1 {
			t.Fatalf("reviewer's dashboard %v", c)
		}
		if c := dashboard(expert); c["in_review"] != 1 || c["to_review"] != 0 {
			t.Fatalf("author's dashboard %v", c)
		}
		// The site sees the original report only, and the review state.
		var h struct {
			Data []struct {
				Type   int    `json:"type"`
				Status string `json:"status"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, site, nil), 200), &h)
		if len(h.Data) != 1 || h.Data[0].Type != 0 {
			t.Fatalf("site sees %+v", h.Data)
		}

		// Under review: no edit, publish or discard; only the reviewer answers.
		var sid int64
		e.app.DB.Get(&sid, e.app.DB.Rebind("SELECT id FROM diagnoses WHERE consult_id = ? AND type = 1"), id)
		refused("POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：改。"}, 409)
		refused("POST", d+"/append_diagnosis/publish", expert, nil, 409)
		refused("DELETE", d+"/append_diagnosis/"+itoa(sid), expert, nil, 409)
		refused("POST", d+"/append_diagnosis/approve", expert, nil, 409)
		refused("POST", d+"/append_diagnosis/reviewreturn", expert2, map[string]any{"note": "  "}, 422)
		refused("POST", d+"/append_diagnosis/reviewrecall", expert2, nil, 409)
		refused("POST", d+"/review_approve", expert2, nil, 409)
		// A counter-audit would reopen the case under the reviewer's feet.
		refused("POST", "/api/admin/consultation/"+id+"/counter_audit", e.login("admin"), map[string]any{"reason": "复核"}, 409)
		e.expect(e.do("POST", d+"/append_diagnosis/reviewreturn", expert2, map[string]any{"note": "请补充 HER2 结果"}), 200)
		if l := label(); l != "published" {
			t.Fatalf("label after return %s", l)
		}
		if c := dashboard(expert2); c["to_review"] != 0 {
			t.Fatalf("reviewer's dashboard after return %v", c)
		}
		refused("POST", d+"/append_diagnosis/publish", expert, nil, 409)
		refused("POST", d+"/append_diagnosis/approve", expert2, nil, 409)

		// The author edits (the note stays until sent again), sends it again; the reviewer accepts.
		e.expect(e.do("POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：ER(+)，PR(+)，HER2(1+)。"}), 200)
		if s, note := e.diagStatus(id, 1), e.supplementColumn(id, "review_note"); s != "draft" || note != "请补充 HER2 结果" {
			t.Fatalf("after edit: %s %q", s, note)
		}
		refused("POST", d+"/append_diagnosis/publish", expert, nil, 409) // sent once: must pass review
		e.expect(e.do("POST", d+"/append_diagnosis/toreview", expert, map[string]any{"reviewer_id": f.expert2}), 200)
		if note := e.supplementColumn(id, "review_note"); note != "" {
			t.Fatalf("note kept after re-sending: %q", note)
		}
		e.expect(e.do("POST", d+"/append_diagnosis/approve", expert2, nil), 200)
		e.expect(e.do("POST", d+"/append_diagnosis/publish", expert, nil), 200)
		e.decode(e.expect(e.do("GET", d, site, nil), 200), &h)
		if len(h.Data) != 2 || h.Data[1].Type != 1 || h.Data[1].Status != "published" {
			t.Fatalf("site sees %+v", h.Data)
		}
		for _, a := range []string{"append_toreview", "append_reviewreturn", "append_approve", "append_diagnosis"} {
			if e.count("case_logs", "consult_id = ? AND action = ?", id, a) == 0 {
				t.Errorf("no case log %s", a)
			}
		}
	})
}
