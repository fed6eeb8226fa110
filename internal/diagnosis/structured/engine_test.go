package structured

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

var han = regexp.MustCompile(`\p{Han}`)

func demo(t *testing.T) (*StructTemplate, []ReportRule) {
	t.Helper()
	in := DemoTemplate()
	var v apperr.Validation
	in.validate(&v, i18n.ZH)
	tpl := in.template()
	var rules []ReportRule
	for i, r := range in.Rules {
		r.validate(tpl, &v)
		rules = append(rules, ReportRule{ID: int64(i + 1), Type: r.Type, Definition: r.Definition, Message: r.Message, MessageEn: r.MessageEn})
	}
	if err := v.Err(); err != nil {
		t.Fatalf("demo template refused: %v", err)
	}
	return tpl, rules
}

func full() map[string]any {
	return map[string]any{"histological_type": "浸润性癌（非特殊类型）", "grade": "2", "tumour_size": 23.0,
		"margins": "未累及", "margin_distance": 4.0, "ln_examined": 15.0, "ln_positive": 2.0, "er": "阳性", "pr": "阴性", "her2": "1+"}
}

func messages(ps []StructProblem) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Field+": "+p.Message)
	}
	return strings.Join(out, " | ")
}

func TestEvaluateDemo(t *testing.T) {
	tpl, rules := demo(t)
	for _, c := range []struct {
		name   string
		change map[string]any
		errors []string // fields with a blocking problem
		hints  int
		text   string // in the text
		ratio  any
	}{
		{"complete", nil, nil, 0, "Invasive carcinoma of no special type, grade 2, tumour size 23 mm. Margins Not involved, 4 mm to the closest margin. Lymph nodes: 2/15 positive (13%). ER Positive, PR Negative, HER2 1+.", 13.0},
		{"calculation without examined", map[string]any{"ln_examined": nil}, []string{"ln_examined"}, 0, "Lymph nodes: 2/ positive.", nil},
		{"division by zero", map[string]any{"ln_examined": 0.0, "ln_positive": 0.0}, nil, 0, "0/0 positive.", nil},
		{"conditions: distance required", map[string]any{"margin_distance": nil}, []string{"margin_distance"}, 0, "Margins Not involved. Lymph", 13.0},
		{"exclusion", map[string]any{"margins": "累及"}, []string{"margin_distance"}, 0, "Margins Involved, 4 mm", 13.0},
		{"involved without distance", map[string]any{"margins": "累及", "margin_distance": nil}, nil, 0, "Margins Involved. Lymph", 13.0},
		{"hint", map[string]any{"her2": "2+"}, nil, 1, "HER2 2+.", 13.0},
		{"required", map[string]any{"grade": nil, "histological_type": ""}, []string{"histological_type", "grade"}, 0, "", 13.0},
		{"wrong type", map[string]any{"tumour_size": "big"}, []string{"tumour_size"}, 0, "", 13.0},
		{"not an option", map[string]any{"grade": "4"}, []string{"grade"}, 0, "", 13.0},
	} {
		t.Run(c.name, func(t *testing.T) {
			vals := full()
			for k, v := range c.change {
				vals[k] = v
			}
			r := Evaluate(tpl, rules, vals, i18n.EN)
			var got []string
			for _, p := range r.Errors {
				if p.Message == "" {
					t.Errorf("no message for %s", p.Field)
				}
				got = append(got, p.Field)
			}
			if strings.Join(got, ",") != strings.Join(c.errors, ",") {
				t.Errorf("errors %s, want %v", messages(r.Errors), c.errors)
			}
			if len(r.Hints) != c.hints {
				t.Errorf("hints %s, want %d", messages(r.Hints), c.hints)
			}
			if !strings.Contains(r.Text, c.text) {
				t.Errorf("text %q, want it to hold %q", r.Text, c.text)
			}
			if r.Values["ln_ratio"] != c.ratio {
				t.Errorf("ratio %v, want %v", r.Values["ln_ratio"], c.ratio)
			}
			if len(r.Codes) != 1 || r.Codes[0].Code != "8500/3" {
				if c.change["histological_type"] == nil {
					t.Errorf("codes %+v", r.Codes)
				}
			}
		})
	}
}

