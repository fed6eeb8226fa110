package app_test

import (
	"fmt"
	"strings"
	"testing"
)

type adviceRow struct {
	ID            int64  `json:"id"`
	Kind          string `json:"kind"`
	Item          string `json:"item"`
	Markers       string `json:"markers"`
	Block         string `json:"block"`
	Status        string `json:"status"`
	MarkerResults []struct {
		Marker string `json:"marker"`
		Result string `json:"result"`
	} `json:"marker_results"`
	Interpretation string `json:"interpretation"`
}

// advicesSnapshot is every advice row of the database, as text.
func (e *env) advicesSnapshot() string {
	e.t.Helper()
	db := e.app.DB
	rows, err := db.Queryx(`SELECT id, consult_id, kind, item, markers, block, remark, status, result, marker_results, interpretation,
		results_by, results_at, updated_at FROM advices ORDER BY id`)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		vals, err := rows.SliceScan()
		if err != nil {
			e.t.Fatal(err)
		}
		for _, v := range vals {
			if bs, ok := v.([]byte); ok {
				v = string(bs)
			}
			fmt.Fprintf(&b, "%v|", v)
		}
		b.WriteString("\n")
	}
	return b.String() + fmt.Sprint(e.count("case_logs", ""), e.count("audit_logs", "object_type IN (?, ?)", "advice", "consultation"))
}

// fieldMessage is the first message on field of a 422 answer.
func (e *env) fieldMessage(r resp, field string) string {
	e.t.Helper()
	e.expect(r, 422)
	var out struct {
		Errors map[string][]string `json:"errors"`
	}
	e.decode(r, &out)
	if len(out.Errors[field]) == 0 {
		e.t.Fatalf("no error on %s: %s", field, r)
	}
	return out.Errors[field][0]
}

func TestAdviceEdit(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00371", f.expert)
		other := e.submittedCase(f, "BL2026-00372", f.expert)
		expert, site := e.login("expert"), e.login("site")
		a := "/api/diagnosis/" + id + "/advice"
		var ad struct{ Data []adviceRow }
		e.decode(e.expect(e.do("POST", a, expert, map[string]any{"kind": "special", "items": []any{
			map[string]any{"item": "immunohistochemisty", "markers": "CK, CD20", "block": "A1"},
		}}), 200), &ad)
		e.decode(e.expect(e.do("POST", a, expert, map[string]any{"kind": "technical", "items": []any{map[string]any{"item": "deep_cut", "block": "B1"}}}), 200), &ad)
		ihc, cut := itoa(ad.Data[0].ID), itoa(ad.Data[1].ID)
		good := map[string]any{"item": "immunohistochemisty", "markers": "CK, CD20, Ki-67", "block": "A2", "remark": "加做 Ki-67"}

		t.Run("Refused", func(t *testing.T) {
			before := e.advicesSnapshot()
			for _, c := range []struct {
				body  map[string]any
				field string
				zh    string
			}{
				{map[string]any{"item": "deep_cut", "markers": "CK"}, "items", "未知的医嘱项目"},
				{map[string]any{"item": "immunohistochemisty", "markers": "  "}, "items", "请填写需要检测的标记物或染色"},
				{map[string]any{"item": "immunohistochemisty", "markers": "CK", "block": "Z9"}, "items", "该病例没有此蜡块"},
			} {
				if m := e.fieldMessage(e.do("POST", a+"/"+ihc, expert, c.body), c.field); !strings.Contains(m, c.zh) {
					t.Fatalf("%v: %q", c.body, m)
				}
				if m := e.fieldMessage(e.do("POST", a+"/"+ihc, expert, c.body, "user-language", "en-US"), c.field); m == "" || strings.ContainsFunc(m, isHan) {
					t.Fatalf("%v in English: %q", c.body, m)
				}
			}
			e.expect(e.do("POST", a+"/"+cut, expert, map[string]any{"item": "immunohistochemisty"}), 422)
			e.expect(e.do("POST", "/api/diagnosis/"+other+"/advice/"+ihc, expert, good), 404)
			e.expect(e.do("POST", a+"/999999", expert, good), 404)
			e.expect(e.do("POST", a+"/"+ihc, e.login("expert2"), good), 404)
			e.expect(e.do("POST", a+"/"+ihc, site, good), 403)
			e.expect(e.do("POST", a+"/"+ihc, e.login("admin"), good), 403)
			e.expect(e.do("POST", a+"/"+ihc, "", good), 401)
			if after := e.advicesSnapshot(); after != before {
				t.Fatalf("refused edits changed:\n%s\n%s", before, after)
			}
		})
		t.Run("Allowed", func(t *testing.T) {
			e.decode(e.expect(e.do("POST", a+"/"+ihc, expert, good), 200), &ad)
			if r := ad.Data[0]; r.Markers != "CK, CD20, Ki-67" || r.Block != "A2" || r.Status != "pending" {
				t.Fatalf("after edit: %+v", r)
			}
			if n := e.count("case_logs", "consult_id = ? AND action = 'advice_update' AND detail LIKE ?", id, "%CK, CD20 A1 → %Ki-67 A2%"); n != 1 {
				t.Fatalf("edit log lines: %d", n)
			}
			if n := e.audited("advice.update", ad.Data[0].ID); n != 1 {
				t.Fatalf("edit audit: %d", n)
			}
		})
		t.Run("NotPending", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/advice/execute/"+ihc, site, map[string]any{"result": "已做"}), 200)
			before := e.advicesSnapshot()
			r := e.expect(e.do("POST", a+"/"+ihc, expert, map[string]any{"item": "immunohistochemisty", "markers": "CK"}), 409)
			if !strings.Contains(message(r), "待执行") {
				t.Fatalf("message: %s", r)
			}
			if after := e.advicesSnapshot(); after != before {
				t.Fatalf("refused edit changed:\n%s\n%s", before, after)
			}
		})
	})
}

