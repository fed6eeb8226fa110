package app_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pdfText extracts a PDF's text with pdftotext (Debian poppler-utils, which
// make test installs); ok is false when the tool is missing.
func pdfText(t *testing.T, pdf []byte) (string, bool) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("pdftotext not installed: PDF text not checked")
		return "", false
	}
	path := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.Join(strings.Fields(string(out)), ""), true
}

// submittedCase registers, charges and submits a case as site and has the
// allocator assign it to expert; it returns the case id.
func (e *env) submittedCase(f caseFixture, number string, expert int64) string {
	e.t.Helper()
	return e.submittedCaseOf(f, number, expert, 1)
}

// submittedCaseOf is submittedCase with n slides.
func (e *env) submittedCaseOf(f caseFixture, number string, expert int64, n int) string {
	e.t.Helper()
	site, alloc := e.login("site"), e.login("allocator")
	var ids []int64
	for range n {
		ids = append(ids, e.slide(f.hospital, "site"))
	}
	var c caseOut
	e.decode(e.expect(e.do("POST", "/api/consultation", site, registration(f, number, ids...)), 200), &c)
	id := itoa(c.Data.ID)
	e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
	e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
	e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": expert}), 200)
	return id
}

func (e *env) label(id, token string) string {
	var c caseOut
	e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, token, nil), 200), &c)
	return c.Data.StatusLabel.Key
}

func TestDiagnosisWorkflow(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00101", f.expert)
		expert, expert2, site := e.login("expert"), e.login("expert2"), e.login("site")
		d := "/api/diagnosis/" + id

		t.Run("OnlyTheAssignedExpert", func(t *testing.T) {
			e.expect(e.do("POST", d+"/lock", expert2, nil), 404)
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "x"}), 409)
		})
		t.Run("LockAndSave", func(t *testing.T) {
			e.expect(e.do("POST", d+"/lock", expert, nil), 200)
			if l := e.label(id, site); l != "diagnosing" {
				t.Fatalf("site sees %s", l)
			}
			e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 422)
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"microscopic": "胃窦黏膜慢性炎，局灶腺体异型增生。", "opinion": "（胃窦）低级别上皮内瘤变。"}), 200)
			var h struct {
				Data []struct {
					Opinion string `json:"opinion"`
					Status  string `json:"status"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", d, expert, nil), 200), &h)
			if len(h.Data) != 1 || h.Data[0].Opinion != "（胃窦）低级别上皮内瘤变。" || h.Data[0].Status != "draft" {
				t.Fatalf("saved draft: %+v", h.Data)
			}
			e.decode(e.expect(e.do("GET", d, site, nil), 200), &h)
			if len(h.Data) != 0 {
				t.Fatal("the site sees a draft")
			}
		})
		t.Run("Delay", func(t *testing.T) {
			e.expect(e.do("POST", d+"/delay", expert, map[string]any{"days": 2}), 422)
			e.expect(e.do("POST", d+"/delay", expert, map[string]any{"days": 2, "reason": "需加做免疫组化"}), 200)
		})
		t.Run("InviteAndReply", func(t *testing.T) {
			e.expect(e.do("POST", d+"/invited", expert, map[string]any{"invitee_ids": []int64{f.expert}}), 422)
			e.expect(e.do("POST", d+"/invited", expert, map[string]any{"invitee_ids": []int64{f.expert2}, "message": "请帮忙看一下 A2 切片"}), 200)
			var inv struct {
				Data []struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/diagnosis/invitations", expert2, nil), 200), &inv)
			if len(inv.Data) != 1 {
				t.Fatalf("invitations: %+v", inv.Data)
			}
			e.expect(e.do("GET", "/api/consultation/resources/"+id, expert2, nil), 200)
			e.expect(e.do("POST", d+"/invited/"+itoa(inv.Data[0].ID), expert, map[string]any{"reply": "x"}), 404)
			e.expect(e.do("POST", d+"/invited/"+itoa(inv.Data[0].ID), expert2, map[string]any{"reply": "同意低级别上皮内瘤变。"}), 200)
			e.expect(e.do("POST", d+"/invited/"+itoa(inv.Data[0].ID), expert2, map[string]any{"reply": "again"}), 409)
		})
		t.Run("Review", func(t *testing.T) {
			e.expect(e.do("POST", d+"/toreview", expert, map[string]any{"reviewer_id": f.expert}), 422)
			e.expect(e.do("POST", d+"/toreview", expert, map[string]any{"reviewer_id": f.expert2}), 200)
			if l := e.label(id, expert); l != "to_review" {
				t.Fatalf("after toreview: %s", l)
			}
			e.expect(e.do("POST", d+"/review_approve", expert, nil), 409)
			e.expect(e.do("POST", d+"/reviewreturn", expert2, nil), 422)
			e.expect(e.do("POST", d+"/review_approve", expert2, map[string]any{"note": "同意"}), 200)
		})
		t.Run("PublishAsksAboutUnviewedSlides", func(t *testing.T) {
			r := e.expect(e.do("POST", d+"/publish", expert, nil), 409)
			if !strings.Contains(message(r), "1") {
				t.Fatalf("%s", r)
			}
			e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
			if l := e.label(id, site); l != "published" {
				t.Fatalf("after publish: %s", l)
			}
			var h struct {
				Data []struct {
					ReportNo   string `json:"report_no"`
					VerifyCode string `json:"verify_code"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", d, site, nil), 200), &h)
			if len(h.Data) != 1 || h.Data[0].ReportNo == "" || len(h.Data[0].VerifyCode) != 10 {
				t.Fatalf("site's report: %+v", h.Data)
			}
		})
		t.Run("HesitationPeriod", func(t *testing.T) {
			id2 := e.submittedCase(f, "BL2026-00102", f.expert)
			d2 := "/api/diagnosis/" + id2
			e.expect(e.do("POST", d2+"/lock", expert, nil), 200)
			e.expect(e.do("POST", d2+"/save", expert, map[string]any{"opinion": "慢性浅表性胃炎。"}), 200)
			e.expect(e.do("POST", d2+"/publish", expert, map[string]any{"delayed": true, "confirm_unviewed": true}), 200)
			if l := e.label(id2, expert); l != "releasing" {
				t.Fatalf("delayed publish: %s", l)
			}
			var h struct {
				Data []any `json:"data"`
			}
			e.decode(e.expect(e.do("GET", d2, site, nil), 200), &h)
			if len(h.Data) != 0 {
				t.Fatal("the site sees a report in its hesitation period")
			}
			e.expect(e.do("POST", d2+"/recall", expert, nil), 200)
			if l := e.label(id2, expert); l != "diagnosing" {
				t.Fatalf("after recall: %s", l)
			}
		})
		t.Run("ExpertReturnsToCenter", func(t *testing.T) {
			id3 := e.submittedCase(f, "BL2026-00103", f.expert)
			e.expect(e.do("POST", "/api/diagnosis/"+id3+"/return", expert, nil), 422)
			e.expect(e.do("POST", "/api/diagnosis/"+id3+"/return", expert, map[string]any{"reason": "非本专业方向"}), 200)
			if l := e.label(id3, e.login("allocator")); l != "returned_to_center" {
				t.Fatalf("after return: %s", l)
			}
			l := e.list("/api/consultation/list", expert, map[string][]string{"params": {`{"tab":"returned_center"}`}})
			if l.Meta.Pagination.Total != 1 {
				t.Fatalf("the expert's returned list: %d", l.Meta.Pagination.Total)
			}
			e.expect(e.do("POST", "/api/distribute/"+id3+"/bindexpert", e.login("allocator"), map[string]any{"expert_id": f.expert2}), 200)
			e.expect(e.do("GET", "/api/consultation/resources/"+id3, expert, nil), 404)
		})
	})
}