// The demo template reads in both languages: options and rule messages in
// Chinese, with English beside; numbers need no translation.
func TestDemoBilingual(t *testing.T) {
	tpl, rules := demo(t)
	for _, f := range tpl.Fields {
		if f.Type == Select && f.Options[0] != "1" && f.Options[0] != "0" && len(f.OptionsEn) != len(f.Options) {
			t.Errorf("%s: options %v without English %v", f.Key, f.Options, f.OptionsEn)
		}
	}
	if !han.MatchString(tpl.Name) || tpl.NameEn == "" || han.MatchString(tpl.NameEn) {
		t.Errorf("name %q, English %q", tpl.Name, tpl.NameEn)
	}
	for _, r := range rules {
		if d := r.Definition; r.Type == Splice && (!han.MatchString(d.Pattern) || d.PatternEn == "" || han.MatchString(d.PatternEn)) {
			t.Errorf("splice pattern %q, English %q", d.Pattern, d.PatternEn)
		}
		if r.Message != "" && (r.MessageEn == "" || !han.MatchString(r.Message) || han.MatchString(r.MessageEn)) {
			t.Errorf("rule %s: message %q, English %q", r.Type, r.Message, r.MessageEn)
		}
	}
	vals := full()
	vals["her2"], vals["margin_distance"] = "2+", nil
	for lang, want := range map[i18n.Lang][]string{
		i18n.ZH: {"浸润性癌（非特殊类型），组织学分级 2 级", "切缘未累及。淋巴结转移 2/15（13%）", "ER 阳性，PR 阴性，HER2 2+。", "切缘未累及：请填写距最近切缘的距离", "HER2 2+（不确定）：建议行原位杂交（ISH）检测"},
		i18n.EN: {"Invasive carcinoma of no special type, grade 2", "Margins Not involved. Lymph nodes: 2/15 positive (13%)", "ER Positive, PR Negative, HER2 2+.", "Margins not involved: give the distance to the closest margin", "HER2 2+ (equivocal): recommend in situ hybridisation (ISH)"},
	} {
		r := Evaluate(tpl, rules, vals, lang)
		if len(r.Errors) != 1 || len(r.Hints) != 1 {
			t.Fatalf("%s: errors %s, hints %s", lang, messages(r.Errors), messages(r.Hints))
		}
		got := []string{r.Text, r.Text, r.Text, r.Errors[0].Message, r.Hints[0].Message}
		// The sentence is all in one language (numbers, units and marker names aside).
		if english := regexp.MustCompile(`[a-z]{2,}`).FindString(strings.ReplaceAll(r.Text, "mm", "")); lang == i18n.ZH && english != "" || lang == i18n.EN && han.MatchString(r.Text) {
			t.Errorf("%s: the sentence mixes languages: %q", lang, r.Text)
		}
		for i, w := range want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: %q does not hold %q", lang, got[i], w)
			}
		}
	}
}

