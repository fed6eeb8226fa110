package app_test

import (
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"telepath/internal/platform/httpx"
)

// TestOtherHospitalCannotReachCases: site2 (another hospital of the same
// center) can neither read, change nor even count site's cases, by id or
// through any list.
func TestOtherHospitalCannotReachCases(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		site, site2 := e.login("site"), e.login("site2")
		m := &matrix{e: e, f: f, tokens: map[string]string{"site": site, "allocator": e.login("allocator"),
			"expert": e.login("expert"), "admin": e.login("admin")}}
		ids := []string{m.build("to_be_submitted"), m.build("pending_diagnosis"), m.build("returned_to_site")}
		var msg struct {
			Data struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("POST", "/api/consultation/resources/"+ids[1]+"/message", site, map[string]any{"content": "请尽快诊断"}), 200), &msg)
		var number string
		e.app.DB.Get(&number, e.app.DB.Rebind("SELECT pathology_number FROM consultations WHERE id = ?"), ids[0])
		before := map[string]snapshot{}
		for _, id := range ids {
			before[id] = m.snapshot(id)
		}

		t.Run("ListsAndCountsAreEmpty", func(t *testing.T) {
			for _, q := range []url.Values{
				nil,
				{"search": {number}},
				{"params": {`{"pathology_number":"` + number + `"}`}},
				{"params": {`{"id":` + ids[0] + `}`}},
				{"params": {`{"tab":"unsubmitted"}`}},
				{"params": {`{"tab":"returned_site"}`}},
			} {
				if l := e.list("/api/consultation/list", site2, q); l.Meta.Pagination.Total != 0 || len(l.Data) != 0 {
					t.Errorf("site2 lists %d cases with %v", l.Meta.Pagination.Total, q)
				}
			}
			var counts struct {
				Data map[string]int `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/count?search="+url.QueryEscape(number), site2, nil), 200), &counts)
			for tab, n := range counts.Data {
				if n != 0 {
					t.Errorf("site2 counts %d in %s", n, tab)
				}
			}
			if l := e.list("/api/charge/list", site2, nil); l.Meta.Pagination.Total != 0 {
				t.Errorf("site2 sees %d charges", l.Meta.Pagination.Total)
			}
			// The same lists do show them to site.
			if l := e.list("/api/consultation/list", site, url.Values{"search": {number}}); l.Meta.Pagination.Total != 1 {
				t.Errorf("site finds %d cases by number", l.Meta.Pagination.Total)
			}
		})
		t.Run("ErrReadByID", func(t *testing.T) {
			for _, id := range ids {
				for _, p := range []string{"", "/slides", "/annexs", "/message", "/return/reason", "/log", "/exp_list/hos"} {
					r := e.do("GET", "/api/consultation/resources/"+id+p, site2, nil, "user-language", "en-US")
					if r.Status != 404 {
						t.Errorf("GET %s%s: %d %s", id, p, r.Status, r)
					}
					localized(t, "en-US", message(r), "GET "+p)
				}
			}
		})
		t.Run("ErrChangeByID", func(t *testing.T) {
			for _, id := range ids {
				for _, c := range []struct {
					method, path string
					body         any
				}{
					{"POST", "/api/consultation/" + id, registration(f, "BL2026-09999")},
					{"POST", "/api/consultation/caseinfo/" + id, registration(f, "BL2026-09999")},
					{"POST", "/api/consultation/draft/" + id, map[string]any{"name": "x"}},
					{"DELETE", "/api/consultation/" + id, nil},
					{"DELETE", "/api/consultation/draft/" + id, nil},
					{"POST", "/api/consultation/submit/" + id, nil},
					{"POST", "/api/consultation/consult_again/" + id, nil},
					{"POST", "/api/consultation/recall/" + id, map[string]any{"reason": "x"}},
					{"POST", "/api/consultation/charge/" + id, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}},
					{"POST", "/api/consultation/resources/" + id + "/message", map[string]any{"content": "x"}},
				} {
					r := e.do(c.method, c.path, site2, c.body, "user-language", "zh-CN")
					if r.Status != 404 {
						t.Errorf("%s %s: %d %s", c.method, c.path, r.Status, r)
					}
					localized(t, "zh-CN", message(r), c.path)
				}
				for _, path := range []string{"/api/consultation/batch_submit", "/api/consultation/batch_recall"} {
					var out struct {
						Data []struct {
							OK bool `json:"ok"`
						} `json:"data"`
					}
					body := map[string]any{"ids": []int64{n64(id)}}
					if strings.HasSuffix(path, "recall") {
						body["reason"] = "x"
					}
					r := e.do("POST", path, site2, body)
					e.decode(r, &out)
					if r.Status != 200 || len(out.Data) != 1 || out.Data[0].OK {
						t.Errorf("%s as site2: %+v", path, out.Data)
					}
				}
			}
			if r := e.do("DELETE", "/api/consultation/resources/0/message/"+itoa(msg.Data.ID), site2, nil); r.Status != 404 {
				t.Errorf("delete site's message: %d %s", r.Status, r)
			}
		})
		for _, id := range ids {
			if after := m.snapshot(id); fmt.Sprint(after) != fmt.Sprint(before[id]) {
				t.Errorf("case %s changed:\n%v\n%v", id, before[id], after)
			}
		}
	})
}

// tables a refused registration must leave alone.
var caseTables = []string{"consultations", "specimens", "attachments", "files", "case_logs", "charges", "slides WHERE consult_id IS NOT NULL"}

func (e *env) tableCounts() string {
	var b strings.Builder
	for _, t := range caseTables {
		table, where, _ := strings.Cut(t, " WHERE ")
		fmt.Fprintf(&b, "%s=%d ", t, e.count(table, where))
	}
	return b.String()
}

func TestCaseBadInputWritesNothing(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		site, site2 := e.login("site"), e.login("site2")
		m := &matrix{e: e, f: f, tokens: map[string]string{"site": site, "allocator": e.login("allocator"), "admin": e.login("admin")}}
		upload := func(tok, name string) int64 {
			var out struct {
				Data struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.upload(tok, name, []byte("\xff\xd8\xff image")), 200), &out)
			return out.Data.ID
		}
		body1, body2, own := upload(site, "大体1.jpg"), upload(site, "大体2.jpg"), upload(site, "申请单.jpg")
		foreignFile := upload(site2, "他院.jpg")
		var westCenter, h2 int64
		e.app.DB.Get(&westCenter, "SELECT id FROM centers WHERE code = 'WC'")
		e.app.DB.Get(&h2, "SELECT id FROM hospitals WHERE code = 'H002'")
		foreignSlide := e.slide(h2, "site2")
		var foreignCase caseOut
		e.decode(e.expect(e.do("POST", "/api/consultation/draft", site2, map[string]any{"name": "他院患者"}), 200), &foreignCase)
		uncharged := func() string {
			var c caseOut
			e.decode(e.expect(e.do("POST", "/api/consultation", site, registration(f, m.number(), e.slide(f.hospital, "site"))), 200), &c)
			return itoa(c.Data.ID)
		}
		noSlide := m.build("to_be_submitted")
		e.app.DB.MustExec(e.app.DB.Rebind("UPDATE slides SET consult_id = NULL WHERE consult_id = ?"), noSlide)
		e.app.DB.MustExec(e.app.DB.Rebind("UPDATE consultations SET slide_count = 0 WHERE id = ?"), noSlide)
		unchargedID := uncharged()
		before := e.tableCounts()

		for _, c := range []struct {
			name, field string
			change      func(map[string]any)
		}{
			{"IDCheckDigit", "id_number", func(r map[string]any) { r["id_number"] = "110105194912310021" }},
			{"IDBirthdayMismatch", "birthday", func(r map[string]any) { r["birthday"] = "1950-01-01" }},
			{"BadPhone", "phone", func(r map[string]any) { r["phone"] = "1380013800" }},
			{"AgeNotNumeric", "age", func(r map[string]any) { r["age"] = "四十五" }},
			{"PathologyChars", "pathology_number", func(r map[string]any) { r["pathology_number"] = "BL2026-0001#" }},
			{"NoSpecimen", "specimens", func(r map[string]any) { r["specimens"] = []any{} }},
			{"SecondFullBodyImage", "attachments", func(r map[string]any) {
				r["attachments"] = []any{map[string]any{"file_id": body1, "type": 5}, map[string]any{"file_id": body2, "type": 5}}
			}},
			{"OtherHospitalsCenter", "center_id", func(r map[string]any) { r["center_id"] = westCenter }},
			{"OtherHospitalsSlide", "slide_ids", func(r map[string]any) { r["slide_ids"] = []int64{foreignSlide} }},
			{"OtherHospitalsFile", "attachments", func(r map[string]any) {
				r["attachments"] = []any{map[string]any{"file_id": own, "type": 2}, map[string]any{"file_id": foreignFile, "type": 3}}
			}},
		} {
			t.Run(c.name, func(t *testing.T) {
				for _, lang := range []string{"zh-CN", "en-US"} {
					reg := registration(f, m.number())
					c.change(reg)
					r := e.do("POST", "/api/consultation", site, reg, "user-language", lang)
					var out struct {
						Message string              `json:"message"`
						Errors  map[string][]string `json:"errors"`
					}
					e.decode(r, &out)
					if r.Status != 422 || len(out.Errors[c.field]) == 0 {
						t.Fatalf("%s: %d %s", lang, r.Status, r)
					}
					localized(t, lang, out.Message, c.name)
					localized(t, lang, out.Errors[c.field][0], c.name)
				}
			})
		}
		t.Run("ErrOtherHospitalsCase", func(t *testing.T) {
			r := e.do("POST", "/api/consultation/"+itoa(foreignCase.Data.ID), site, registration(f, m.number()), "user-language", "en-US")
			if r.Status != 404 {
				t.Fatalf("%d %s", r.Status, r)
			}
			localized(t, "en-US", message(r), "other hospital's case")
		})
		t.Run("ErrSubmitWithoutCharge", func(t *testing.T) {
			snap := m.snapshot(unchargedID)
			r := e.expect(e.do("POST", "/api/consultation/submit/"+unchargedID, site, nil, "user-language", "en-US"), 422)
			if !strings.Contains(r.String(), `"charge"`) {
				t.Fatalf("%s", r)
			}
			localized(t, "en-US", message(r), "submit without charge")
			if fmt.Sprint(m.snapshot(unchargedID)) != fmt.Sprint(snap) {
				t.Fatal("changed")
			}
		})
		t.Run("ErrSubmitWithoutSlides", func(t *testing.T) {
			snap := m.snapshot(noSlide)
			r := e.expect(e.do("POST", "/api/consultation/submit/"+noSlide, site, nil), 422)
			if !strings.Contains(r.String(), `"slides"`) {
				t.Fatalf("%s", r)
			}
			localized(t, "zh-CN", message(r), "submit without slides")
			if fmt.Sprint(m.snapshot(noSlide)) != fmt.Sprint(snap) {
				t.Fatal("changed")
			}
		})
		t.Run("ErrAttachmentOver200MB", func(t *testing.T) {
			// The body is streamed from a pipe: 201 MB is never held in memory.
			pr, pw := io.Pipe()
			w := multipart.NewWriter(pw)
			go func() {
				fw, _ := w.CreateFormFile("file", "big.pdf")
				zero := make([]byte, 1<<20)
				var err error
				for i := 0; i < 201 && err == nil; i++ {
					_, err = fw.Write(zero)
				}
				if err == nil {
					err = w.Close()
				}
				pw.CloseWithError(err)
			}()
			req, _ := http.NewRequest("POST", e.srv.URL+"/api/common/upload", pr)
			req.Header.Set("Content-Type", w.FormDataContentType())
			req.Header.Set("Authorization", "Bearer "+site)
			req.Header.Set("user-language", "en-US")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("upload: %v", err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			pr.CloseWithError(io.ErrClosedPipe)
			if res.StatusCode != 413 {
				t.Fatalf("201 MB upload: %d %s", res.StatusCode, b)
			}
			localized(t, "en-US", message(resp{Body: b}), "201 MB")
			var stored int
			filepath.WalkDir(filepath.Join(e.app.Config.DataDir, "files"), func(_ string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					stored++
				}
				return nil
			})
			if stored != 4 {
				t.Fatalf("%d files on disk, want the 4 small uploads", stored)
			}
		})
		if after := e.tableCounts(); after != before {
			t.Fatalf("bad input wrote rows:\n%s\n%s", before, after)
		}
	})
}

// centerRoles are the center-side callers: none of them may reach a case the
// hospital has not (or no longer) submitted.
var centerRoles = []string{"allocator", "center_admin", "publisher", "qc_expert", "expert", "staff"}

// caseReads are the GET routes that read one case or a part of it, with
// {id} for the case id.
var caseReads = []string{
	"/api/consultation/resources/{id}", "/api/consultation/resources/{id}/slides", "/api/consultation/resources/{id}/annexs",
	"/api/consultation/resources/{id}/message", "/api/consultation/resources/{id}/return/reason", "/api/consultation/resources/{id}/log",
	"/api/consultation/resources/{id}/exp_list/hos", "/api/consultation/resources/{id}/handover",
	"/api/admin/consultation/{id}/recall/reason", "/api/distribute/{id}/staff",
	"/api/diagnosis/{id}", "/api/diagnosis/{id}/invited", "/api/diagnosis/{id}/not_view_count", "/api/diagnosis/{id}/shots",
	"/api/diagnosis/{id}/same_case", "/api/diagnosis/report/preview/{id}",
}

// TestCenterCannotReachDrafts: a case the hospital has not submitted (a
// draft, one ready to submit, one whose recall was agreed) is the
// hospital's alone. Every center-side role gets 404 on it and on each of its
// parts (slides, attachments), and no list or count shows it. A case the
// center returned to the hospital stays readable to the center (its
// "returned cases" screen), and the system administrator sees every case.
func TestCenterCannotReachDrafts(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		m := &matrix{e: e, f: f, tokens: map[string]string{"site": e.login("site"), "allocator": e.login("allocator"),
			"expert": e.login("expert"), "admin": e.login("admin")}}
		tokens := map[string]string{}
		for _, r := range centerRoles {
			tokens[r] = e.login(r)
		}
		var staff int64
		e.app.DB.Get(&staff, "SELECT id FROM users WHERE username = 'staff'")
		// The recalled case had its staff member named, the expert assigned
		// and a colleague invited while it was with the center.
		recalled := m.build("pending_diagnosis")
		e.app.DB.MustExec(e.app.DB.Rebind("UPDATE consultations SET staff_id = ? WHERE id = ?"), staff, recalled)
		e.expect(e.do("POST", "/api/diagnosis/"+recalled+"/invited", m.tokens["expert"], map[string]any{"invitee_ids": []int64{f.expert2}, "message": "请会诊"}), 200)
		e.expect(e.do("POST", "/api/consultation/recall/"+recalled, m.tokens["site"], map[string]any{"reason": "资料有误"}), 200)
		e.expect(e.do("POST", "/api/admin/consultation/"+recalled+"/recall/agree", m.tokens["admin"], nil), 200)
		tokens["expert2"] = e.login("expert2")
		hidden := map[string]string{"draft": m.build("draft"), "to_be_submitted": m.build("to_be_submitted"), "recalled": recalled}
		returned := m.build("returned_to_site")
		var file struct {
			Data struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.upload(m.tokens["site"], "申请单.pdf", []byte("%PDF-1.4 form")), 200), &file)
		withFile := registration(f, m.number(), e.slide(f.hospital, "site"))
		withFile["attachments"] = []any{map[string]any{"file_id": file.Data.ID, "type": 2}}
		var c caseOut
		e.decode(e.expect(e.do("POST", "/api/consultation", m.tokens["site"], withFile), 200), &c)
		hidden["with_attachment"] = itoa(c.Data.ID)
		var slide int64
		e.app.DB.Get(&slide, e.app.DB.Rebind("SELECT MIN(id) FROM slides WHERE consult_id = ?"), c.Data.ID)

		ops := e.app.API.OpenAPI().Paths
		declared := func(path, role string) bool {
			roles := httpx.RolesOf(ops[path].Get)
			return slices.Contains(roles, "*") || slices.Contains(roles, role)
		}
		t.Run("ErrReadByID", func(t *testing.T) {
			for st, id := range hidden {
				for _, role := range centerRoles {
					for _, p := range caseReads {
						r := e.do("GET", strings.ReplaceAll(p, "{id}", id), tokens[role], nil, "user-language", "en-US")
						want := 404
						if !declared(p, role) {
							want = 403
						}
						if r.Status != want {
							t.Errorf("%s GET %s as %s: %d, want %d", st, p, role, r.Status, want)
						}
					}
				}
			}
			for _, role := range centerRoles {
				for _, p := range []string{"/api/files/" + itoa(file.Data.ID), "/api/slides/" + itoa(slide), "/api/slides/" + itoa(slide) + "/viewer",
					"/api/slides/" + itoa(slide) + "/annotations"} {
					if r := e.do("GET", p, tokens[role], nil, "user-language", "zh-CN"); r.Status != 404 {
						t.Errorf("GET %s as %s: %d %s", p, role, r.Status, r)
					} else {
						localized(t, "zh-CN", message(r), p)
					}
				}
			}
		})
		t.Run("ListsAndCountsOmitThem", func(t *testing.T) {
			for _, role := range centerRoles {
				for _, tab := range []string{"", "unsubmitted", "draft", "to_submit", "recalled", "recall"} {
					q := url.Values{"page_size": {"100"}}
					if tab != "" {
						q.Set("params", `{"tab":"`+tab+`"}`)
					}
					for _, row := range e.list("/api/consultation/list", tokens[role], q).Data {
						if row["status"] == float64(0) && row["is_return"] != float64(-1) {
							t.Errorf("%s lists unsubmitted case %v in tab %q", role, row["id"], tab)
						}
					}
				}
				var counts struct {
					Data map[string]int `json:"data"`
				}
				e.decode(e.expect(e.do("GET", "/api/consultation/count", tokens[role], nil), 200), &counts)
				for _, tab := range []string{"draft", "to_submit", "unsubmitted", "recalled"} {
					if counts.Data[tab] != 0 {
						t.Errorf("%s counts %d in %s", role, counts.Data[tab], tab)
					}
				}
				for _, row := range e.list("/api/charge/list", tokens[role], url.Values{"page_size": {"100"}}).Data {
					for _, id := range hidden {
						if fmt.Sprint(row["consult_id"]) == id {
							t.Errorf("%s sees the charge of unsubmitted case %s", role, id)
						}
					}
				}
			}
		})
		t.Run("InvitationsOmitThem", func(t *testing.T) {
			for _, who := range []string{"expert", "expert2"} {
				for _, sent := range []string{"false", "true"} {
					var l struct {
						Data []map[string]any `json:"data"`
					}
					e.decode(e.expect(e.do("GET", "/api/diagnosis/invitations?sent="+sent, tokens[who], nil), 200), &l)
					for _, inv := range l.Data {
						if fmt.Sprint(inv["consult_id"]) == recalled {
							t.Errorf("%s (sent=%s) lists the invitation to recalled case %s: %v", who, sent, recalled, inv)
						}
					}
				}
			}
		})
		t.Run("ReturnedStaysWithTheCenter", func(t *testing.T) {
			e.expect(e.do("GET", "/api/consultation/resources/"+returned, tokens["allocator"], nil), 200)
			l := e.list("/api/consultation/list", tokens["allocator"], url.Values{"params": {`{"tab":"returned_site"}`}})
			if l.Meta.Pagination.Total != 1 || fmt.Sprint(l.Data[0]["id"]) != returned {
				t.Errorf("allocator's returned cases: %+v", l.Data)
			}
		})
		t.Run("AdminAndSiteSeeThem", func(t *testing.T) {
			for _, id := range hidden {
				e.expect(e.do("GET", "/api/consultation/resources/"+id, m.tokens["admin"], nil), 200)
				e.expect(e.do("GET", "/api/consultation/resources/"+id, m.tokens["site"], nil), 200)
			}
		})
	})
}