func TestReportDeliveryAndSupplement(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00201", f.expert)
		expert, site, site2 := e.login("expert"), e.login("site"), e.login("site2")
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", "/api/report/print/"+id, site, nil), 404) // nothing released yet
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（乳腺）纤维腺瘤。"}), 200)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)

		var h struct {
			Data []struct {
				Type       int    `json:"type"`
				VerifyCode string `json:"verify_code"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, site, nil), 200), &h)
		code := h.Data[0].VerifyCode
		t.Run("Verify", func(t *testing.T) {
			var v struct {
				Data struct {
					Valid   bool   `json:"valid"`
					Patient string `json:"patient"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/report/verify/"+strings.ToLower(code), "", nil), 200), &v)
			if !v.Data.Valid || v.Data.Patient != "王*" {
				t.Fatalf("verify: %+v", v.Data)
			}
			e.expect(e.do("GET", "/api/report/verify/AAAAAAAAAA", "", nil), 404)
		})
		t.Run("PrintThenDeliver", func(t *testing.T) {
			e.expect(e.do("POST", "/api/report/deliver/"+id, site, nil), 409)
			e.expect(e.do("POST", "/api/report/print/"+id, site2, nil), 404)
			e.expect(e.do("POST", "/api/report/print/"+id, site, nil), 200)
			e.expect(e.do("POST", "/api/report/deliver/"+id, site, nil), 200)
			l := e.list("/api/consultation/list", site, map[string][]string{"params": {`{"tab":"sent"}`}})
			if l.Meta.Pagination.Total != 1 {
				t.Fatalf("sent: %d", l.Meta.Pagination.Total)
			}
		})
		t.Run("SupplementBesideOriginal", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/append_diagnosis/"+id, expert, map[string]any{}), 422)
			e.expect(e.do("POST", "/api/consultation/append_diagnosis/"+id, expert, map[string]any{"opinion": "补充：免疫组化 ER(+), PR(+)。"}), 200)
			e.expect(e.do("POST", d+"/append_diagnosis/publish", expert, nil), 200)
			e.decode(e.expect(e.do("GET", d, site, nil), 200), &h)
			if len(h.Data) != 2 || h.Data[0].Type != 0 || h.Data[1].Type != 1 {
				t.Fatalf("reports: %+v", h.Data)
			}
			// Nothing left to publish: bad input, as an empty diagnosis.
			e.expect(e.do("POST", d+"/append_diagnosis/publish", expert, nil), 422)
		})
	})
}