func TestEvaluateRuleTypes(t *testing.T) {
	tpl := &StructTemplate{Fields: []StructField{
		{Key: "a", Label: "A", Type: Select, Options: []string{"x", "y"}},
		{Key: "b", Label: "B", Type: Text},
		{Key: "n", Label: "N", Type: Number},
		{Key: "m", Label: "M", Type: Number},
		{Key: "c", Label: "C", Type: MultiSelect, Options: []string{"p", "q", "r"}},
		{Key: "f", Label: "F", Type: Bool},
	}}
	for _, c := range []struct {
		name   string
		rule   ReportRule
		values map[string]any
		check  func(r StructResult) string // "" when right
	}{
		{"assignment sets", ReportRule{Type: Assignment, Definition: RuleDefinition{When: &RuleCondition{Field: "a", Op: "eq", Value: "x"}, Field: "b", Value: "from x"}},
			map[string]any{"a": "x"}, func(r StructResult) string { return want(r.Values["b"], "from x") }},
		{"assignment waits", ReportRule{Type: Assignment, Definition: RuleDefinition{When: &RuleCondition{Field: "a", Op: "eq", Value: "x"}, Field: "b", Value: "from x"}},
			map[string]any{"a": "y", "b": "mine"}, func(r StructResult) string { return want(r.Values["b"], "mine") }},
		{"calculation", ReportRule{Type: Calculation, Definition: RuleDefinition{Field: "m", Expr: "(n + 1) * 2 / 3 - -1", Digits: 2}},
			map[string]any{"n": 3.0}, func(r StructResult) string { return want(r.Values["m"], 3.67) }},
		{"calculation of nothing clears", ReportRule{Type: Calculation, Definition: RuleDefinition{Field: "m", Expr: "n * 2"}},
			map[string]any{"m": 5.0}, func(r StructResult) string { return want(r.Values["m"], nil) }},
		{"hint gt", ReportRule{Type: Hint, Message: "big", Definition: RuleDefinition{When: &RuleCondition{Field: "n", Op: "gt", Value: 10.0}}},
			map[string]any{"n": 11.0}, func(r StructResult) string {
				return want(len(r.Hints) == 1 && r.Hints[0].Message == "big" && len(r.Errors) == 0, true)
			}},
		{"hint lte quiet", ReportRule{Type: Hint, Message: "big", Definition: RuleDefinition{When: &RuleCondition{Field: "n", Op: "gt", Value: 10.0}}},
			map[string]any{"n": 10.0}, func(r StructResult) string { return want(len(r.Hints), 0) }},
		{"code of a multiselect", ReportRule{Type: Code, Definition: RuleDefinition{Field: "c", System: "S", Codes: map[string]string{"p": "1", "r": "3"}}},
			map[string]any{"c": []any{"r", "p"}}, func(r StructResult) string {
				return want(len(r.Codes) == 2 && r.Codes[0].Code == "1" && r.Codes[1].Code == "3", true)
			}},
		{"splice with optional part", ReportRule{Type: Splice, Definition: RuleDefinition{Pattern: "A {a}[, B {b}][, C {c}], F {f}"}},
			map[string]any{"a": "x", "c": []any{"q", "p"}, "f": true}, func(r StructResult) string { return want(r.Text, "A x, C p, q, F yes") }},
		{"exclusion in", ReportRule{Type: Exclusion, Definition: RuleDefinition{When: &RuleCondition{Field: "c", Op: "in", Value: []any{"p", "q"}}, Second: &RuleCondition{Field: "f", Op: "eq", Value: true}}},
			map[string]any{"c": []any{"q"}, "f": true}, func(r StructResult) string { return want(len(r.Errors) == 1 && r.Errors[0].Field == "f", true) }},
		{"exclusion one side", ReportRule{Type: Exclusion, Definition: RuleDefinition{When: &RuleCondition{Field: "c", Op: "in", Value: []any{"p", "q"}}, Second: &RuleCondition{Field: "f", Op: "eq", Value: true}}},
			map[string]any{"c": []any{"r"}, "f": true}, func(r StructResult) string { return want(len(r.Errors), 0) }},
		{"conditions ne", ReportRule{Type: Conditions, Definition: RuleDefinition{When: &RuleCondition{Field: "a", Op: "ne", Value: "x"}, Require: []string{"b", "n"}}},
			map[string]any{"a": "y", "n": 1.0}, func(r StructResult) string {
				return want(len(r.Errors) == 1 && r.Errors[0].Field == "b" && r.Errors[0].Message == "B is required with this A", true)
			}},
		{"conditions empty", ReportRule{Type: Conditions, Definition: RuleDefinition{When: &RuleCondition{Field: "a", Op: "empty"}, Require: []string{"b"}}},
			map[string]any{"b": "  "}, func(r StructResult) string { return want(len(r.Errors), 1) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v apperr.Validation
			in := ReportRuleInput{Type: c.rule.Type, Definition: c.rule.Definition, Message: c.rule.Message}
			if in.validate(tpl, &v); v.Err() != nil {
				t.Fatalf("rule refused: %v", v.Err())
			}
			if msg := c.check(Evaluate(tpl, []ReportRule{c.rule}, c.values, i18n.EN)); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func want(got, expected any) string {
	if got != expected {
		return "got " + strings.TrimSpace(strings.ReplaceAll(fmtAny(got), "\n", " ")) + ", want " + fmtAny(expected)
	}
	return ""
}

func fmtAny(v any) string {
	return strings.TrimSpace(strings.Join(strings.Fields(strings.ReplaceAll(format(nil, v, i18n.EN)+" "+typeName(v), "  ", " ")), " "))
}

func typeName(v any) string {
	if v == nil {
		return "(nil)"
	}
	return ""
}

func TestTemplateChecks(t *testing.T) {
	ok := func() StructTemplateInput {
		return StructTemplateInput{Name: "T", Kind: "routine", Fields: []StructField{
			{Key: "a", Label: "A", Type: Select, Options: []string{"x", "y"}},
			{Key: "n", Label: "N", Type: Number, Default: 1.0},
		}}
	}
	for _, c := range []struct {
		name   string
		change func(in *StructTemplateInput)
		field  string // "" accepted
		key    string
	}{
		{"plain", func(*StructTemplateInput) {}, "", ""},
		{"duplicate key", func(in *StructTemplateInput) { in.Fields[1].Key = "a" }, "fields.1.key", "structured.duplicate_key"},
		{"bad key", func(in *StructTemplateInput) { in.Fields[0].Key = "1a" }, "fields.0.key", "structured.bad_key"},
		{"no label", func(in *StructTemplateInput) { in.Fields[0].Label = " " }, "fields.0.label", "field.required"},
		{"bad type", func(in *StructTemplateInput) { in.Fields[0].Type = "date" }, "fields.0.type", "field.invalid"},
		{"select without options", func(in *StructTemplateInput) { in.Fields[0].Options = nil }, "fields.0.options", "structured.options_needed"},
		{"empty option", func(in *StructTemplateInput) { in.Fields[0].Options = []string{"x", " "} }, "fields.0.options", "structured.bad_option"},
		{"repeated option", func(in *StructTemplateInput) { in.Fields[0].Options = []string{"x", "x"} }, "fields.0.options", "structured.repeated_option"},
		{"default of the wrong type", func(in *StructTemplateInput) { in.Fields[1].Default = "one" }, "fields.1.default", "structured.wrong_type"},
		{"no fields", func(in *StructTemplateInput) { in.Fields = nil }, "fields", "structured.no_fields"},
		{"no name", func(in *StructTemplateInput) { in.Name = "" }, "name", "field.required"},
		{"bad kind", func(in *StructTemplateInput) { in.Kind = "x" }, "kind", "field.invalid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := ok()
			c.change(&in)
			var v apperr.Validation
			in.validate(&v, i18n.ZH)
			checkRefusal(t, v.Err(), c.field, c.key)
		})
	}
}

func checkRefusal(t *testing.T, err error, field, key string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	var e *apperr.Error
	if !errors.As(err, &e) || len(e.Fields[field]) == 0 || e.Fields[field][0].Key != key {
		t.Fatalf("err = %v, want %s on %s", err, key, field)
	}
}

func TestRuleChecks(t *testing.T) {
	tpl := &StructTemplate{Fields: []StructField{
		{Key: "a", Label: "A", Type: Select, Options: []string{"x", "y"}},
		{Key: "b", Label: "B", Type: Text},
		{Key: "n", Label: "N", Type: Number},
		{Key: "m", Label: "M", Type: Number},
	}}
	when := &RuleCondition{Field: "a", Op: "eq", Value: "x"}
	for _, c := range []struct {
		name  string
		in    ReportRuleInput
		field string
		key   string
	}{
		{"assignment", ReportRuleInput{Type: Assignment, Definition: RuleDefinition{When: when, Field: "b", Value: "v"}}, "", ""},
		{"assignment of a bad value", ReportRuleInput{Type: Assignment, Definition: RuleDefinition{When: when, Field: "n", Value: "v"}}, "definition.value", "structured.bad_value"},
		{"assignment without condition", ReportRuleInput{Type: Assignment, Definition: RuleDefinition{Field: "b", Value: "v"}}, "definition.when", "field.required"},
		{"condition on an unknown field", ReportRuleInput{Type: Hint, Message: "m", Definition: RuleDefinition{When: &RuleCondition{Field: "zz", Op: "eq", Value: "x"}}}, "definition.when.field", "structured.unknown_field"},
		{"condition value not an option", ReportRuleInput{Type: Hint, Message: "m", Definition: RuleDefinition{When: &RuleCondition{Field: "a", Op: "eq", Value: "z"}}}, "definition.when.value", "structured.bad_value"},
		{"condition gt on text", ReportRuleInput{Type: Hint, Message: "m", Definition: RuleDefinition{When: &RuleCondition{Field: "b", Op: "gt", Value: 1.0}}}, "definition.when.field", "structured.not_number"},
		{"condition bad op", ReportRuleInput{Type: Hint, Message: "m", Definition: RuleDefinition{When: &RuleCondition{Field: "b", Op: "like"}}}, "definition.when.op", "field.invalid"},
		{"hint without message", ReportRuleInput{Type: Hint, Definition: RuleDefinition{When: when}}, "message", "field.required"},
		{"calculation", ReportRuleInput{Type: Calculation, Definition: RuleDefinition{Field: "m", Expr: "n / 2"}}, "", ""},
		{"calculation syntax", ReportRuleInput{Type: Calculation, Definition: RuleDefinition{Field: "m", Expr: "n / (2"}}, "definition.expr", "structured.bad_expr"},
		{"calculation code", ReportRuleInput{Type: Calculation, Definition: RuleDefinition{Field: "m", Expr: "os.exit(1)"}}, "definition.expr", "structured.bad_expr"},
		{"calculation of text", ReportRuleInput{Type: Calculation, Definition: RuleDefinition{Field: "m", Expr: "b * 2"}}, "definition.expr", "structured.not_number"},
		{"calculation into text", ReportRuleInput{Type: Calculation, Definition: RuleDefinition{Field: "b", Expr: "n * 2"}}, "definition.field", "structured.not_number"},
		{"calculation of itself", ReportRuleInput{Type: Calculation, Definition: RuleDefinition{Field: "m", Expr: "m + 1"}}, "definition.expr", "structured.self_reference"},
		{"calculation unknown", ReportRuleInput{Type: Calculation, Definition: RuleDefinition{Field: "m", Expr: "q + 1"}}, "definition.expr", "structured.unknown_field"},
		{"code", ReportRuleInput{Type: Code, Definition: RuleDefinition{Field: "a", Codes: map[string]string{"x": "1"}}}, "", ""},
		{"code of text", ReportRuleInput{Type: Code, Definition: RuleDefinition{Field: "b", Codes: map[string]string{"x": "1"}}}, "definition.field", "structured.not_choice"},
		{"code of no option", ReportRuleInput{Type: Code, Definition: RuleDefinition{Field: "a", Codes: map[string]string{"z": "1"}}}, "definition.codes", "structured.bad_option"},
		{"code empty", ReportRuleInput{Type: Code, Definition: RuleDefinition{Field: "a", Codes: map[string]string{"x": " "}}}, "definition.codes", "structured.bad_code"},
		{"splice", ReportRuleInput{Type: Splice, Definition: RuleDefinition{Pattern: "{a} and [{b}]"}}, "", ""},
		{"splice unknown", ReportRuleInput{Type: Splice, Definition: RuleDefinition{Pattern: "{a} and {zz}"}}, "definition.pattern", "structured.unknown_field"},
		{"splice empty", ReportRuleInput{Type: Splice}, "definition.pattern", "field.required"},
		{"exclusion without second", ReportRuleInput{Type: Exclusion, Definition: RuleDefinition{When: when}}, "definition.second", "field.required"},
		{"conditions unknown", ReportRuleInput{Type: Conditions, Definition: RuleDefinition{When: when, Require: []string{"zz"}}}, "definition.require", "structured.unknown_field"},
		{"conditions none", ReportRuleInput{Type: Conditions, Definition: RuleDefinition{When: when}}, "definition.require", "field.required"},
		{"unknown type", ReportRuleInput{Type: "macro"}, "type", "field.invalid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v apperr.Validation
			c.in.validate(tpl, &v)
			checkRefusal(t, v.Err(), c.field, c.key)
		})
	}
}

func TestExpr(t *testing.T) {
	vals := map[string]float64{"a": 6, "b": 3}
	for _, c := range []struct {
		s    string
		want float64
		ok   bool
	}{
		{"a + b * 2", 12, true}, {"(a + b) * 2", 18, true}, {"a / b / 2", 1, true}, {"-a + 1", -5, true},
		{"a / 0", 0, false}, {"c + 1", 0, false}, {"1.5 * 2", 3, true},
	} {
		e, _, err := parseExpr(c.s)
		if err != nil {
			t.Fatalf("%s: %v", c.s, err)
		}
		got, ok := e.eval(vals)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s = %v %v, want %v %v", c.s, got, ok, c.want, c.ok)
		}
	}
	for _, s := range []string{"", "a +", "(a", "a b", "a ** 2", "a; b", "1..2", "a)", "$a", "a % 2", strings.Repeat("(", 600)} {
		if _, _, err := parseExpr(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}

// A splice rule writes its English sentence for a text in English and its
// own in Chinese; without an English sentence both use its own.
func TestSplicePatternLanguage(t *testing.T) {
	tpl := &StructTemplate{Fields: []StructField{{Key: "m", Label: "切缘", LabelEn: "Margin", Type: Select, Options: []string{"累及"}, OptionsEn: []string{"Involved"}}}}
	vals := map[string]any{"m": "累及"}
	for _, c := range []struct {
		def    RuleDefinition
		zh, en string
	}{
		{RuleDefinition{Pattern: "切缘{m}", PatternEn: "Margin {m}"}, "切缘累及", "Margin Involved"},
		{RuleDefinition{Pattern: "切缘{m}"}, "切缘累及", "切缘Involved"},
	} {
		rules := []ReportRule{{Type: Splice, Definition: c.def}}
		if zh, en := Evaluate(tpl, rules, vals, i18n.ZH).Text, Evaluate(tpl, rules, vals, i18n.EN).Text; zh != c.zh || en != c.en {
			t.Errorf("%+v: %q and %q, want %q and %q", c.def, zh, en, c.zh, c.en)
		}
	}
}