func isHan(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }

// caseWithIHC is submittedCase with immunohistochemistry entered by the site.
func (e *env) caseWithIHC(f caseFixture, number, ihc string, expert int64) string {
	e.t.Helper()
	site, alloc := e.login("site"), e.login("allocator")
	reg := registration(f, number, e.slide(f.hospital, "site"))
	reg["immunohistochemisty"] = ihc
	var c caseOut
	e.decode(e.expect(e.do("POST", "/api/consultation", site, reg), 200), &c)
	id := itoa(c.Data.ID)
	e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
	e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
	e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": expert}), 200)
	return id
}

func TestAdviceResults(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.caseWithIHC(f, "BL2026-00381", "外院：Vimentin（+）", f.expert)
		expert, site, third := e.login("expert"), e.login("site"), e.login("third")
		a := "/api/diagnosis/" + id + "/advice"
		var ad struct{ Data []adviceRow }
		e.decode(e.expect(e.do("POST", a, expert, map[string]any{"kind": "special", "items": []any{
			map[string]any{"item": "immunohistochemisty", "markers": "CK, CD20, Ki-67", "block": "A1"},
			map[string]any{"item": "special_stain", "markers": "PAS", "block": "A2"},
		}}), 200), &ad)
		e.decode(e.expect(e.do("POST", a, expert, map[string]any{"kind": "technical", "items": []any{map[string]any{"item": "deep_cut"}}}), 200), &ad)
		ihc, stain, cut := itoa(ad.Data[0].ID), itoa(ad.Data[1].ID), itoa(ad.Data[2].ID)
		store := func(adviceID, token string, body any, h ...string) resp {
			return e.do("POST", "/api/advice/detail_store/"+adviceID, token, body, h...)
		}
		rows := func(pairs ...string) map[string]any {
			var l []any
			for i := 0; i+1 < len(pairs); i += 2 {
				l = append(l, map[string]any{"marker": pairs[i], "result": pairs[i+1]})
			}
			return map[string]any{"results": l}
		}
		good := rows("CK", "+", "CD20", "-", "Ki-67", "约30%+")

		t.Run("NotReady", func(t *testing.T) {
			before := e.advicesSnapshot()
			if r := e.expect(store(ihc, expert, good), 409); !strings.Contains(message(r), "尚未执行") {
				t.Fatalf("pending: %s", r)
			}
			e.expect(e.do("POST", "/api/consultation/doctor_advice/execute/"+cut, site, map[string]any{"result": "已深切"}), 200)
			e.allowThirds()
			e.expect(e.do("POST", "/api/consultation/advice/transfer/"+stain, site, map[string]any{"third_id": e.userID("third")}), 200)
			before = e.advicesSnapshot()
			if r := e.expect(store(cut, expert, good, "user-language", "en-US"), 409); !strings.Contains(message(r), "Only special exams") {
				t.Fatalf("technical: %s", r)
			}
			e.expect(store(stain, expert, rows("PAS", "+")), 409)
			e.expect(store("999999", expert, good), 404)
			if after := e.advicesSnapshot(); after != before {
				t.Fatalf("refused stores changed:\n%s\n%s", before, after)
			}
		})
		t.Run("BadInput", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/advice/execute/"+ihc, site, map[string]any{"result": "已做免疫组化"}), 200)
			before := e.advicesSnapshot()
			many := []string{}
			for i := range 51 {
				many = append(many, fmt.Sprint("M", i), "+")
			}
			long := strings.Repeat("阳", 101)
			for name, body := range map[string]any{
				"none":          rows(),
				"empty marker":  rows("CK", "+", " ", "-"),
				"empty result":  rows("CK", ""),
				"duplicate":     rows("CK", "+", "ck", "-"),
				"too many":      rows(many...),
				"long result":   rows("CK", long),
				"long marker":   rows(strings.Repeat("M", 51), "+"),
				"long interpr.": map[string]any{"results": rows("CK", "+")["results"], "interpretation": strings.Repeat("解", 1001)},
			} {
				r := store(ihc, expert, body)
				e.expect(r, 422)
				if m := message(r); m == "" {
					t.Fatalf("%s: no message: %s", name, r)
				}
				if en := message(store(ihc, expert, body, "user-language", "en-US")); en == "" || strings.ContainsFunc(en, isHan) {
					t.Fatalf("%s in English: %q", name, en)
				}
			}
			if m := e.fieldMessage(store(ihc, expert, rows("CK", "+", "ck", "-")), "results"); !strings.Contains(m, "重复") {
				t.Fatalf("duplicate: %q", m)
			}
			e.expect(store(ihc, e.login("expert2"), good), 404)
			e.expect(store(ihc, site, good), 403)
			e.expect(store(ihc, e.login("admin"), good), 403)
			e.expect(store(ihc, "", good), 401)
			if after := e.advicesSnapshot(); after != before {
				t.Fatalf("refused stores changed:\n%s\n%s", before, after)
			}
		})
		var one struct{ Data adviceRow }
		t.Run("StoreAndReplace", func(t *testing.T) {
			e.decode(e.expect(store(ihc, expert, map[string]any{"results": rows("CK", "-", "CD3", "+")["results"], "interpretation": "初读"}), 200), &one)
			if len(one.Data.MarkerResults) != 2 || one.Data.Interpretation != "初读" {
				t.Fatalf("stored: %+v", one.Data)
			}
			e.decode(e.expect(store(ihc, expert, map[string]any{"results": good["results"], "interpretation": " 支持淋巴瘤 "}), 200), &one)
			r := one.Data
			if len(r.MarkerResults) != 3 || r.MarkerResults[2].Marker != "Ki-67" || r.MarkerResults[2].Result != "约30%+" || r.Interpretation != "支持淋巴瘤" {
				t.Fatalf("replaced: %+v", r)
			}
			if n := e.count("case_logs", "consult_id = ? AND action = 'advice_results'", id); n != 2 {
				t.Fatalf("results log lines: %d", n)
			}
			if n := e.audited("advice.results", r.ID); n != 2 {
				t.Fatalf("results audit: %d", n)
			}
			// The site sees them read-only with the case's advice.
			e.decode(e.expect(e.do("GET", "/api/consultation/advice/"+id, site, nil), 200), &ad)
			if len(ad.Data[0].MarkerResults) != 3 || len(ad.Data[1].MarkerResults) != 0 {
				t.Fatalf("site sees: %+v", ad.Data)
			}
		})
		t.Run("AfterThirdParty", func(t *testing.T) {
			e.expect(e.do("POST", "/api/third/addadvice/"+stain, third, map[string]any{"result": "PAS 阳性"}), 200)
			e.decode(e.expect(store(stain, expert, rows("PAS", "+")), 200), &one)
			if len(one.Data.MarkerResults) != 1 || one.Data.Status != "done" {
				t.Fatalf("after third: %+v", one.Data)
			}
		})
		t.Run("Report", func(t *testing.T) {
			d := "/api/diagnosis/" + id
			e.expect(e.do("POST", d+"/lock", expert, nil), 200)
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"microscopic": "弥漫淋巴样细胞。", "opinion": "（胃窦）淋巴瘤。"}), 200)
			for lang, want := range map[string][]string{
				"zh-CN": {"外院：Vimentin（+）", "CK（+），CD20（-），Ki-67（约30%+）", "支持淋巴瘤", "特殊染色：PAS（+）"},
				"en-US": {"外院：Vimentin（+）", "CK(+),CD20(-),Ki-67(约30%+)", "支持淋巴瘤", "Specialstain:PAS(+)"},
			} {
				pdf := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, expert, nil, "user-language", lang), 200)
				text, ok := pdfText(t, pdf.Body)
				if !ok {
					return
				}
				at := 0
				for _, w := range want {
					i := strings.Index(text[at:], strings.ReplaceAll(w, " ", ""))
					if i < 0 {
						t.Fatalf("%s: %q missing or out of order in:\n%s", lang, w, text)
					}
					at += i
				}
			}
		})
	})
}
