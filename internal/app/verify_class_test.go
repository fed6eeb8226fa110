package app_test

import (
	"strings"
	"testing"
)

// The public verification page (the report's QR code) and its API show the
// report class the PDF prints, headed in the reader's language; a report
// without a class shows no such line.
func TestVerifyReportClass(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		ca, expert, site := e.login("center_admin"), e.login("expert"), e.login("site")
		e.expect(e.do("POST", "/api/config/common/setting", ca, map[string]any{"settings": map[string]any{"report_class": []string{"常规报告", "疑难会诊"}}}), 200)
		code := func(id string) string {
			var h struct {
				Data []struct {
					VerifyCode string `json:"verify_code"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/diagnosis/"+id, site, nil), 200), &h)
			return h.Data[len(h.Data)-1].VerifyCode
		}
		id := e.submittedCase(f, "BL2026-16901", f.expert)
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性萎缩性胃炎。", "report_class": "疑难会诊"}), 200)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
		withClass := code(id)

		var v struct {
			Data struct {
				ReportClass string `json:"report_class"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/report/verify/"+withClass, "", nil), 200), &v)
		if v.Data.ReportClass != "疑难会诊" {
			t.Fatalf("verification API class %q", v.Data.ReportClass)
		}
		for lang, head := range map[string]string{"zh-CN": "<dt>报告分类</dt><dd>疑难会诊</dd>", "en-US": "<dt>Report class</dt><dd>疑难会诊</dd>"} {
			if page := e.expect(e.do("GET", "/verify/"+withClass, "", nil, "Accept-Language", lang), 200); !strings.Contains(page.String(), head) {
				t.Errorf("%s page lacks %q:\n%s", lang, head, page)
			}
		}

		plain := code(e.publishedCase(f, "BL2026-16902", false))
		for _, lang := range []string{"zh-CN", "en-US"} {
			if page := e.expect(e.do("GET", "/verify/"+plain, "", nil, "Accept-Language", lang), 200); strings.Contains(page.String(), "报告分类") || strings.Contains(page.String(), "Report class") {
				t.Errorf("%s page of a report without a class shows one:\n%s", lang, page)
			}
		}
	})
}
