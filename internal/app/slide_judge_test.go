package app_test

import (
	"strconv"
	"testing"
)

// The assigned expert grades each slide's quality (spec 2 §7 /judge/slide/*,
// §5 grades A–D); the sending hospital reads the verdicts; everyone else is
// refused and a refusal writes nothing.
func TestSlideJudgement(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-03101", f.expert)
		other := e.submittedCase(f, "BL2026-03102", f.expert)
		expert, expert2, site, site2 := e.login("expert"), e.login("expert2"), e.login("site"), e.login("site2")
		slideOf := func(id string) int64 {
			var c struct {
				Data struct {
					Slides []struct {
						ID int64 `json:"id"`
					} `json:"slides"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 200), &c)
			return c.Data.Slides[0].ID
		}
		num := func(s string) int64 {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		slide := slideOf(id)
		store := func(token string, body map[string]any) resp {
			return e.do("POST", "/api/judge/slide/store", token, body)
		}
		body := func(slide int64, grade, reason string) map[string]any {
			return map[string]any{"consult_id": num(id), "slide_id": slide, "grade": grade, "reason": reason}
		}

		for _, c := range []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"unknown grade", body(slide, "E", ""), "grade"},
			{"no grade", body(slide, "", ""), "grade"},
			{"not qualified without reason", body(slide, "D", "  "), "reason"},
			{"another case's slide", body(slideOf(other), "B", ""), "slide_id"},
		} {
			for _, lang := range []string{"zh-CN", "en-US"} {
				r := e.do("POST", "/api/judge/slide/store", expert, c.body, "user-language", lang)
				if !fieldRefusedIn(e, r, lang, c.field) {
					t.Errorf("%s (%s): %d %s", c.name, lang, r.Status, r.Body)
				}
			}
		}
		e.expect(store(expert2, body(slide, "B", "")), 404)
		e.expect(store(site, body(slide, "B", "")), 403)
		e.expect(store("", body(slide, "B", "")), 401)
		if n := e.count("slide_judgements", "1 = 1"); n != 0 {
			t.Fatalf("refused verdicts wrote %d rows", n)
		}

		var j struct {
			Data struct {
				ID     int64  `json:"id"`
				Grade  string `json:"grade"`
				Reason string `json:"reason"`
			} `json:"data"`
		}
		e.decode(e.expect(store(expert, body(slide, "B", "")), 200), &j)
		if j.Data.Grade != "B" {
			t.Fatalf("stored: %+v", j.Data)
		}
		e.expect(store(expert, body(slide, "A", "")), 409)
		update := func(token string, grade, reason string) resp {
			return e.do("POST", "/api/judge/slide/update", token, map[string]any{"id": j.Data.ID, "grade": grade, "reason": reason})
		}
		e.expect(update(expert, "D", ""), 422)
		e.expect(update(expert2, "D", "切片刀痕明显"), 404)
		e.expect(update(site, "D", "切片刀痕明显"), 403)
		e.expect(update(expert, "D", "切片刀痕明显，组织折叠"), 200)
		if n := e.count("case_logs", "consult_id = ? AND action = ?", id, "slide_judge"); n != 2 {
			t.Fatalf("case log lines: %d", n)
		}

		// The hospital sees the verdict; another hospital does not see the case.
		var l struct {
			Data []struct {
				SlideID      int64  `json:"slide_id"`
				Grade        string `json:"grade"`
				Reason       string `json:"reason"`
				JudgedByName string `json:"judged_by_name"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id+"/slide_judgements", site, nil), 200), &l)
		if len(l.Data) != 1 || l.Data[0].SlideID != slide || l.Data[0].Grade != "D" || l.Data[0].Reason != "切片刀痕明显，组织折叠" || l.Data[0].JudgedByName == "" {
			t.Fatalf("site's view: %+v", l.Data)
		}
		e.expect(e.do("GET", "/api/consultation/resources/"+id+"/slide_judgements", site2, nil), 404)

		// Still possible once the report is out; not once the case went back.
		pub := e.publishedCase(f, "BL2026-03103", false)
		e.expect(e.do("POST", "/api/judge/slide/store", expert, map[string]any{"consult_id": num(pub), "slide_id": slideOf(pub), "grade": "A"}), 200)
		e.expect(e.do("POST", "/api/diagnosis/"+other+"/return", expert, map[string]any{"reason": "非本中心病种"}), 200)
		e.expect(e.do("POST", "/api/judge/slide/store", expert, map[string]any{"consult_id": num(other), "slide_id": slideOf(other), "grade": "A"}), 409)
	})
}
