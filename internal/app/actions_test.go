package app_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// userID returns a demo user's id.
func (e *env) userID(username string) int64 {
	e.t.Helper()
	var id int64
	if err := e.app.DB.Get(&id, e.app.DB.Rebind("SELECT id FROM users WHERE username = ?"), username); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func TestFavourites(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00301", f.expert)
		cid, _ := strconv.ParseInt(id, 10, 64)
		expert, expert2 := e.login("expert"), e.login("expert2")
		collected := func(token string) []string {
			return names(e.list("/api/consultation/list", token, url.Values{"params": {`{"tab":"collected"}`}}), "consult_no")
		}
		t.Run("ErrNoCase", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/collection", expert, map[string]any{}), 422)
			e.expect(e.do("POST", "/api/consultation/collection", expert2, map[string]any{"consult_id": cid}), 404)
			e.expect(e.do("POST", "/api/consultation/collection", e.login("site"), map[string]any{"consult_id": cid}), 403)
			if n := e.count("case_collections", ""); n != 0 {
				t.Fatalf("%d favourites written", n)
			}
		})
		t.Run("OK", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/collection", expert, map[string]any{"consult_id": cid}), 200)
			e.expect(e.do("POST", "/api/consultation/collection", expert, map[string]any{"consult_id": cid}), 200)
			if l := collected(expert); len(l) != 1 {
				t.Fatalf("collected: %v", l)
			}
			if l := collected(expert2); len(l) != 0 {
				t.Fatalf("expert2 sees %v", l)
			}
			var c struct {
				Data struct {
					IsCollected bool `json:"is_collected"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 200), &c)
			if !c.Data.IsCollected {
				t.Fatal("detail: not collected")
			}
			l := e.list("/api/consultation/list", expert, url.Values{"params": {`{"tab":"pending"}`}})
			if len(l.Data) != 1 || l.Data[0]["is_collected"] != true {
				t.Fatalf("list row: %v", l.Data)
			}
		})
		t.Run("Remove", func(t *testing.T) {
			e.expect(e.do("DELETE", "/api/consultation/collection/"+id, expert, nil), 200)
			e.expect(e.do("DELETE", "/api/consultation/collection/"+id, expert, nil), 404)
			if l := collected(expert); len(l) != 0 {
				t.Fatalf("after removal: %v", l)
			}
		})
	})
}

func TestExpertReferral(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00311", f.expert)
		expert, expert2 := e.login("expert"), e.login("expert2")
		d := "/api/diagnosis/" + id + "/referral"
		t.Run("BadInput", func(t *testing.T) {
			e.expect(e.do("POST", d, expert, map[string]any{"expert_id": f.expert2}), 422)
			r := e.expect(e.do("POST", d, expert, map[string]any{"expert_id": f.expert, "reason": "x"}), 422)
			if !strings.Contains(r.String(), "转诊专家不能与原专家相同") {
				t.Fatalf("same expert: %s", r)
			}
			r = e.expect(e.do("POST", d, expert, map[string]any{"expert_id": e.userID("site"), "reason": "x"}, "user-language", "en-US"), 422)
			if !strings.Contains(r.String(), "does not belong") {
				t.Fatalf("not an expert: %s", r)
			}
			e.expect(e.do("POST", d, expert2, map[string]any{"expert_id": f.expert2, "reason": "x"}), 404)
			e.expect(e.do("POST", d, e.login("allocator"), map[string]any{"expert_id": f.expert2, "reason": "x"}), 403)
			if n := e.count("case_logs", "consult_id = ? AND action = 'expert_referral'", id); n != 0 {
				t.Fatal("a refused referral was logged")
			}
		})
		t.Run("OK", func(t *testing.T) {
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/lock", expert, nil), 200)
			e.expect(e.do("POST", d, expert, map[string]any{"expert_id": f.expert2, "reason": "涉及软组织肿瘤，转亚专科"}), 200)
			if l := e.label(id, expert2); l != "pending_diagnosis" {
				t.Fatalf("after referral: %s", l)
			}
			e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 404)
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/lock", expert2, nil), 200)
			if n := e.count("case_logs", "consult_id = ? AND action = 'expert_referral' AND detail = ?", id, "涉及软组织肿瘤，转亚专科"); n != 1 {
				t.Fatalf("log lines: %d", n)
			}
		})
		t.Run("ErrState", func(t *testing.T) {
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/save", expert2, map[string]any{"opinion": "x"}), 200)
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/toreview", expert2, map[string]any{"reviewer_id": f.expert}), 200)
			e.expect(e.do("POST", d, expert2, map[string]any{"expert_id": f.expert, "reason": "x"}), 409)
		})
	})
}

func TestHandover(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00321", f.expert)
		expert, expert2 := e.login("expert"), e.login("expert2")
		h := "/api/diagnosis/" + id + "/handover"
		e.expect(e.do("POST", "/api/diagnosis/"+id+"/lock", expert, nil), 200)
		e.expect(e.do("POST", "/api/diagnosis/"+id+"/save", expert, map[string]any{"microscopic": "镜下见腺体增生。"}), 200)
		t.Run("BadInput", func(t *testing.T) {
			e.expect(e.do("POST", h, expert, map[string]any{"expert_id": f.expert}), 422)
			e.expect(e.do("POST", h, expert, map[string]any{"expert_id": e.userID("site")}), 422)
			e.expect(e.do("POST", h, expert2, map[string]any{"expert_id": f.expert}), 404)
			e.expect(e.do("POST", "/api/diagnosis/handover/recall/"+id, expert, nil), 409)
		})
		t.Run("HandOverAndRecall", func(t *testing.T) {
			e.expect(e.do("POST", h, expert, map[string]any{"expert_id": f.expert2, "note": "今晚值班交接"}), 200)
			e.expect(e.do("POST", h, expert, map[string]any{"expert_id": f.expert2}), 409)
			var c caseOut
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 200), &c)
			if !contains(c.Data.Actions, "handover_recall") {
				t.Fatalf("sender's actions: %v", c.Data.Actions)
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, expert2, nil), 200), &c)
			if contains(c.Data.Actions, "handover_recall") || !contains(c.Data.Actions, "lock") {
				t.Fatalf("receiver's actions: %v", c.Data.Actions)
			}
			e.expect(e.do("POST", "/api/diagnosis/handover/recall/"+id, expert2, nil), 409)
			e.expect(e.do("POST", "/api/diagnosis/handover/recall/"+id, expert, nil), 200)
			e.expect(e.do("GET", "/api/consultation/resources/"+id, expert2, nil), 404)
		})
		t.Run("Accepted", func(t *testing.T) {
			e.expect(e.do("POST", h, expert, map[string]any{"expert_id": f.expert2}), 200)
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/lock", expert2, nil), 200)
			e.expect(e.do("POST", "/api/diagnosis/handover/recall/"+id, expert, nil), 404)
			var hs struct {
				Data []struct {
					Status string `json:"status"`
					Note   string `json:"note"`
					ToName string `json:"to_name"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id+"/handover", expert2, nil), 200), &hs)
			if len(hs.Data) != 2 || hs.Data[0].Status != "recalled" || hs.Data[0].Note != "今晚值班交接" || hs.Data[1].Status != "accepted" {
				t.Fatalf("handovers: %+v", hs.Data)
			}
			var v struct {
				Data []struct {
					Microscopic string `json:"microscopic"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/diagnosis/"+id, expert2, nil), 200), &v)
			if len(v.Data) != 1 || v.Data[0].Microscopic != "镜下见腺体增生。" {
				t.Fatalf("the draft did not follow: %+v", v.Data)
			}
		})
	})
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
