package app_test

import (
	"strings"
	"testing"
)

type termRow struct {
	ID        int64  `json:"id"`
	Category  string `json:"category"`
	Text      string `json:"text"`
	SortOrder int    `json:"sort_order"`
	Public    bool   `json:"public"`
}

// Diagnosis terms (spec 2 "diagnosis templates and terminology"): an expert
// keeps their own, an administrator the public ones every expert sees; no one
// else may touch them, and a refused write writes nothing.
func TestDiagnosisTerms(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		expert, expert2, admin, site := e.login("expert"), e.login("expert2"), e.login("admin"), e.login("site")
		save := func(token, path string, body map[string]any) (resp, termRow) {
			r := e.do("POST", "/api/config/term"+path, token, body)
			var out struct{ Data termRow }
			if r.Status == 200 {
				e.decode(r, &out)
			}
			return r, out.Data
		}
		list := func(token string) []termRow {
			var out struct{ Data []termRow }
			e.decode(e.expect(e.do("GET", "/api/config/term", token, nil), 200), &out)
			return out.Data
		}
		texts := func(l []termRow) string {
			var s []string
			for _, x := range l {
				s = append(s, x.Category+":"+x.Text)
			}
			return strings.Join(s, "|")
		}

		// An administrator's public terms; an expert's own.
		_, pub := save(admin, "", map[string]any{"category": "乳腺", "text": "浸润性导管癌", "sort_order": 2, "public": true})
		_, pub2 := save(admin, "", map[string]any{"category": "乳腺", "text": "导管原位癌", "sort_order": 1, "public": true})
		r, mine := save(expert, "", map[string]any{"category": " 通用 ", "text": " 建议结合临床及影像学检查 "})
		e.expect(r, 200)
		if !pub.Public || !pub2.Public || mine.Public || mine.Text != "建议结合临床及影像学检查" || mine.Category != "通用" {
			t.Fatalf("saved: %+v %+v %+v", pub, pub2, mine)
		}
		if got := texts(list(expert)); got != "乳腺:导管原位癌|乳腺:浸润性导管癌|通用:建议结合临床及影像学检查" {
			t.Fatalf("expert's list: %s", got)
		}
		if got := texts(list(expert2)); got != "乳腺:导管原位癌|乳腺:浸润性导管癌" {
			t.Fatalf("expert2's list: %s", got)
		}

		// Only the owner changes their term; only an administrator a public one.
		e.expect(e.do("POST", "/api/config/term/"+itoa(mine.ID), expert2, map[string]any{"text": "x"}), 404)
		e.expect(e.do("DELETE", "/api/config/term/"+itoa(mine.ID), expert2, nil), 404)
		e.expect(e.do("POST", "/api/config/term/"+itoa(mine.ID), admin, map[string]any{"text": "x"}), 404)
		e.expect(e.do("POST", "/api/config/term/"+itoa(pub.ID), expert, map[string]any{"text": "x"}), 404)
		e.expect(e.do("DELETE", "/api/config/term/"+itoa(pub.ID), expert, nil), 404)
		e.expect(e.do("POST", "/api/config/term", site, map[string]any{"text": "x"}), 403)
		e.expect(e.do("GET", "/api/config/term", site, nil), 403)
		e.expect(e.do("DELETE", "/api/config/term/"+itoa(mine.ID), site, nil), 403)
		e.expect(e.do("POST", "/api/config/term", "", map[string]any{"text": "x"}), 401)
		e.expect(e.do("GET", "/api/config/term", "", nil), 401)
		r, changed := save(expert, "/"+itoa(mine.ID), map[string]any{"category": "通用", "text": "淋巴结（0/12）未见转移", "sort_order": 5})
		e.expect(r, 200)
		if changed.ID != mine.ID || changed.Text != "淋巴结（0/12）未见转移" || changed.SortOrder != 5 {
			t.Fatalf("changed: %+v", changed)
		}
		r, pubChanged := save(admin, "/"+itoa(pub.ID), map[string]any{"category": "乳腺", "text": "浸润性导管癌，非特殊类型", "sort_order": 2, "public": true})
		e.expect(r, 200)
		if !pubChanged.Public || pubChanged.Text != "浸润性导管癌，非特殊类型" {
			t.Fatalf("public changed: %+v", pubChanged)
		}
		if n := e.count("audit_logs", "object_type = ? AND action IN ('term.create', 'term.update')", "diagnosis_term"); n != 5 {
			t.Fatalf("audit lines: %d", n)
		}

		// Bad input: localized field errors in both languages, nothing written.
		rows := e.count("diagnosis_terms", "")
		for _, c := range []struct {
			name, token, path, field string
			body                     map[string]any
		}{
			{"empty text", expert, "", "text", map[string]any{"category": "通用", "text": "  "}},
			{"text too long", expert, "", "text", map[string]any{"text": strings.Repeat("癌", 201)}},
			{"category too long", expert, "", "category", map[string]any{"category": strings.Repeat("胃", 31), "text": "管状腺癌"}},
			{"order out of range", expert, "", "sort_order", map[string]any{"text": "管状腺癌", "sort_order": 10000}},
			{"public by an expert", expert, "", "public", map[string]any{"text": "管状腺癌", "public": true}},
			{"duplicate of mine", expert, "", "text", map[string]any{"category": "通用", "text": " 淋巴结（0/12）未见转移"}},
			{"duplicate public", admin, "", "text", map[string]any{"category": "乳腺", "text": "导管原位癌", "public": true}},
			{"duplicate by update", admin, "/" + itoa(pub2.ID), "text", map[string]any{"category": "乳腺", "text": "浸润性导管癌，非特殊类型", "public": true}},
			{"too long on update", expert, "/" + itoa(mine.ID), "text", map[string]any{"text": strings.Repeat("a", 201)}},
		} {
			for _, lang := range []string{"zh-CN", "en-US"} {
				r := e.do("POST", "/api/config/term"+c.path, c.token, c.body, "user-language", lang)
				if !fieldRefusedIn(e, r, lang, c.field) {
					t.Errorf("%s (%s): %d %s", c.name, lang, r.Status, r.Body)
				}
			}
		}
		if n := e.count("diagnosis_terms", ""); n != rows {
			t.Fatalf("refused writes changed the rows: %d, had %d", n, rows)
		}
		if got := texts(list(expert)); got != "乳腺:导管原位癌|乳腺:浸润性导管癌，非特殊类型|通用:淋巴结（0/12）未见转移" {
			t.Fatalf("after refusals: %s", got)
		}

		// The same text is fine for another owner or in another category.
		e.expect(e.do("POST", "/api/config/term", expert2, map[string]any{"category": "通用", "text": "淋巴结（0/12）未见转移"}), 200)
		e.expect(e.do("POST", "/api/config/term", expert, map[string]any{"category": "胃肠", "text": "淋巴结（0/12）未见转移"}), 200)
		e.expect(e.do("POST", "/api/config/term", expert, map[string]any{"category": "乳腺", "text": "导管原位癌"}), 200)

		// Deleting: the owner's own, an administrator's public; gone for everyone,
		// and its text may be used again.
		e.expect(e.do("DELETE", "/api/config/term/"+itoa(mine.ID), expert, nil), 200)
		e.expect(e.do("DELETE", "/api/config/term/"+itoa(pub2.ID), admin, nil), 200)
		e.expect(e.do("DELETE", "/api/config/term/"+itoa(mine.ID), expert, nil), 404)
		if got := texts(list(expert2)); got != "乳腺:浸润性导管癌，非特殊类型|通用:淋巴结（0/12）未见转移" {
			t.Fatalf("expert2 after deletes: %s", got)
		}
		e.expect(e.do("POST", "/api/config/term", expert, map[string]any{"category": "通用", "text": "淋巴结（0/12）未见转移"}), 200)
		if n := e.count("audit_logs", "object_type = ? AND action = ?", "diagnosis_term", "term.delete"); n != 2 {
			t.Fatalf("delete audit lines: %d", n)
		}
	})
}
