package app_test

import (
	"net/url"
	"strings"
	"testing"
)

// clinicalRequest is what a clinician knows of their patient: the clinical
// history, the question and the specimens (spec 1 §2 Other roles).
func clinicalRequest(name string) map[string]any {
	return map[string]any{
		"name": name, "gender": "female", "age": "52",
		"medical_history":    "上腹部不适三月，胃镜见胃窦溃疡。",
		"clinical_diagnosis": "胃窦溃疡，待排恶性",
		"consult_purpose":    "请明确良恶性。",
		"specimens":          []any{map[string]any{"name": "胃窦活检", "blocks": []any{map[string]any{"name": "A1"}}}},
	}
}

// TestClinicalRequests: a clinician registers a request for their patient,
// sees only their own requests in their hospital, never charges nor sends,
// and cannot change a request once the site has sent it.
func TestClinicalRequests(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		e.cloneUser("clinical", "clinical_b", "钱医生（临床）")
		clin, clin2, site, site2, alloc := e.login("clinical"), e.login("clinical_b"), e.login("site"), e.login("site2"), e.login("allocator")
		var c caseOut

		// Bad input: nothing written, a localized message in both languages.
		before := e.count("consultations", "1=1")
		bad := clinicalRequest("王芳")
		bad["inspection_date"] = "2026-13-45"
		for lang, want := range map[string]string{"zh-CN": "日期", "en-US": "date"} {
			r := e.expect(e.do("POST", "/api/consultation/draft", clin, bad, "user-language", lang), 422)
			if !strings.Contains(strings.ToLower(r.String()), want) {
				t.Errorf("%s: %s", lang, r)
			}
		}
		if n := e.count("consultations", "1=1"); n != before {
			t.Fatalf("a refused request wrote a case: %d → %d", before, n)
		}

		e.decode(e.expect(e.do("POST", "/api/consultation/draft", clin, clinicalRequest("王芳")), 200), &c)
		id := itoa(c.Data.ID)
		for _, a := range c.Data.Actions {
			if a == "submit" || a == "charge" {
				t.Errorf("a clinician is offered %s", a)
			}
		}
		// The site's own case and another hospital's case stay out of sight.
		var other caseOut
		e.decode(e.expect(e.do("POST", "/api/consultation", site, registration(f, "BL2026-07001", e.slide(f.hospital, "site"))), 200), &other)
		var far caseOut
		e.decode(e.expect(e.do("POST", "/api/consultation/draft", site2, clinicalRequest("赵敏")), 200), &far)

		t.Run("SeesOnlyOwn", func(t *testing.T) {
			l := e.list("/api/consultation/list", clin, nil)
			if l.Meta.Pagination.Total != 1 || itoa(int64(l.Data[0]["id"].(float64))) != id {
				t.Fatalf("clinician lists %+v", l)
			}
			if l := e.list("/api/consultation/list", clin2, nil); l.Meta.Pagination.Total != 0 {
				t.Fatalf("another clinician lists %d", l.Meta.Pagination.Total)
			}
			e.expect(e.do("GET", "/api/consultation/resources/"+id, clin2, nil), 404)
			e.expect(e.do("GET", "/api/consultation/resources/"+itoa(other.Data.ID), clin, nil), 404)
			e.expect(e.do("GET", "/api/consultation/resources/"+itoa(far.Data.ID), clin, nil), 404)
			e.expect(e.do("POST", "/api/consultation/draft/"+id, clin2, clinicalRequest("改名")), 404)
			var counts struct {
				Data map[string]int `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/count", clin, nil), 200), &counts)
			if counts.Data["all"] != 1 {
				t.Fatalf("clinician counts %v", counts.Data)
			}
		})
		t.Run("NeverChargesNorSends", func(t *testing.T) {
			snap := e.snapshot(id)
			e.expect(e.do("POST", "/api/consultation/charge/"+id, clin, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 403)
			e.expect(e.do("POST", "/api/consultation/submit/"+id, clin, nil), 403)
			e.expect(e.do("GET", "/api/charge/list", clin, nil), 403)
			if e.snapshot(id) != snap {
				t.Fatal("a refused action changed the case")
			}
		})
		t.Run("SiteCompletesAndSends", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/draft/"+id, clin, clinicalRequest("王芳")), 200)
			e.expect(e.do("POST", "/api/consultation/"+id, site, registration(f, "BL2026-07002", e.slide(f.hospital, "site"))), 200)
			e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
			e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
			if lb := e.label(id, clin); lb != "to_allot" {
				t.Fatalf("clinician sees %s", lb)
			}
		})
		t.Run("ReadOnlyOnceSent", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/"+id, clin, registration(f, "BL2026-07002")), 409)
			e.expect(e.do("POST", "/api/consultation/recall/"+id, clin, map[string]any{"reason": "资料有误"}), 403)
			e.expect(e.do("POST", "/api/distribute/"+id+"/return", alloc, map[string]any{"reason": "切片不清晰"}), 200)
			snap := e.snapshot(id)
			for lang, want := range map[string]string{"zh-CN": "临床医生", "en-US": "clinician"} {
				r := e.expect(e.do("POST", "/api/consultation/draft/"+id, clin, clinicalRequest("改名"), "user-language", lang), 409)
				if !strings.Contains(r.String(), want) {
					t.Errorf("%s: %s", lang, r)
				}
			}
			if e.snapshot(id) != snap {
				t.Fatal("a refused change was written")
			}
			// The thread stays open to them.
			e.expect(e.do("POST", "/api/consultation/resources/"+id+"/message", clin, map[string]any{"content": "已补充病史"}), 200)
		})
	})
}

// TestUploaderScope: an uploader registers with slides and attaches uploaded
// slides to their hospital's cases, never another hospital's.
func TestUploaderScope(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		up, site, site2 := e.login("uploader"), e.login("site"), e.login("site2")
		var hh int64
		if err := e.app.DB.Get(&hh, e.app.DB.Rebind("SELECT hospital_id FROM user_hospitals WHERE user_id = ?"), e.userID("site2")); err != nil {
			t.Fatal(err)
		}
		var mine, far caseOut
		e.decode(e.expect(e.do("POST", "/api/consultation", up, registration(f, "BL2026-07101", e.slide(f.hospital, "uploader"))), 200), &mine)
		if mine.Data.SlideCount != 1 {
			t.Fatalf("registered with %d slides", mine.Data.SlideCount)
		}
		e.decode(e.expect(e.do("POST", "/api/consultation/draft", site2, clinicalRequest("赵敏")), 200), &far)
		farID := itoa(far.Data.ID)

		// Attach a newly uploaded slide to a case the site registered.
		var sc caseOut
		e.decode(e.expect(e.do("POST", "/api/consultation/draft", site, clinicalRequest("孙悦")), 200), &sc)
		body := clinicalRequest("孙悦")
		body["slide_ids"] = []int64{e.slide(f.hospital, "uploader")}
		e.decode(e.expect(e.do("POST", "/api/consultation/draft/"+itoa(sc.Data.ID), up, body), 200), &sc)
		if sc.Data.SlideCount != 1 {
			t.Fatalf("attached: %d slides", sc.Data.SlideCount)
		}

		snap := e.snapshot(farID)
		body = clinicalRequest("赵敏")
		body["slide_ids"] = []int64{e.slide(f.hospital, "uploader")}
		e.expect(e.do("POST", "/api/consultation/draft/"+farID, up, body), 404)
		e.expect(e.do("GET", "/api/consultation/resources/"+farID, up, nil), 404)
		if e.snapshot(farID) != snap {
			t.Fatal("an uploader changed another hospital's case")
		}
		// Another hospital's slide is not theirs to attach.
		body = clinicalRequest("孙悦")
		body["slide_ids"] = []int64{e.slide(hh, "site2")}
		if r := e.do("POST", "/api/consultation/draft/"+itoa(sc.Data.ID), up, body); r.Status < 400 || r.Status >= 500 {
			t.Fatalf("another hospital's slide: %d %s", r.Status, r)
		}
		if l := e.list("/api/consultation/list", up, url.Values{}); l.Meta.Pagination.Total != 2 {
			t.Fatalf("uploader lists %d", l.Meta.Pagination.Total)
		}
	})
}

// TestAdminManage: /admin/manage lists the administrators and center
// administrators with what each may manage, on the list engine, for the
// administrator only.
func TestAdminManage(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		var out struct {
			Data []struct {
				Username   string   `json:"username"`
				Roles      []string `json:"roles"`
				ManagesAll bool     `json:"manages_all"`
				Centers    []struct {
					Name string `json:"name"`
				} `json:"centers"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/admin/manage?page_size=100", admin, nil), 200), &out)
		seen := map[string]bool{}
		for _, u := range out.Data {
			seen[u.Username] = true
			switch u.Username {
			case "admin":
				if !u.ManagesAll {
					t.Errorf("admin: %+v", u)
				}
			case "center_admin":
				if u.ManagesAll || len(u.Centers) != 1 || u.Centers[0].Name == "" {
					t.Errorf("center_admin: %+v", u)
				}
			}
			for _, no := range []string{"site", "expert", "clinical"} {
				if u.Username == no {
					t.Errorf("lists %s", no)
				}
			}
		}
		if !seen["admin"] || !seen["center_admin"] {
			t.Fatalf("listed %v", seen)
		}
		l := e.list("/api/admin/manage", admin, url.Values{"params": {`{"tab":"center_admin"}`}})
		for _, r := range l.Data {
			if r["manages_all"] == true {
				t.Errorf("center_admin tab lists %v", r["username"])
			}
		}
		var counts struct {
			Data map[string]int `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/admin/manage/count", admin, nil), 200), &counts)
		if counts.Data["all"] < 2 || counts.Data["admin"] < 1 || counts.Data["center_admin"] < 1 || counts.Data["all"] > counts.Data["admin"]+counts.Data["center_admin"] {
			t.Fatalf("counts %v", counts.Data)
		}
		e.expect(e.do("GET", "/api/admin/manage", e.login("center_admin"), nil), 403)
		for lang, want := range map[string]string{"zh-CN": "值不正确", "en-US": "tab"} {
			r := e.expect(e.do("GET", "/api/admin/manage?params="+url.QueryEscape(`{"tab":"nobody"}`), admin, nil, "user-language", lang), 400)
			if !strings.Contains(r.String(), want) {
				t.Errorf("%s: %s", lang, r)
			}
		}
	})
}
