package app_test

import (
	"slices"
	"strings"
	"testing"
)

type structTemplate struct {
	ID        int64            `json:"id"`
	Name      string           `json:"name"`
	NameEn    string           `json:"name_en"`
	Kind      string           `json:"kind"`
	Rank      int              `json:"rank"`
	Enabled   bool             `json:"enabled"`
	RuleCount int              `json:"rule_count"`
	Fields    []map[string]any `json:"fields"`
}

type structResult struct {
	Values map[string]any `json:"values"`
	Text   string         `json:"text"`
	Hints  []struct {
		Message string `json:"message"`
	} `json:"hints"`
	Errors []struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"errors"`
	Codes []struct {
		Code string `json:"code"`
	} `json:"codes"`
}

func breastValues() map[string]any {
	return map[string]any{"histological_type": "浸润性癌（非特殊类型）", "grade": "2", "tumour_size": 23,
		"margins": "未累及", "margin_distance": 4, "ln_examined": 15, "ln_positive": 2, "er": "阳性", "pr": "阴性", "her2": "2+"}
}

// Structured report templates and report rules (spec 2 §3, §7): the
// administrators keep them, experts read them and evaluate values; bad
// input is refused with localized field errors and nothing written.
func TestStructuredTemplates(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, expert, site := e.login("admin"), e.login("expert"), e.login("site")
		list := func(token, query string) []structTemplate {
			var out struct{ Data []structTemplate }
			e.decode(e.expect(e.do("GET", "/api/config/struct_template"+query, token, nil), 200), &out)
			return out.Data
		}
		demo := list(expert, "?kind=routine&enabled=true")
		if len(demo) != 1 || demo[0].Name != "乳腺浸润性癌结构化报告" || demo[0].NameEn != "Breast invasive carcinoma synoptic" || demo[0].RuleCount != 6 || len(demo[0].Fields) != 12 {
			t.Fatalf("demo templates: %+v", demo)
		}
		if len(list(expert, "?kind=frozen")) != 0 {
			t.Fatal("a routine template listed for frozen cases")
		}
		id := itoa(demo[0].ID)

		// Evaluate: the calculated ratio, the code, the hint, the sentence; a blocking error.
		evaluate := func(vals map[string]any, lang string) structResult {
			var out struct{ Data structResult }
			e.decode(e.expect(e.do("POST", "/api/config/struct_template/evaluate/"+id, expert, map[string]any{"values": vals}, "User-Language", lang), 200), &out)
			return out.Data
		}
		r := evaluate(breastValues(), "en-US")
		if r.Values["ln_ratio"] != 13.0 || len(r.Errors) != 0 || len(r.Hints) != 1 || len(r.Codes) != 1 || r.Codes[0].Code != "8500/3" ||
			!strings.Contains(r.Text, "Lymph nodes: 2/15 positive (13%)") {
			t.Fatalf("evaluate: %+v", r)
		}
		// The demo's sentence in the caller's language: its Chinese pattern, or its English one.
		if zh := evaluate(breastValues(), "zh-CN"); zh.Text != "浸润性癌（非特殊类型），组织学分级 2 级，肿瘤最大径 23 mm。切缘未累及，距最近切缘 4 mm。淋巴结转移 2/15（13%）。ER 阳性，PR 阴性，HER2 2+。" {
			t.Fatalf("the demo sentence in Chinese: %q", zh.Text)
		}
		if r.Text != "Invasive carcinoma of no special type, grade 2, tumour size 23 mm. Margins Not involved, 4 mm to the closest margin. Lymph nodes: 2/15 positive (13%). ER Positive, PR Negative, HER2 2+." {
			t.Fatalf("the demo sentence in English: %q", r.Text)
		}
		vals := breastValues()
		delete(vals, "margin_distance")
		delete(vals, "grade")
		r = evaluate(vals, "zh-CN")
		if len(r.Errors) != 2 || r.Errors[0].Field != "grade" || r.Errors[0].Message != "请填写组织学分级" || r.Errors[1].Field != "margin_distance" {
			t.Fatalf("evaluate with problems: %+v", r.Errors)
		}

		// Only administrators write; experts and others are refused.
		tpl := map[string]any{"name": "Colon synoptic", "kind": "routine", "fields": []any{
			map[string]any{"key": "depth", "label": "浸润深度", "type": "select", "options": []string{"T1", "T2", "T3"}},
			map[string]any{"key": "size", "label": "大小", "type": "number", "unit": "mm"},
		}}
		e.expect(e.do("POST", "/api/config/struct_template", expert, tpl), 403)
		e.expect(e.do("GET", "/api/config/struct_template", site, nil), 403)
		before := e.count("struct_templates", "1=1")
		audits := e.count("audit_logs", "action LIKE 'struct_%'")

		// A duplicate field key, and other bad input: field errors in the caller's language, nothing written.
		dup := map[string]any{"name": "Dup", "kind": "routine", "fields": []any{
			map[string]any{"key": "size", "label": "A", "type": "number"}, map[string]any{"key": "size", "label": "B", "type": "text"}}}
		for _, lang := range []string{"zh-CN", "en-US"} {
			r := e.do("POST", "/api/config/struct_template", admin, dup, "User-Language", lang)
			if !fieldRefusedIn(e, r, lang, "fields.1.key") {
				t.Fatalf("duplicate key (%s): %d %s", lang, r.Status, r)
			}
		}
		for name, bad := range map[string]map[string]any{
			"select without options": {"name": "X", "kind": "routine", "fields": []any{map[string]any{"key": "a", "label": "A", "type": "select"}}},
			"bad key":                {"name": "X", "kind": "routine", "fields": []any{map[string]any{"key": "A b", "label": "A", "type": "text"}}},
			"no fields":              {"name": "X", "kind": "routine", "fields": []any{}},
			"default of wrong type":  {"name": "X", "kind": "routine", "fields": []any{map[string]any{"key": "a", "label": "A", "type": "number", "default": "x"}}},
		} {
			if r := e.do("POST", "/api/config/struct_template", admin, bad); r.Status != 422 {
				t.Errorf("%s: %d %s", name, r.Status, r)
			}
		}
		if e.count("struct_templates", "1=1") != before || e.count("audit_logs", "action LIKE 'struct_%'") != audits {
			t.Fatal("a refused template was written")
		}

		// Create, rules, rank, batch, delete.
		var created struct{ Data structTemplate }
		e.decode(e.expect(e.do("POST", "/api/config/struct_template", admin, tpl), 200), &created)
		cid := itoa(created.Data.ID)
		if created.Data.Rank != 1 || !created.Data.Enabled {
			t.Fatalf("created: %+v", created.Data)
		}
		rule := func(body map[string]any) resp { return e.do("POST", "/api/config/rule", admin, body) }
		e.expect(rule(map[string]any{"template_id": created.Data.ID, "type": "calculation", "definition": map[string]any{"field": "size", "expr": "depth * 2"}}), 422)
		e.expect(rule(map[string]any{"template_id": created.Data.ID, "type": "splice", "definition": map[string]any{"pattern": "{depth} {nope}"}}), 422)
		e.expect(rule(map[string]any{"template_id": created.Data.ID, "type": "hint", "definition": map[string]any{"when": map[string]any{"field": "depth", "op": "eq", "value": "T9"}}, "message": "x"}), 422)
		var rl struct {
			Data struct {
				ID int64 `json:"id"`
			}
		}
		e.decode(e.expect(rule(map[string]any{"template_id": created.Data.ID, "type": "splice", "definition": map[string]any{"pattern": "pT: {depth}[, {size} mm]"}}), 200), &rl)
		e.expect(e.do("POST", "/api/config/rule", expert, map[string]any{"template_id": created.Data.ID, "type": "splice", "definition": map[string]any{"pattern": "{depth}"}}), 403)
		// A field a rule uses is not removed.
		tpl2 := map[string]any{"name": "Colon synoptic", "kind": "routine", "fields": []any{map[string]any{"key": "size", "label": "大小", "type": "number"}}}
		if r := e.do("POST", "/api/config/struct_template/"+cid, admin, tpl2); !fieldRefusedIn(e, r, "zh-CN", "fields") {
			t.Fatalf("removing a used field: %d %s", r.Status, r)
		}
		e.expect(e.do("POST", "/api/config/rule/batchStore", admin, map[string]any{"template_id": created.Data.ID, "rules": []any{
			map[string]any{"type": "conditions", "definition": map[string]any{"when": map[string]any{"field": "depth", "op": "eq", "value": "T3"}, "require": []string{"size"}}},
			map[string]any{"type": "splice", "definition": map[string]any{"pattern": "{depth}"}},
		}}), 200)
		var rules struct {
			Data []struct {
				ID   int64  `json:"id"`
				Type string `json:"type"`
			}
		}
		e.decode(e.expect(e.do("GET", "/api/config/rule?template_id="+cid, expert, nil), 200), &rules)
		if len(rules.Data) != 2 || rules.Data[0].Type != "conditions" {
			t.Fatalf("rules after batch: %+v", rules.Data)
		}
		e.expect(e.do("GET", "/api/config/rule/"+itoa(rl.Data.ID), admin, nil), 404)
		e.expect(e.do("DELETE", "/api/config/rule/"+itoa(rules.Data[1].ID), admin, map[string]any{"reason": "not needed"}), 200)
		e.expect(e.do("POST", "/api/config/struct_template/rank/"+cid, admin, map[string]any{"position": 0}), 200)
		if l := list(expert, ""); len(l) != 2 || l[0].ID != created.Data.ID {
			t.Fatalf("after rank: %+v", l)
		}
		r2 := e.do("POST", "/api/config/struct_template/batchStore", admin, map[string]any{"templates": []any{
			map[string]any{"name": "A", "kind": "cell", "fields": []any{map[string]any{"key": "a", "label": "A", "type": "text"}}},
			map[string]any{"name": "B", "kind": "cell", "fields": []any{map[string]any{"key": "a", "label": "A", "type": "text"}},
				"rules": []any{map[string]any{"type": "splice", "definition": map[string]any{"pattern": "{b}"}}}},
		}})
		if !fieldRefusedIn(e, r2, "zh-CN", "templates.1.rules.0.definition.pattern") || len(list(expert, "?kind=cell")) != 0 {
			t.Fatalf("batch with a bad rule: %d %s", r2.Status, r2)
		}
		e.expect(e.do("DELETE", "/api/config/struct_template/"+cid, admin, map[string]any{}), 200)
		if len(list(expert, "")) != 1 {
			t.Fatal("deleted template listed")
		}
		e.expect(e.do("POST", "/api/config/struct_template/evaluate/"+cid, expert, map[string]any{"values": map[string]any{}}), 404)

		// Symbols: experts read, administrators add, reorder and remove.
		var syms struct {
			Data []struct {
				ID   int64  `json:"id"`
				Text string `json:"text"`
			}
		}
		e.decode(e.expect(e.do("GET", "/api/config/symbol/lists", expert, nil), 200), &syms)
		if len(syms.Data) < 5 || syms.Data[0].Text != "±" {
			t.Fatalf("symbols: %+v", syms.Data)
		}
		e.expect(e.do("POST", "/api/config/symbol/store", admin, map[string]any{"text": "±"}), 422)
		e.expect(e.do("POST", "/api/config/symbol/store", expert, map[string]any{"text": "∞"}), 403)
		e.expect(e.do("POST", "/api/config/symbol/store", admin, map[string]any{"text": "∞"}), 200)
		first, second := syms.Data[0], syms.Data[1]
		e.decode(e.expect(e.do("POST", "/api/config/symbol/update", admin, map[string]any{"symbols": []any{
			map[string]any{"id": second.ID, "text": first.Text}, map[string]any{"id": first.ID, "text": second.Text}, map[string]any{"text": "√"}}}), 200), &syms)
		if len(syms.Data) != 3 || syms.Data[0].Text != "±" || syms.Data[0].ID != second.ID || syms.Data[2].Text != "√" {
			t.Fatalf("symbols after update: %+v", syms.Data)
		}
		e.expect(e.do("POST", "/api/config/symbol/update", admin, map[string]any{"symbols": []any{map[string]any{"text": "a"}, map[string]any{"text": "a"}}}), 422)
	})
}

// A diagnosis with structured values that fail a blocking rule is not
// published, and the case does not list publish; fixed, it is and does.
func TestStructuredPublish(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00871", f.expert)
		expert := e.login("expert")
		var l struct{ Data []structTemplate }
		e.decode(e.expect(e.do("GET", "/api/config/struct_template?enabled=true", expert, nil), 200), &l)
		tid := l.Data[0].ID
		d := "/api/diagnosis/" + id
		actions := func() []string {
			var c struct {
				Data struct {
					Actions []string `json:"actions"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 200), &c)
			return c.Data.Actions
		}
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		// Values of the wrong type are not saved.
		bad := breastValues()
		bad["grade"] = "7"
		e.expect(e.do("POST", d+"/structured", expert, map[string]any{"template_id": tid, "values": bad}), 422)
		e.expect(e.do("POST", d+"/structured", expert, map[string]any{"template_id": 999999, "values": bad}), 422)
		if e.count("diagnoses", "consult_id = ?", id) != 0 {
			t.Fatal("refused structured values wrote a diagnosis")
		}
		// Saved with a failing conditions rule: publish is neither listed nor allowed.
		failing := breastValues()
		delete(failing, "margin_distance")
		e.expect(e.do("POST", d+"/structured", expert, map[string]any{"template_id": tid, "values": failing}), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "Invasive carcinoma of no special type, grade 2."}), 200)
		var h struct {
			Data []struct {
				StructTemplateID int64          `json:"struct_template_id"`
				StructValues     map[string]any `json:"struct_values"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, expert, nil), 200), &h)
		if len(h.Data) != 1 || h.Data[0].StructTemplateID != tid || h.Data[0].StructValues["grade"] != "2" {
			t.Fatalf("saved: %+v", h.Data)
		}
		if slices.Contains(actions(), "publish") {
			t.Fatalf("publish listed with failing structured values: %v", actions())
		}
		r := e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}, "User-Language", "en-US"), 409)
		if m := message(r); !strings.Contains(m, "Margins not involved: give the distance to the closest margin") {
			t.Fatalf("refusal: %s", m)
		}
		// Fixed: listed and published.
		e.expect(e.do("POST", d+"/structured", expert, map[string]any{"template_id": tid, "values": breastValues()}), 200)
		if !slices.Contains(actions(), "publish") {
			t.Fatalf("publish not listed once fixed: %v", actions())
		}
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)

		// An amendment is a new version that starts from the structured values of the released one.
		e.expect(e.do("POST", d+"/update", expert, map[string]any{"reason": "免疫组化结果回报"}), 200)
		e.decode(e.expect(e.do("GET", d, expert, nil), 200), &h)
		if len(h.Data) != 2 || h.Data[1].StructTemplateID != tid || h.Data[1].StructValues["grade"] != "2" || h.Data[1].StructValues["tumour_size"] != 23.0 {
			t.Fatalf("amended version's structured values: %+v", h.Data)
		}
		// Changed in the new version, the released one keeps its own.
		changed := breastValues()
		changed["grade"] = "3"
		e.expect(e.do("POST", d+"/structured", expert, map[string]any{"template_id": tid, "values": changed}), 200)
		e.decode(e.expect(e.do("GET", d, expert, nil), 200), &h)
		if h.Data[0].StructValues["grade"] != "2" || h.Data[1].StructValues["grade"] != "3" {
			t.Fatalf("versions after a change: %+v", h.Data)
		}
	})
}

// Templates in two languages: field labels, option labels and rule messages
// are entered in Chinese and English and read in the caller's language (a
// template in Chinese only reads in Chinese in English too); a field's
// default must be of its type and among its options.
func TestStructuredBilingual(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, expert := e.login("admin"), e.login("expert")
		fields := func(def any) []any {
			return []any{
				map[string]any{"key": "margin", "label": "切缘", "label_en": "Margin", "type": "select",
					"options": []string{"未累及", "累及"}, "options_en": []string{"Not involved", "Involved"}, "default": def},
				map[string]any{"key": "sites", "label": "部位", "type": "multiselect", "options": []string{"左", "右"}, "options_en": []string{"Left"}},
				map[string]any{"key": "distance", "label": "距离", "label_en": "Distance", "type": "number", "default": 5},
				map[string]any{"key": "nodes", "label": "淋巴结", "type": "bool", "default": false},
			}
		}
		tpl := map[string]any{"name": "双语模板", "name_en": " Bilingual template ", "kind": "routine", "fields": fields("未累及")}
		before, audits := e.count("struct_templates", "1=1"), e.count("audit_logs", "action LIKE 'struct_%'")
		bad := map[string]struct {
			body  map[string]any
			field string
		}{
			"default not an option": {map[string]any{"name": "X", "kind": "routine", "fields": fields("Involved")}, "fields.0.default"},
			"default of wrong type": {map[string]any{"name": "X", "kind": "routine", "fields": []any{map[string]any{"key": "a", "label": "A", "type": "bool", "default": "yes"}}}, "fields.0.default"},
			"multiselect default":   {map[string]any{"name": "X", "kind": "routine", "fields": []any{map[string]any{"key": "a", "label": "A", "type": "multiselect", "options": []string{"左"}, "default": []string{"右"}}}}, "fields.0.default"},
			"more English options":  {map[string]any{"name": "X", "kind": "routine", "fields": []any{map[string]any{"key": "a", "label": "A", "type": "select", "options": []string{"左"}, "options_en": []string{"Left", "Right"}}}}, "fields.0.options_en"},
			"long English name":     {map[string]any{"name": "X", "name_en": strings.Repeat("x", 101), "kind": "routine", "fields": fields(nil)}, "name_en"},
			"duplicate key":         {map[string]any{"name": "X", "kind": "routine", "fields": []any{map[string]any{"key": "a", "label": "A", "type": "text"}, map[string]any{"key": "a", "label": "B", "type": "number", "default": 1}}}, "fields.1.key"},
		}
		for name, c := range bad {
			for _, lang := range []string{"zh-CN", "en-US"} {
				if r := e.do("POST", "/api/config/struct_template", admin, c.body, "User-Language", lang); !fieldRefusedIn(e, r, lang, c.field) {
					t.Errorf("%s (%s): %d %s", name, lang, r.Status, r)
				}
			}
		}
		if e.count("struct_templates", "1=1") != before || e.count("audit_logs", "action LIKE 'struct_%'") != audits {
			t.Fatal("a refused template was written")
		}

		var created struct{ Data structTemplate }
		e.decode(e.expect(e.do("POST", "/api/config/struct_template", admin, tpl), 200), &created)
		if created.Data.NameEn != "Bilingual template" {
			t.Fatalf("English name kept: %q", created.Data.NameEn)
		}
		f0 := created.Data.Fields[0]
		if f0["default"] != "未累及" || len(f0["options_en"].([]any)) != 2 || created.Data.Fields[2]["default"] != 5.0 || created.Data.Fields[3]["default"] != false {
			t.Fatalf("defaults and English options kept: %+v", created.Data.Fields)
		}
		tid := created.Data.ID
		// Editing a default to one outside the options is refused too; the template is unchanged.
		if r := e.do("POST", "/api/config/struct_template/"+itoa(tid), admin, map[string]any{"name": "双语模板", "kind": "routine", "fields": fields("x")}, "User-Language", "en-US"); !fieldRefusedIn(e, r, "en-US", "fields.0.default") {
			t.Fatalf("update with a bad default: %d %s", r.Status, r)
		}
		e.expect(e.do("POST", "/api/config/rule/batchStore", admin, map[string]any{"template_id": tid, "rules": []any{
			map[string]any{"type": "splice", "definition": map[string]any{"pattern": "{margin}[ {sites}][ {distance} mm]", "pattern_en": "Margin {margin}[ ({sites})][, {distance} mm]"}},
			map[string]any{"type": "hint", "definition": map[string]any{"when": map[string]any{"field": "margin", "op": "eq", "value": "累及"}},
				"message": "切缘累及：建议扩大切除", "message_en": "Margin involved: recommend re-excision"},
			map[string]any{"type": "conditions", "definition": map[string]any{"when": map[string]any{"field": "margin", "op": "eq", "value": "未累及"}, "require": []string{"distance"}},
				"message": "请填写距离"},
		}}), 200)
		// An English sentence naming an unknown field, or too long, is refused in both languages; nothing written.
		rulesBefore := e.count("struct_rules", "template_id = "+itoa(tid))
		for part, pattern := range map[string]string{"unknown field": "{margin} {depth}", "too long": strings.Repeat("x", 5001)} {
			for _, lang := range []string{"zh-CN", "en-US"} {
				if r := e.do("POST", "/api/config/rule", admin, map[string]any{"template_id": tid, "type": "splice",
					"definition": map[string]any{"pattern": "{margin}", "pattern_en": pattern}}, "User-Language", lang); !fieldRefusedIn(e, r, lang, "definition.pattern_en") {
					t.Errorf("English pattern, %s (%s): %d %s", part, lang, r.Status, r)
				}
			}
		}
		if e.count("struct_rules", "template_id = "+itoa(tid)) != rulesBefore {
			t.Fatal("a refused rule was written")
		}
		if r := e.do("POST", "/api/config/rule", admin, map[string]any{"template_id": tid, "type": "hint", "message": "x", "message_en": strings.Repeat("x", 501),
			"definition": map[string]any{"when": map[string]any{"field": "margin", "op": "filled"}}}); !fieldRefusedIn(e, r, "zh-CN", "message_en") {
			t.Fatalf("long English message: %d %s", r.Status, r)
		}
		evaluate := func(vals map[string]any, lang string) structResult {
			var out struct{ Data structResult }
			e.decode(e.expect(e.do("POST", "/api/config/struct_template/evaluate/"+itoa(tid), expert, map[string]any{"values": vals}, "User-Language", lang), 200), &out)
			return out.Data
		}
		involved := map[string]any{"margin": "累及", "sites": []string{"左", "右"}, "distance": 2}
		zh, en := evaluate(involved, "zh-CN"), evaluate(involved, "en-US")
		if zh.Text != "累及 左、右 2 mm" || len(zh.Hints) != 1 || zh.Hints[0].Message != "切缘累及：建议扩大切除" {
			t.Fatalf("in Chinese: %+v", zh)
		}
		// "右" has no English text: it reads as entered.
		if en.Text != "Margin Involved (Left, 右), 2 mm" || len(en.Hints) != 1 || en.Hints[0].Message != "Margin involved: recommend re-excision" || en.Values["margin"] != "累及" {
			t.Fatalf("in English: %+v", en)
		}
		// A message entered in Chinese only reads in Chinese in English too; a field error names the field in English.
		missing := evaluate(map[string]any{"margin": "未累及"}, "en-US")
		if len(missing.Errors) != 1 || missing.Errors[0].Message != "请填写距离" {
			t.Fatalf("Chinese-only message in English: %+v", missing.Errors)
		}
		var rules struct {
			Data []struct {
				MessageEn string `json:"message_en"`
			}
		}
		e.decode(e.expect(e.do("GET", "/api/config/rule?template_id="+itoa(tid), expert, nil), 200), &rules)
		if len(rules.Data) != 3 || rules.Data[1].MessageEn != "Margin involved: recommend re-excision" {
			t.Fatalf("rules: %+v", rules.Data)
		}
	})
}
