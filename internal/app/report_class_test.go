package app_test

import (
	"strings"
	"testing"
)

// report_class: the expert's diagnosis takes one of the report classes of the
// case's own center (the center's copy of the setting, not the global copy nor
// another center's), or none; anything else is refused in both languages with
// nothing written. The read model returns the class, the workspace reads the
// options of the case's center, the report PDF prints it in its header and
// an amendment's new draft starts from it.
func TestReportClass(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin, ca, expert, site := e.login("admin"), e.login("center_admin"), e.login("expert"), e.login("site")
		var west int64
		e.app.DB.Get(&west, "SELECT id FROM centers WHERE code = 'WC'")
		e.expect(e.do("POST", "/api/config/common/setting", admin, map[string]any{"settings": map[string]any{"report_class": []string{"Global class"}}}), 200)
		e.expect(e.do("POST", "/api/config/common/setting", admin, map[string]any{"center_id": west, "settings": map[string]any{"report_class": []string{"West class"}}}), 200)
		e.expect(e.do("POST", "/api/config/common/setting", ca, map[string]any{"settings": map[string]any{"report_class": []string{"常规报告", "疑难会诊"}}}), 200)

		// The workspace reads the classes of the case's center.
		if c := e.diagConfig(expert, "?center_id="+itoa(f.center)); string(c.Settings["report_class"]) != `["常规报告","疑难会诊"]` {
			t.Fatalf("the expert reads the center's classes: %s", c.Settings["report_class"])
		}

		id := e.submittedCase(f, "BL2026-16701", f.expert)
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		class := func() string {
			t.Helper()
			var h struct {
				Data []struct {
					ReportClass string `json:"report_class"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", d, expert, nil), 200), &h)
			if len(h.Data) == 0 {
				return "<none>"
			}
			return h.Data[len(h.Data)-1].ReportClass
		}

		t.Run("ErrNotTheCentersClass", func(t *testing.T) {
			// Another center's class, the global one (the center has its own
			// copy) and an unknown one are refused; no draft is written.
			for _, bad := range []string{"West class", "Global class", "whatever"} {
				refusedBoth(t, e, "POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎。", "report_class": bad}, 422, "report_class", "diagnoses")
			}
			if got := class(); got != "<none>" {
				t.Fatalf("refused but written: %q", got)
			}
		})
		t.Run("OneOfTheList", func(t *testing.T) {
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎。", "report_class": " 疑难会诊 "}), 200)
			if got := class(); got != "疑难会诊" {
				t.Fatalf("saved class %q", got)
			}
			// A refused change keeps the saved class.
			refusedBoth(t, e, "POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎。", "report_class": "West class"}, 422, "report_class", "diagnoses")
			if got := class(); got != "疑难会诊" {
				t.Fatalf("after a refused save %q", got)
			}
		})
		t.Run("DroppedClassKeptUntilChanged", func(t *testing.T) {
			// The center drops the draft's class: the expert's saves go on
			// working with it, but once changed it cannot be chosen again.
			e.expect(e.do("POST", "/api/config/common/setting", ca, map[string]any{"settings": map[string]any{"report_class": []string{"常规报告", "Second opinion"}}}), 200)
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎伴糜烂。", "report_class": "疑难会诊"}), 200)
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎伴糜烂。", "report_class": "Second opinion"}), 200)
			if got := class(); got != "Second opinion" {
				t.Fatalf("changed class %q", got)
			}
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎伴糜烂。", "report_class": "疑难会诊"}), 422)
			refusedBoth(t, e, "POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎。", "report_class": "Global class"}, 422, "report_class", "diagnoses")
		})
		t.Run("Empty", func(t *testing.T) {
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎。"}), 200)
			if got := class(); got != "" {
				t.Fatalf("cleared class %q", got)
			}
		})
		t.Run("PrintedInThePDF", func(t *testing.T) {
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性萎缩性胃炎。", "report_class": "常规报告"}), 200)
			// Publishing without a class stays allowed (spec 2 names the key only); this one has one.
			e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
			pdf := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, site, nil), 200)
			if text, ok := pdfText(t, pdf.Body); ok && !strings.Contains(text, "报告分类：常规报告") {
				t.Errorf("the PDF lacks the report class:\n%s", text)
			}
			en := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, site, nil, "user-language", "en-US"), 200)
			if text, ok := pdfText(t, en.Body); ok && !strings.Contains(text, "Reportclass:常规报告") {
				t.Errorf("the English PDF lacks the report class:\n%s", text)
			}
		})
		t.Run("AmendKeepsTheClass", func(t *testing.T) {
			e.expect(e.do("POST", d+"/update", expert, map[string]any{"reason": "补充免疫组化结果"}), 200)
			if got := class(); got != "常规报告" {
				t.Fatalf("the amendment's draft class %q", got)
			}
		})
	})
}