func TestExpertDashboard(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		e.submittedCase(f, "BL2026-00301", f.expert)
		id := e.submittedCase(f, "BL2026-00302", f.expert)
		expert := e.login("expert")
		e.expect(e.do("POST", "/api/diagnosis/"+id+"/lock", expert, nil), 200)
		var d struct {
			Data map[string]int `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/diagnosis/list/statistical_count", expert, nil), 200), &d)
		if d.Data["pending"] != 1 || d.Data["diagnosing"] != 1 || d.Data["invited"] != 0 {
			t.Fatalf("dashboard %v", d.Data)
		}
	})
}

func TestCounterAudit(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00401", f.expert)
		expert, admin := e.login("expert"), e.login("admin")
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎。"}), 200)
		e.expect(e.do("POST", "/api/admin/consultation/"+id+"/counter_audit", admin, map[string]any{"reason": "x"}), 409)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
		e.expect(e.do("POST", "/api/admin/consultation/"+id+"/counter_audit", admin, nil), 422)
		e.expect(e.do("POST", "/api/admin/consultation/"+id+"/counter_audit", admin, map[string]any{"reason": "与免疫组化结果不符"}), 200)
		if l := e.label(id, admin); l != "counter_audit_to_confirm" {
			t.Fatalf("after request: %s", l)
		}
		e.expect(e.do("POST", d+"/counter_audit/reject", expert, nil), 422)
		e.expect(e.do("POST", d+"/counter_audit/reject", expert, map[string]any{"reason": "诊断无误"}), 200)
		if l := e.label(id, admin); l != "counter_audit_rejected" {
			t.Fatalf("after reject: %s", l)
		}
		e.expect(e.do("POST", "/api/admin/consultation/"+id+"/counter_audit", admin, map[string]any{"reason": "请再次复核"}), 200)
		e.expect(e.do("POST", d+"/counter_audit/confirm", expert, nil), 200)
		if l := e.label(id, expert); l != "diagnosing" {
			t.Fatalf("after confirm: %s", l)
		}
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性萎缩性胃炎。"}), 200)
		var h struct {
			Data []struct {
				Version int    `json:"version"`
				Status  string `json:"status"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, expert, nil), 200), &h)
		if len(h.Data) != 2 || h.Data[0].Status != "published" || h.Data[1].Version != 2 {
			t.Fatalf("versions: %+v", h.Data)
		}
	})
}

func TestReportPDF(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00501", f.expert)
		expert, site := e.login("expert"), e.login("site")
		d := "/api/diagnosis/" + id
		e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, site, nil), 404)
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"microscopic": "镜下见腺体增生。", "opinion": "（胃窦）慢性萎缩性胃炎伴肠化。"}), 200)
		draft := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, expert, nil), 200)
		e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, site, nil), 404)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
		pdf := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, site, nil), 200)
		for _, r := range []resp{draft, pdf} {
			if !strings.HasPrefix(string(r.Body), "%PDF-") || r.Header.Get("Content-Type") != "application/pdf" {
				t.Fatalf("not a PDF: %q", r.Body[:min(20, len(r.Body))])
			}
		}
		if text, ok := pdfText(t, pdf.Body); ok {
			for _, want := range []string{"王芳", "慢性萎缩性胃炎伴肠化", "BL2026-00501"} {
				if !strings.Contains(text, want) {
					t.Errorf("the PDF lacks %q:\n%s", want, text)
				}
			}
		}
		e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, e.login("site2"), nil), 404)
		var h struct {
			Data []struct {
				VerifyCode string `json:"verify_code"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, site, nil), 200), &h)
		page := e.expect(e.do("GET", "/verify/"+h.Data[0].VerifyCode, "", nil, "Accept-Language", "zh-CN"), 200)
		if !strings.Contains(page.String(), "真实") || !strings.Contains(page.String(), "王*") {
			t.Fatalf("verification page: %s", page)
		}
		e.expect(e.do("GET", "/verify/NOSUCHCODE", "", nil), 404)
	})
}
