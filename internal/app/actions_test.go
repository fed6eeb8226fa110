package app_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"mime/multipart"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
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

// publishedCase has expert diagnose and publish a case, delayed (in its
// hesitation period) or not; it returns the case id.
func (e *env) publishedCase(f caseFixture, number string, delayed bool) string {
	e.t.Helper()
	id := e.submittedCase(f, number, f.expert)
	expert := e.login("expert")
	d := "/api/diagnosis/" + id
	e.expect(e.do("POST", d+"/lock", expert, nil), 200)
	e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
	e.expect(e.do("POST", d+"/publish", expert, map[string]any{"delayed": delayed, "confirm_unviewed": true}), 200)
	return id
}

func TestPublisher(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		pub, site := e.login("publisher"), e.login("site")
		t.Run("Publish", func(t *testing.T) {
			id := e.publishedCase(f, "BL2026-00331", true)
			l := e.list("/api/consultation/list", pub, url.Values{"params": {`{"tab":"releasing"}`}})
			if l.Meta.Pagination.Total != 1 {
				t.Fatalf("publisher's releasing tab: %d", l.Meta.Pagination.Total)
			}
			e.expect(e.do("POST", "/api/consultation/publisher/publish/"+id, e.login("expert"), nil), 403)
			e.expect(e.do("POST", "/api/consultation/publisher/publish/"+id, pub, nil), 200)
			if lb := e.label(id, site); lb != "published" {
				t.Fatalf("after publisher publish: %s", lb)
			}
			var h struct {
				Data []any `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/diagnosis/"+id, site, nil), 200), &h)
			if len(h.Data) != 1 {
				t.Fatal("the site does not see the released report")
			}
			e.expect(e.do("POST", "/api/consultation/publisher/publish/"+id, pub, nil), 409)
			e.expect(e.do("POST", "/api/consultation/publisher/return/"+id, pub, map[string]any{"reason": "x"}), 409)
		})
		t.Run("Return", func(t *testing.T) {
			id := e.publishedCase(f, "BL2026-00332", true)
			e.expect(e.do("POST", "/api/consultation/publisher/return/"+id, pub, nil), 422)
			e.expect(e.do("POST", "/api/consultation/publisher/return/"+id, pub, map[string]any{"reason": "  "}), 422)
			e.expect(e.do("POST", "/api/consultation/publisher/return/"+id, pub, map[string]any{"reason": "报告缺少免疫组化结果"}), 200)
			expert := e.login("expert")
			if lb := e.label(id, expert); lb != "pending_diagnosis" {
				t.Fatalf("after publisher return: %s", lb)
			}
			var h struct {
				Data []struct {
					Status   string `json:"status"`
					ReportNo string `json:"report_no"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/diagnosis/"+id, expert, nil), 200), &h)
			if len(h.Data) != 1 || h.Data[0].Status != "draft" || h.Data[0].ReportNo != "" {
				t.Fatalf("after return: %+v", h.Data)
			}
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/lock", expert, nil), 200)
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
		})
		t.Run("ErrImmediateRelease", func(t *testing.T) {
			id := e.publishedCase(f, "BL2026-00333", false)
			e.expect(e.do("POST", "/api/consultation/publisher/publish/"+id, pub, nil), 409)
		})
	})
}

