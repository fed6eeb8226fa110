package app_test

import (
	"testing"
)

// The expert amends a released report (spec 2 §7 POST /diagnosis/{id}/update):
// only the case's expert, only once the report is out and not in a
// counter-audit, with a reason; the new version is signed as usual and both
// stay in the history.
func TestAmendReport(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, expert2, site, admin := e.login("expert"), e.login("expert2"), e.login("site"), e.login("admin")
		id := e.publishedCase(f, "BL2026-03201", false)
		d := "/api/diagnosis/" + id

		before := e.snapshot(id)
		for _, c := range []struct {
			token string
			body  any
			want  int
		}{
			{expert, map[string]any{"reason": "  "}, 422},
			{expert, nil, 422},
			{expert2, map[string]any{"reason": "补充诊断要点"}, 404},
			{site, map[string]any{"reason": "补充诊断要点"}, 403},
			{admin, map[string]any{"reason": "补充诊断要点"}, 403},
			{"", map[string]any{"reason": "补充诊断要点"}, 401},
		} {
			e.expect(e.do("POST", d+"/update", c.token, c.body), c.want)
		}
		if after := e.snapshot(id); after != before {
			t.Fatalf("a refused amendment wrote something:\nbefore %s\nafter  %s", before, after)
		}
		releasing := e.publishedCase(f, "BL2026-03202", true)
		e.expect(e.do("POST", "/api/diagnosis/"+releasing+"/update", expert, map[string]any{"reason": "x"}), 409)
		e.expect(e.do("POST", "/api/admin/consultation/"+id+"/counter_audit", admin, map[string]any{"reason": "请复核"}), 200)
		e.expect(e.do("POST", d+"/update", expert, map[string]any{"reason": "x"}), 409)
		e.expect(e.do("POST", d+"/counter_audit/reject", expert, map[string]any{"reason": "诊断无误"}), 200)

		e.expect(e.do("POST", d+"/update", expert, map[string]any{"reason": "免疫组化结果回报，更正诊断"}), 200)
		if l := e.label(id, expert); l != "diagnosing" {
			t.Fatalf("after amend: %s", l)
		}
		if n := e.count("case_logs", "consult_id = ? AND action = ? AND detail = ?", id, "diagnosis_amend", "免疫组化结果回报，更正诊断"); n != 1 {
			t.Fatalf("case log: %d", n)
		}
		// The released report stays the site's until the new one is signed.
		var h struct {
			Data []struct {
				Version int    `json:"version"`
				Status  string `json:"status"`
				Opinion string `json:"opinion"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, site, nil), 200), &h)
		if len(h.Data) != 1 || h.Data[0].Version != 1 {
			t.Fatalf("site during amendment: %+v", h.Data)
		}
		e.decode(e.expect(e.do("GET", d, expert, nil), 200), &h)
		if len(h.Data) != 2 || h.Data[1].Version != 2 || h.Data[1].Status != "draft" || h.Data[1].Opinion != h.Data[0].Opinion {
			t.Fatalf("the amendment starts from the released text: %+v", h.Data)
		}
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）黏膜相关淋巴组织结外边缘区淋巴瘤。"}), 200)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
		e.decode(e.expect(e.do("GET", d, site, nil), 200), &h)
		if len(h.Data) != 2 || h.Data[0].Opinion != "（胃窦）慢性浅表性胃炎。" || h.Data[1].Version != 2 || h.Data[1].Status != "published" {
			t.Fatalf("site after the amended report: %+v", h.Data)
		}
	})
}
