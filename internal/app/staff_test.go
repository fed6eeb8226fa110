package app_test

import (
	"slices"
	"testing"
)

// TestStaffCase: the technician the allocator names for a case sees that
// case (list, counts, detail, slides, messages, log, released report) and
// nothing else, may post to its thread, and can take no diagnosis action.
func TestStaffCase(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		staffID := e.userID("staff")
		alloc, staff, expert := e.login("allocator"), e.login("staff"), e.login("expert")
		a := e.submittedCase(f, "BL2026-07001", f.expert)
		b := e.submittedCase(f, "BL2026-07002", f.expert)
		bind := func(id string, staffID int64) resp {
			return e.do("POST", "/api/distribute/"+id+"/bindstaff", alloc, map[string]any{"staff_id": staffID})
		}
		listed := func(token string) []string {
			return names(e.list("/api/consultation/list", token, nil), "consult_no")
		}
		counts := func(token string) map[string]int {
			var c struct {
				Data map[string]int `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/count", token, nil), 200), &c)
			return c.Data
		}
		no := func(id string) string { return e.column(id, "consult_no") }

		t.Run("NothingBeforeBinding", func(t *testing.T) {
			if l := listed(staff); len(l) != 0 {
				t.Fatalf("staff lists %v", l)
			}
			e.expect(e.do("GET", "/api/consultation/resources/"+a, staff, nil), 404)
		})
		t.Run("AllocatorPicksFromCenterStaff", func(t *testing.T) {
			var st struct {
				Data []struct {
					ID   int64  `json:"id"`
					Name string `json:"name"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/distribute/"+a+"/staff", alloc, nil), 200), &st)
			if !slices.ContainsFunc(st.Data, func(p struct {
				ID   int64  `json:"id"`
				Name string `json:"name"`
			}) bool {
				return p.ID == staffID
			}) {
				t.Fatalf("staff offered: %+v", st.Data)
			}
			e.expect(e.do("GET", "/api/distribute/"+a+"/staff", staff, nil), 403)
			e.expect(e.do("GET", "/api/distribute/"+a+"/staff", expert, nil), 403)
		})
		t.Run("ErrBadStaff", func(t *testing.T) {
			for _, lang := range []string{"zh-CN", "en-US"} {
				r := e.expect(e.do("POST", "/api/distribute/"+a+"/bindstaff", alloc, map[string]any{"staff_id": f.expert}, "user-language", lang), 422)
				localized(t, lang, message(r), "bind an expert as staff")
				r = e.expect(e.do("POST", "/api/distribute/"+a+"/bindstaff", alloc, map[string]any{"staff_id": 0}, "user-language", lang), 422)
				localized(t, lang, message(r), "unbind with none bound")
			}
			e.expect(e.do("POST", "/api/distribute/"+a+"/bindstaff", staff, map[string]any{"staff_id": staffID}), 403)
			if n := e.count("consultations", "staff_id IS NOT NULL"); n != 0 {
				t.Fatalf("%d cases have staff", n)
			}
			if n := e.count("case_logs", "action IN ('bind_staff', 'unbind_staff')"); n != 0 {
				t.Fatalf("%d staff log lines", n)
			}
		})
		t.Run("BindShowsOneCase", func(t *testing.T) {
			e.expect(bind(a, staffID), 200)
			var d struct {
				Data struct {
					StaffID   int64    `json:"staff_id"`
					StaffName string   `json:"staff_name"`
					Actions   []string `json:"actions"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+a, alloc, nil), 200), &d)
			if d.Data.StaffID != staffID || d.Data.StaffName != "孙丽（技术员）" || !slices.Contains(d.Data.Actions, "bind_staff") {
				t.Fatalf("allocator's detail: %+v", d.Data)
			}
			if l := listed(staff); !slices.Equal(l, []string{no(a)}) {
				t.Fatalf("staff lists %v, want %s", l, no(a))
			}
			c := counts(staff)
			if c["all"] != 1 || c["submitted"] != 1 || c["pending"] != 1 || c["completed"] != 0 || c["to_allot"] != 0 {
				t.Fatalf("staff counts %v", c)
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+a, staff, nil), 200), &d)
			if len(d.Data.Actions) != 0 {
				t.Fatalf("staff actions %v", d.Data.Actions)
			}
			var menu struct {
				Data []struct {
					Children []struct {
						URI   string `json:"uri"`
						Count string `json:"count"`
					} `json:"children"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/menu", staff, nil), 200), &menu)
			found := 0
			for _, g := range menu.Data {
				for _, c := range g.Children {
					if c.URI == "/diagnosis/manage" && c.Count == "submitted" {
						found++
					}
				}
			}
			if found != 1 {
				t.Fatalf("staff menu: %+v", menu.Data)
			}
		})
		t.Run("ErrOthersCases", func(t *testing.T) {
			for _, p := range []string{"/api/consultation/resources/" + b, "/api/consultation/resources/" + b + "/slides",
				"/api/consultation/resources/" + b + "/annexs", "/api/consultation/resources/" + b + "/message",
				"/api/consultation/resources/" + b + "/log", "/api/diagnosis/" + b, "/api/diagnosis/" + b + "/shots",
				"/api/diagnosis/" + b + "/advice", "/api/diagnosis/report/preview/" + b} {
				e.expect(e.do("GET", p, staff, nil), 404)
			}
			e.expect(e.do("POST", "/api/consultation/resources/"+b+"/message", staff, map[string]any{"content": "切片已重扫"}), 404)
			if n := e.count("consult_messages", "consult_id = ?", b); n != 0 {
				t.Fatalf("%d messages on b", n)
			}
		})
		t.Run("ReadsAndPosts", func(t *testing.T) {
			var sl struct {
				Data []struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+a+"/slides", staff, nil), 200), &sl)
			if len(sl.Data) != 1 {
				t.Fatalf("slides %+v", sl.Data)
			}
			e.expect(e.do("GET", "/api/diagnosis/"+a+"/view/"+itoa(sl.Data[0].ID), staff, nil), 200)
			e.expect(e.do("GET", "/api/consultation/resources/"+a+"/log", staff, nil), 200)
			e.expect(e.do("POST", "/api/consultation/resources/"+a+"/message", staff, map[string]any{"content": "HE 切片已重新扫描"}), 200)
			var msgs struct {
				Data []struct {
					Content  string `json:"content"`
					UserName string `json:"user_name"`
					Mine     bool   `json:"mine"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+a+"/message", expert, nil), 200), &msgs)
			if len(msgs.Data) != 1 || msgs.Data[0].Content != "HE 切片已重新扫描" || msgs.Data[0].UserName != "孙丽（技术员）" || msgs.Data[0].Mine {
				t.Fatalf("expert reads %+v", msgs.Data)
			}
		})
		t.Run("ErrDiagnosisWrites", func(t *testing.T) {
			e.expect(e.do("POST", "/api/diagnosis/"+a+"/lock", expert, nil), 200)
			e.expect(e.do("POST", "/api/diagnosis/"+a+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
			before := e.snapshot(a)
			writes := []struct{ method, path string }{
				{"POST", "lock"}, {"POST", "unlock"}, {"POST", "save"}, {"POST", "publish"}, {"POST", "toreview"},
				{"POST", "review_approve"}, {"POST", "reviewreturn"}, {"POST", "reviewrecall"}, {"POST", "return"},
				{"POST", "delay"}, {"POST", "invited"}, {"POST", "recall"}, {"POST", "append_diagnosis"},
				{"POST", "append_diagnosis/publish"}, {"POST", "handover"}, {"POST", "referral"}, {"POST", "advice"},
				{"DELETE", "advice"},
			}
			for i, w := range writes {
				lang := []string{"zh-CN", "en-US"}[i%2]
				r := e.do(w.method, "/api/diagnosis/"+a+"/"+w.path, staff, map[string]any{}, "user-language", lang)
				if r.Status != 403 {
					t.Errorf("%s %s: %d %s", w.method, w.path, r.Status, r.Body)
					continue
				}
				localized(t, lang, message(r), w.path)
			}
			e.expect(e.do("POST", "/api/consultation/collection", staff, map[string]any{"consult_id": n64(a)}), 403)
			if after := e.snapshot(a); after != before {
				t.Fatalf("staff changed the case:\n%s\n%s", before, after)
			}
		})
		t.Run("DraftHiddenUntilReleased", func(t *testing.T) {
			var h struct {
				Data []struct {
					Opinion string `json:"opinion"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/diagnosis/"+a, staff, nil), 200), &h)
			if len(h.Data) != 0 {
				t.Fatalf("staff reads the draft: %+v", h.Data)
			}
			e.expect(e.do("POST", "/api/diagnosis/"+a+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
			e.decode(e.expect(e.do("GET", "/api/diagnosis/"+a, staff, nil), 200), &h)
			if len(h.Data) != 1 || h.Data[0].Opinion != "（胃窦）慢性浅表性胃炎。" {
				t.Fatalf("staff reads %+v", h.Data)
			}
			if c := counts(staff); c["completed"] != 1 || c["submitted"] != 0 {
				t.Fatalf("staff counts after publishing %v", c)
			}
			r := e.expect(bind(a, staffID), 409)
			localized(t, "zh-CN", message(r), "bind a published case")
		})
		t.Run("UnbindAndRebindMoveTheCase", func(t *testing.T) {
			staff2ID := e.cloneUser("staff", "staff2", "周敏（技术员）")
			staff2 := e.login("staff2")
			e.expect(bind(b, staffID), 200)
			if l := listed(staff); !slices.Contains(l, no(b)) {
				t.Fatalf("staff lists %v", l)
			}
			e.expect(bind(b, staff2ID), 200)
			if l := listed(staff); slices.Contains(l, no(b)) {
				t.Fatalf("staff still lists %v", l)
			}
			e.expect(e.do("GET", "/api/consultation/resources/"+b+"/message", staff, nil), 404)
			if l := listed(staff2); !slices.Equal(l, []string{no(b)}) {
				t.Fatalf("staff2 lists %v", l)
			}
			e.expect(bind(b, 0), 200)
			if l := listed(staff2); len(l) != 0 {
				t.Fatalf("staff2 lists %v after unbinding", l)
			}
			e.expect(e.do("GET", "/api/consultation/resources/"+b, staff2, nil), 404)
			if c := counts(staff2); c["all"] != 0 {
				t.Fatalf("staff2 counts %v", c)
			}
			var logs struct {
				Data []struct {
					Action string `json:"action"`
					Detail string `json:"detail"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+b+"/log", alloc, nil), 200), &logs)
			var got []string
			for _, l := range logs.Data {
				if l.Action == "bind_staff" || l.Action == "unbind_staff" {
					got = append(got, l.Action+":"+l.Detail)
				}
			}
			if want := []string{"bind_staff:孙丽（技术员）", "bind_staff:周敏（技术员）", "unbind_staff:"}; !slices.Equal(got, want) {
				t.Fatalf("log %v, want %v", got, want)
			}
		})
	})
}
