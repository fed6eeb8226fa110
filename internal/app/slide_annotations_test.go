package app_test

import (
	"strings"
	"testing"
)

type annSet struct {
	UserID  int64            `json:"user_id"`
	Name    string           `json:"name"`
	Labels  []map[string]any `json:"labels"`
	Version int              `json:"version"`
}

type annOut struct {
	Data struct {
		Mine   annSet   `json:"mine"`
		Others []annSet `json:"others"`
	} `json:"data"`
}

func rectLabel(id int, x, y float64) map[string]any {
	return map[string]any{"id": id, "tool": "rect", "points": []map[string]float64{{"x": x, "y": y}, {"x": x + 100, "y": y + 80}},
		"color": "#027AFF", "lineWidth": 2, "description": "腺体异型"}
}

func TestSlideAnnotations(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-05001", f.expert)
		expert, expert2, site, site2 := e.login("expert"), e.login("expert2"), e.login("site"), e.login("site2")
		var slideID int64
		if err := e.app.DB.Get(&slideID, e.app.DB.Rebind("SELECT id FROM slides WHERE consult_id = CAST(? AS BIGINT)"), id); err != nil {
			t.Fatal(err)
		}
		a := "/api/slides/" + itoa(slideID) + "/annotations"

		// nothing yet: an empty set of one's own
		var got annOut
		e.decode(e.expect(e.do("GET", a, expert, nil), 200), &got)
		if len(got.Data.Mine.Labels) != 0 || got.Data.Mine.Version != 0 || len(got.Data.Others) != 0 {
			t.Fatalf("empty: %+v", got.Data)
		}

		// save, then save again: the set is replaced and its version rises
		e.expect(e.do("PUT", a, expert, map[string]any{"labels": []any{rectLabel(2, 10, 10), rectLabel(3, 500, 300)}}), 200)
		e.expect(e.do("PUT", a, expert, map[string]any{"labels": []any{rectLabel(2, 10, 10), rectLabel(3, 500, 300), map[string]any{
			"id": 4, "tool": "text", "points": []map[string]float64{{"x": 40, "y": 50}}, "color": "#FF6261", "lineWidth": 2, "description": "核分裂", "fontSize": 16}}}), 200)
		e.decode(e.expect(e.do("GET", a, expert, nil), 200), &got)
		if len(got.Data.Mine.Labels) != 3 || got.Data.Mine.Version != 2 || got.Data.Mine.Labels[2]["description"] != "核分裂" {
			t.Fatalf("saved: %+v", got.Data.Mine)
		}

		t.Run("Validation", func(t *testing.T) {
			bad := map[string]map[string]any{
				"rect with three points": {"id": 5, "tool": "rect", "points": []map[string]float64{{"x": 1, "y": 1}, {"x": 2, "y": 2}, {"x": 3, "y": 3}}, "color": "#027AFF", "lineWidth": 2, "description": ""},
				"polygon of two points":  {"id": 5, "tool": "polygon", "points": []map[string]float64{{"x": 1, "y": 1}, {"x": 2, "y": 2}}, "color": "#027AFF", "lineWidth": 2, "description": ""},
				"far outside the slide":  {"id": 5, "tool": "line", "points": []map[string]float64{{"x": 1, "y": 1}, {"x": 5e7, "y": 2}}, "color": "#027AFF", "lineWidth": 2, "description": ""},
				"text without text":      {"id": 5, "tool": "text", "points": []map[string]float64{{"x": 1, "y": 1}}, "color": "#027AFF", "lineWidth": 2, "description": ""},
				"unknown tool":           {"id": 5, "tool": "star", "points": []map[string]float64{{"x": 1, "y": 1}, {"x": 2, "y": 2}}, "color": "#027AFF", "lineWidth": 2, "description": ""},
				"bad colour":             {"id": 5, "tool": "rect", "points": []map[string]float64{{"x": 1, "y": 1}, {"x": 2, "y": 2}}, "color": "red; x", "lineWidth": 2, "description": ""},
				"line width 0":           {"id": 5, "tool": "rect", "points": []map[string]float64{{"x": 1, "y": 1}, {"x": 2, "y": 2}}, "color": "#027AFF", "lineWidth": 0, "description": ""},
				"duplicate id":           rectLabel(2, 1, 1),
			}
			for name, l := range bad {
				r := e.expect(e.do("PUT", a, expert, map[string]any{"labels": []any{rectLabel(2, 10, 10), l}}, "user-language", "en-US"), 422)
				if message(r) == "" || strings.Contains(message(r), "slide.") {
					t.Errorf("%s: not localized: %s", name, r)
				}
			}
			r := e.expect(e.do("PUT", a, expert, map[string]any{"labels": []any{bad["polygon of two points"]}}, "user-language", "zh-CN"), 422)
			if !strings.Contains(message(r), "标注") {
				t.Errorf("zh-CN: %s", r)
			}
			// more than the body cap
			big := make([]any, 0, 20000)
			for i := 0; i < 20000; i++ {
				l := rectLabel(i+2, 1, 1)
				l["description"] = strings.Repeat("x", 1000)
				big = append(big, l)
			}
			e.expect(e.do("PUT", a, expert, map[string]any{"labels": big}), 413)
			// nothing written by the refusals
			e.decode(e.expect(e.do("GET", a, expert, nil), 200), &got)
			if len(got.Data.Mine.Labels) != 3 || got.Data.Mine.Version != 2 {
				t.Fatalf("after refusals: %+v", got.Data.Mine)
			}
		})

		t.Run("OtherExpertsReadOnly", func(t *testing.T) {
			// expert2 cannot see the case until invited
			e.expect(e.do("GET", a, expert2, nil), 404)
			e.expect(e.do("PUT", a, expert2, map[string]any{"labels": []any{}}), 404)
			d := "/api/diagnosis/" + id
			e.expect(e.do("POST", d+"/lock", expert, nil), 200)
			e.expect(e.do("POST", d+"/invited", expert, map[string]any{"invitee_ids": []int64{f.expert2}, "message": "请看切片标注"}), 200)
			e.decode(e.expect(e.do("GET", a, expert2, nil), 200), &got)
			if len(got.Data.Mine.Labels) != 0 || len(got.Data.Others) != 1 || got.Data.Others[0].UserID != f.expert || len(got.Data.Others[0].Labels) != 3 || got.Data.Others[0].Name == "" {
				t.Fatalf("expert2 sees: %+v", got.Data)
			}
			// expert2's own set is separate; saving it leaves expert's alone
			e.expect(e.do("PUT", a, expert2, map[string]any{"labels": []any{rectLabel(2, 900, 900)}}), 200)
			e.decode(e.expect(e.do("GET", a, expert, nil), 200), &got)
			if len(got.Data.Mine.Labels) != 3 || len(got.Data.Others) != 1 || got.Data.Others[0].UserID != f.expert2 {
				t.Fatalf("expert sees: %+v", got.Data)
			}
			// clearing one's set hides it from the others
			e.expect(e.do("PUT", a, expert2, map[string]any{"labels": []any{}}), 200)
			e.decode(e.expect(e.do("GET", a, expert, nil), 200), &got)
			if len(got.Data.Others) != 0 {
				t.Fatalf("cleared set still shown: %+v", got.Data.Others)
			}
		})

		t.Run("Scope", func(t *testing.T) {
			e.expect(e.do("GET", a, site, nil), 200)
			e.expect(e.do("GET", a, site2, nil), 404)
			e.expect(e.do("PUT", a, site2, map[string]any{"labels": []any{rectLabel(2, 1, 1)}}), 404)
			e.expect(e.do("GET", "/api/slides/999999/annotations", expert, nil), 404)
			if n := e.count("slide_annotations", "slide_id = ?", slideID); n != 2 {
				t.Fatalf("rows: %d", n)
			}
		})
	})
}