func TestChangeFirstResult(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin := e.login("admin")
		id := e.publishedCase(f, "BL2026-00341", false)
		cid, _ := strconv.ParseInt(id, 10, 64)
		path := "/api/admin/change_diagnosis_first_result"
		e.expect(e.do("POST", path, admin, map[string]any{"consult_id": cid, "result": "consistent"}), 409)
		e.expect(e.do("POST", "/api/admin/consultation/"+id+"/counter_audit", admin, map[string]any{"reason": "与免疫组化结果不符"}), 200)
		e.expect(e.do("POST", path, admin, map[string]any{"consult_id": cid, "result": "major_difference"}), 422)
		e.expect(e.do("POST", path, admin, map[string]any{"consult_id": cid, "result": "wrong"}), 422)
		e.expect(e.do("POST", path, e.login("expert"), map[string]any{"consult_id": cid, "result": "consistent"}), 403)
		if n := e.count("diagnoses", "consult_id = ? AND first_result <> ''", cid); n != 0 {
			t.Fatal("a refused verdict was written")
		}
		e.expect(e.do("POST", path, admin, map[string]any{"consult_id": cid, "result": "major_difference", "reason": "免疫组化提示淋巴瘤"}), 200)
		var h struct {
			Data []struct {
				FirstResult string `json:"first_result"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/diagnosis/"+id, admin, nil), 200), &h)
		if len(h.Data) != 1 || h.Data[0].FirstResult != "major_difference" {
			t.Fatalf("first result: %+v", h.Data)
		}
		if n := e.count("case_logs", "consult_id = ? AND action = 'change_first_result'", cid); n != 1 {
			t.Fatalf("log lines: %d", n)
		}
	})
}

func TestAdvice(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00351", f.expert)
		expert, site, third := e.login("expert"), e.login("site"), e.login("third")
		a := "/api/diagnosis/" + id + "/advice"
		type advices struct {
			Data []struct {
				ID     int64  `json:"id"`
				Kind   string `json:"kind"`
				Status string `json:"status"`
				Result string `json:"result"`
			} `json:"data"`
		}
		t.Run("BadInput", func(t *testing.T) {
			for _, body := range []map[string]any{
				{"kind": "special"},
				{"kind": "special", "items": []any{map[string]any{"item": "immunohistochemisty"}}},
				{"kind": "special", "items": []any{map[string]any{"item": "deep_cut", "markers": "CK"}}},
				{"kind": "technical", "items": []any{map[string]any{"item": "deep_cut", "block": "Z9"}}},
				{"kind": "other", "items": []any{map[string]any{"item": "deep_cut"}}},
			} {
				e.expect(e.do("POST", a, expert, body), 422)
			}
			e.expect(e.do("POST", a, e.login("expert2"), map[string]any{"kind": "technical", "items": []any{map[string]any{"item": "deep_cut"}}}), 404)
			e.expect(e.do("POST", a, site, map[string]any{"kind": "technical", "items": []any{map[string]any{"item": "deep_cut"}}}), 403)
			if n := e.count("advices", ""); n != 0 {
				t.Fatalf("%d advices written", n)
			}
		})
		var ad advices
		t.Run("Order", func(t *testing.T) {
			e.decode(e.expect(e.do("POST", a, expert, map[string]any{"kind": "special", "items": []any{
				map[string]any{"item": "immunohistochemisty", "markers": "CK, CD20, Ki-67", "block": "A1"},
				map[string]any{"item": "special_stain", "markers": "PAS", "block": "A2"},
			}}), 200), &ad)
			e.expect(e.do("POST", a, expert, map[string]any{"kind": "technical", "items": []any{map[string]any{"item": "deep_cut", "block": "B1", "remark": "深切 3 张"}}}), 200)
			e.decode(e.expect(e.do("GET", a, site, nil), 200), &ad)
			if len(ad.Data) != 3 {
				t.Fatalf("advice: %+v", ad.Data)
			}
			l := e.list("/api/consultation/advice_list", site, url.Values{"params": {`{"kind":"special","tab":"pending"}`}})
			if l.Meta.Pagination.Total != 2 {
				t.Fatalf("site's special advice: %d", l.Meta.Pagination.Total)
			}
			if l := e.list("/api/consultation/advice_list", e.login("site2"), url.Values{}); l.Meta.Pagination.Total != 0 {
				t.Fatalf("another site sees %d advice", l.Meta.Pagination.Total)
			}
		})
		t.Run("ExecuteTransferAnswer", func(t *testing.T) {
			ihc, stain, cut := itoa(ad.Data[0].ID), itoa(ad.Data[1].ID), itoa(ad.Data[2].ID)
			e.expect(e.do("POST", "/api/consultation/doctor_advice/execute/"+cut, site, nil), 422)
			e.expect(e.do("POST", "/api/consultation/doctor_advice/execute/"+ihc, site, map[string]any{"result": "x"}), 404)
			e.expect(e.do("POST", "/api/consultation/doctor_advice/execute/"+cut, site, map[string]any{"result": "已深切 3 张并上传"}), 200)
			e.expect(e.do("POST", "/api/consultation/doctor_advice/execute/"+cut, site, map[string]any{"result": "again"}), 409)
			e.allowThirds()
			e.expect(e.do("POST", "/api/consultation/advice/transfer/"+cut, site, map[string]any{"third_id": e.userID("third")}), 409)
			e.expect(e.do("POST", "/api/consultation/advice/transfer/"+ihc, site, map[string]any{"third_id": f.expert}), 422)
			e.expect(e.do("POST", "/api/consultation/advice/transfer/"+ihc, site, map[string]any{"third_id": e.userID("third")}), 200)
			e.expect(e.do("POST", "/api/consultation/advice/execute/"+stain, site, map[string]any{"result": "PAS 阴性"}), 200)
			var mine advices
			e.decode(e.expect(e.do("GET", "/api/third/advice?pending=true", third, nil), 200), &mine)
			if len(mine.Data) != 1 || mine.Data[0].ID != ad.Data[0].ID {
				t.Fatalf("third's advice: %+v", mine.Data)
			}
			e.expect(e.do("POST", "/api/third/addadvice/"+stain, third, map[string]any{"result": "x"}), 404)
			e.expect(e.do("POST", "/api/third/addadvice/"+ihc, third, map[string]any{"result": ""}), 422)
			e.expect(e.do("POST", "/api/third/addadvice/"+ihc, third, map[string]any{"result": "CK(+)，CD20(-)，Ki-67 约 30%"}), 200)
			e.expect(e.do("POST", "/api/third/addadvice/"+ihc, third, map[string]any{"result": "again"}), 409)
			e.decode(e.expect(e.do("GET", "/api/consultation/advice/"+id, expert, nil), 200), &ad)
			if len(ad.Data) != 2 || ad.Data[0].Status != "done" || ad.Data[0].Result != "CK(+)，CD20(-)，Ki-67 约 30%" || ad.Data[1].Status != "executed" {
				t.Fatalf("expert sees: %+v", ad.Data)
			}
			if n := e.count("case_logs", "consult_id = ? AND action = 'advice_result'", id); n != 1 {
				t.Fatalf("third's result log lines: %d", n)
			}
		})
		t.Run("Export", func(t *testing.T) {
			for path, want := range map[string]struct {
				rows int
				text string
			}{"/api/consultation/advice_list/export": {3, "CK(+)，CD20(-)"}, "/api/consultation/doctor_advice_list/export": {2, "深切"}} {
				r := e.expect(e.do("GET", path, site, nil), 200)
				x, err := excelize.OpenReader(bytes.NewReader(r.Body))
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				rows, _ := x.GetRows(x.GetSheetName(0))
				var all []string
				for _, r := range rows {
					all = append(all, strings.Join(r, "|"))
				}
				if len(rows) != want.rows || !strings.Contains(strings.Join(all, "\n"), want.text) || rows[0][0] != "会诊号" {
					t.Fatalf("%s: %v", path, rows)
				}
			}
			e.expect(e.do("GET", "/api/consultation/advice_list/export", e.login("third"), nil), 403)
			e.expect(e.do("GET", "/api/consultation/advice_list/export?params=%7Bbad", site, nil), 400)
		})
		t.Run("Cancel", func(t *testing.T) {
			var more advices
			e.decode(e.expect(e.do("POST", a, expert, map[string]any{"kind": "technical", "items": []any{map[string]any{"item": "re_cut"}}}), 200), &more)
			last := more.Data[len(more.Data)-1].ID
			e.expect(e.do("DELETE", a, expert, map[string]any{"ids": []int64{ad.Data[0].ID}}), 409)
			e.expect(e.do("DELETE", a, expert, map[string]any{"ids": []int64{last}}), 404)
			e.expect(e.do("DELETE", "/api/diagnosis/"+id+"/doctor_advice", expert, map[string]any{"ids": []int64{ad.Data[0].ID}}), 404)
			e.expect(e.do("DELETE", "/api/diagnosis/"+id+"/doctor_advice", e.login("expert2"), map[string]any{"ids": []int64{last}}), 404)
			e.expect(e.do("DELETE", "/api/diagnosis/"+id+"/doctor_advice", expert, map[string]any{"ids": []int64{last}}), 200)
			if n := e.count("advices", "consult_id = ?", id); n != 3 {
				t.Fatalf("after cancel: %d", n)
			}
		})
	})
}

// saveShot posts an image to the case as the slide viewer does.
func (e *env) saveShot(id, token string, img []byte, fields ...string) resp {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", "view.jpg")
	fw.Write(img)
	for i := 0; i+1 < len(fields); i += 2 {
		w.WriteField(fields[i], fields[i+1])
	}
	w.Close()
	return e.do("POST", "/api/diagnosis/"+id+"/save_shots", token, buf.Bytes(), "Content-Type", w.FormDataContentType())
}

func testImage(t *testing.T, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{uint8(200 + x%50), uint8(100 + y%100), 180, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSaveShots(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00361", f.expert)
		expert, site := e.login("expert"), e.login("site")
		var det struct {
			Data struct {
				Slides []struct {
					ID int64 `json:"id"`
				} `json:"slides"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 200), &det)
		slide := itoa(det.Data.Slides[0].ID)
		img := testImage(t, 320, 240)
		t.Run("BadInput", func(t *testing.T) {
			e.expect(e.saveShot(id, expert, []byte("not an image")), 422)
			e.expect(e.saveShot(id, expert, make([]byte, 5<<20+10)), 422)
			e.expect(e.saveShot(id, expert, img, "slide_id", "999999"), 422)
			e.expect(e.saveShot(id, e.login("expert2"), img), 404)
			e.expect(e.saveShot(id, site, img), 403)
			if n := e.count("case_shots", ""); n != 0 {
				t.Fatalf("%d shots written", n)
			}
		})
		var shot struct {
			Data struct {
				ID       int64  `json:"id"`
				URL      string `json:"url"`
				Selected bool   `json:"selected"`
			} `json:"data"`
		}
		t.Run("Save", func(t *testing.T) {
			e.decode(e.expect(e.saveShot(id, expert, img, "slide_id", slide, "caption", "A1 腺体异型增生 ×200"), 200), &shot)
			if !shot.Data.Selected {
				t.Fatal("a new screenshot is not selected for the report")
			}
			got := e.expect(e.do("GET", shot.Data.URL, expert, nil), 200)
			if !bytes.Equal(got.Body, img) || got.Header.Get("Content-Type") != "image/jpeg" {
				t.Fatalf("image: %d bytes, %s", len(got.Body), got.Header.Get("Content-Type"))
			}
			e.expect(e.do("GET", shot.Data.URL, e.login("site2"), nil), 404)
		})
		t.Run("ReportShowsSelected", func(t *testing.T) {
			d := "/api/diagnosis/" + id
			e.expect(e.do("POST", d+"/lock", expert, nil), 200)
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）低级别上皮内瘤变。"}), 200)
			with := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, expert, nil), 200)
			sp := d + "/shots/" + itoa(shot.Data.ID)
			e.expect(e.do("PATCH", sp, expert, map[string]any{}), 422)
			e.expect(e.do("PATCH", sp, site, map[string]any{"selected": false}), 403)
			e.expect(e.do("PATCH", sp, expert, map[string]any{"selected": false}), 200)
			without := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, expert, nil), 200)
			if len(with.Body) < len(without.Body)+len(img)/2 {
				t.Fatalf("the selected image is not in the PDF: %d vs %d bytes", len(with.Body), len(without.Body))
			}
			e.expect(e.do("PATCH", sp, expert, map[string]any{"selected": true}), 200)
			e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
			e.expect(e.saveShot(id, expert, img), 409)
			e.expect(e.do("DELETE", sp, expert, nil), 409)
			var l struct {
				Data []any `json:"data"`
			}
			e.decode(e.expect(e.do("GET", d+"/shots", site, nil), 200), &l)
			if len(l.Data) != 1 {
				t.Fatalf("site sees %d shots", len(l.Data))
			}
		})
	})
}

