package app_test

import (
	"strings"
	"testing"
)

// A supplementary report carries a report class like the diagnosis: one of
// the case's center's classes or none; anything else is refused in both
// languages with nothing written; a saved class is kept and printed.
func TestSupplementReportClass(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		ca, expert, site := e.login("center_admin"), e.login("expert"), e.login("site")
		e.expect(e.do("POST", "/api/config/common/setting", ca, map[string]any{"settings": map[string]any{"report_class": []string{"常规报告", "疑难会诊"}}}), 200)
		id := e.publishedCase(f, "BL2026-16801", false)
		d := "/api/diagnosis/" + id
		var last struct {
			ID          int64  `json:"id"`
			Type        int    `json:"type"`
			ReportClass string `json:"report_class"`
		}
		supplement := func() (int, string) {
			t.Helper()
			var h struct {
				Data []struct {
					ID          int64  `json:"id"`
					Type        int    `json:"type"`
					ReportClass string `json:"report_class"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", d, expert, nil), 200), &h)
			last = h.Data[len(h.Data)-1]
			return last.Type, last.ReportClass
		}

		refusedBoth(t, e, "POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：ER(+)。", "report_class": "whatever"}, 422, "report_class", "diagnoses")
		e.expect(e.do("POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：ER(+)。", "report_class": "疑难会诊"}), 200)
		if typ, class := supplement(); typ != 1 || class != "疑难会诊" {
			t.Fatalf("supplement %d with class %q", typ, class)
		}
		// A refused change keeps the saved class; none clears it; a class is chosen again.
		refusedBoth(t, e, "POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：ER(+)。", "report_class": "Global"}, 422, "report_class", "diagnoses")
		if _, class := supplement(); class != "疑难会诊" {
			t.Fatalf("after a refused save %q", class)
		}
		e.expect(e.do("POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：ER(+)，PR(-)。"}), 200)
		if _, class := supplement(); class != "" {
			t.Fatalf("cleared class %q", class)
		}
		e.expect(e.do("POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：ER(+)，PR(-)。", "report_class": "常规报告"}), 200)
		e.expect(e.do("POST", d+"/append_diagnosis/publish", expert, nil), 200)
		if typ, class := supplement(); typ != 1 || class != "常规报告" {
			t.Fatalf("published supplement %d with class %q", typ, class)
		}
		pdf := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id+"?diagnosis_id="+itoa(last.ID), site, nil), 200)
		if text, ok := pdfText(t, pdf.Body); ok && !strings.Contains(text, "报告分类：常规报告") {
			t.Errorf("the PDF lacks the supplement's report class:\n%s", text)
		}
	})
}