func TestHandoverEndsWhenTheCaseMovesOn(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, expert2 := e.login("expert"), e.login("expert2")
		id := e.submittedCase(f, "BL2026-00371", f.expert)
		e.expect(e.do("POST", "/api/diagnosis/"+id+"/handover", expert, map[string]any{"expert_id": f.expert2}), 200)
		e.expect(e.do("POST", "/api/diagnosis/"+id+"/return", expert2, map[string]any{"reason": "非本专业方向"}), 200)
		e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 404)
		if n := e.count("handovers", "consult_id = ? AND status = 'ended'", id); n != 1 {
			t.Fatalf("handover after return: %d ended", n)
		}
		id2 := e.submittedCase(f, "BL2026-00372", f.expert)
		e.expect(e.do("POST", "/api/diagnosis/"+id2+"/handover", expert, map[string]any{"expert_id": f.expert2}), 200)
		e.expect(e.do("POST", "/api/diagnosis/"+id2+"/referral", expert2, map[string]any{"expert_id": f.expert, "reason": "原专家更熟悉"}), 200)
		if n := e.count("handovers", "consult_id = ? AND status = 'ended'", id2); n != 1 {
			t.Fatalf("handover after referral: %d ended", n)
		}
		e.expect(e.do("POST", "/api/diagnosis/handover/recall/"+id2, expert, nil), 409)
		e.expect(e.do("POST", "/api/diagnosis/"+id2+"/lock", expert, nil), 200)
	})
}
