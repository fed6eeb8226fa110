package structured

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"telepath/internal/platform/i18n"
)

// The engine: one place that fills in, checks and renders a template's
// values. The web only shows what it returns.

const maxText = 2000

func (t *StructTemplate) field(key string) *StructField {
	for i := range t.Fields {
		if t.Fields[i].Key == key {
			return &t.Fields[i]
		}
	}
	return nil
}

// label is the field's label in lang.
func (f *StructField) label(lang i18n.Lang) string {
	if lang != i18n.ZH && f.LabelEn != "" {
		return f.LabelEn
	}
	return f.Label
}

// option is how an option reads in lang: its English text when there is one.
func (f *StructField) option(o string, lang i18n.Lang) string {
	if lang != i18n.ZH {
		if i := slices.Index(f.Options, o); i >= 0 && i < len(f.OptionsEn) && f.OptionsEn[i] != "" {
			return f.OptionsEn[i]
		}
	}
	return o
}

// message is a rule's message in lang: the English one when there is one.
func (r *ReportRule) message(lang i18n.Lang) string {
	if lang != i18n.ZH && r.MessageEn != "" {
		return r.MessageEn
	}
	return r.Message
}

// pattern is a splice rule's sentence in lang: the English one when there is one.
func (d *RuleDefinition) pattern(lang i18n.Lang) string {
	if lang != i18n.ZH && d.PatternEn != "" {
		return d.PatternEn
	}
	return d.Pattern
}

// normalize checks one value against its field: the value in its canonical
// form (nil when empty) and a problem key when it does not fit.
func normalize(f *StructField, v any) (any, string) {
	if v == nil {
		return nil, ""
	}
	switch f.Type {
	case Text:
		s, ok := v.(string)
		if !ok {
			return nil, "structured.wrong_type"
		}
		if s = strings.TrimSpace(s); s == "" {
			return nil, ""
		}
		if utf8.RuneCountInString(s) > maxText {
			return nil, "structured.too_long"
		}
		return s, ""
	case Number:
		switch n := v.(type) {
		case float64:
			if math.IsNaN(n) || math.IsInf(n, 0) {
				return nil, "structured.wrong_type"
			}
			return n, ""
		case int:
			return float64(n), ""
		}
		return nil, "structured.wrong_type"
	case Select:
		s, ok := v.(string)
		if !ok {
			return nil, "structured.wrong_type"
		}
		if s == "" {
			return nil, ""
		}
		if !slices.Contains(f.Options, s) {
			return nil, "structured.not_an_option"
		}
		return s, ""
	case MultiSelect:
		var list []string
		switch l := v.(type) {
		case []any:
			for _, x := range l {
				s, ok := x.(string)
				if !ok {
					return nil, "structured.wrong_type"
				}
				list = append(list, s)
			}
		case []string:
			list = l
		default:
			return nil, "structured.wrong_type"
		}
		out := []string{}
		for _, o := range f.Options { // in the options' order, once each
			if slices.Contains(list, o) {
				out = append(out, o)
			}
		}
		for _, s := range list {
			if !slices.Contains(f.Options, s) {
				return nil, "structured.not_an_option"
			}
		}
		if len(out) == 0 {
			return nil, ""
		}
		return out, ""
	case Bool:
		b, ok := v.(bool)
		if !ok {
			return nil, "structured.wrong_type"
		}
		return b, ""
	}
	return nil, "structured.wrong_type"
}

// Check normalises values against the template's fields: unknown keys are
// dropped; a value of the wrong type or outside the options is a problem
// of its field.
func Check(t *StructTemplate, values map[string]any) (map[string]any, []StructProblem) {
	out := map[string]any{}
	var bad []StructProblem
	for i := range t.Fields {
		f := &t.Fields[i]
		v, key := normalize(f, values[f.Key])
		if key != "" {
			bad = append(bad, StructProblem{Field: f.Key, key: key, args: map[string]any{"label": f.Key}})
			continue
		}
		if v != nil {
			out[f.Key] = v
		}
	}
	return out, bad
}

func number(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

// holds says whether c holds for the values.
func (c *RuleCondition) holds(vals map[string]any) bool {
	v, filled := vals[c.Field]
	switch c.Op {
	case "filled":
		return filled
	case "empty":
		return !filled
	}
	if !filled {
		return false
	}
	switch c.Op {
	case "eq":
		return equal(v, c.Value)
	case "ne":
		return !equal(v, c.Value)
	case "in":
		list, _ := c.Value.([]any)
		for _, x := range list {
			if equal(v, x) {
				return true
			}
		}
		return false
	}
	a, ok1 := number(v)
	b, ok2 := number(c.Value)
	if !ok1 || !ok2 {
		return false
	}
	switch c.Op {
	case "gt":
		return a > b
	case "gte":
		return a >= b
	case "lt":
		return a < b
	case "lte":
		return a <= b
	}
	return false
}

// equal compares a value with a condition's: a multiselect equals what it
// contains.
func equal(v, want any) bool {
	if list, ok := v.([]string); ok {
		s, _ := want.(string)
		return slices.Contains(list, s)
	}
	if a, ok := number(v); ok {
		b, ok := number(want)
		return ok && a == b
	}
	return v == want
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

// format writes a value into text, a chosen option as it reads in lang
// (f, the value's field, may be nil).
func format(f *StructField, v any, lang i18n.Lang) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []string:
		sep := ", "
		if lang == i18n.ZH {
			sep = "、"
		}
		shown := make([]string, len(x))
		for i, o := range x {
			shown[i] = o
			if f != nil {
				shown[i] = f.option(o, lang)
			}
		}
		return strings.Join(shown, sep)
	case bool:
		return i18n.T(lang, fmt.Sprintf("structured.bool.%t", x), nil)
	case string:
		if f != nil {
			return f.option(x, lang)
		}
		return x
	}
	return ""
}

var placeholder = regexp.MustCompile(`\{([a-z][a-z0-9_]*)\}`)
var optional = regexp.MustCompile(`\[([^\[\]]*)\]`)

// render fills a splice pattern: a part in [ ] whose placeholders are not all
// filled is left out.
func render(t *StructTemplate, pattern string, vals map[string]any, lang i18n.Lang) string {
	fill := func(s string) (string, bool) {
		all := true
		out := placeholder.ReplaceAllStringFunc(s, func(m string) string {
			k := m[1 : len(m)-1]
			v, ok := vals[k]
			if !ok {
				all = false
			}
			return format(t.field(k), v, lang)
		})
		return out, all
	}
	pattern = optional.ReplaceAllStringFunc(pattern, func(m string) string {
		s, all := fill(m[1 : len(m)-1])
		if !all {
			return ""
		}
		return s
	})
	s, _ := fill(pattern)
	return strings.TrimSpace(s)
}

// Evaluate runs a template's rules on values: assignments and calculations
// fill in values, codes are looked up, required fields, conditions and
// exclusions are checked (errors block publishing), hints are collected and
// splice patterns render the text. Messages are in lang.
func Evaluate(t *StructTemplate, rules []ReportRule, values map[string]any, lang i18n.Lang) StructResult {
	vals, bad := Check(t, values)
	res := StructResult{Values: vals, Hints: []StructProblem{}, Errors: bad, Codes: []StructCode{}}
	byType := func(typ string) []ReportRule {
		var out []ReportRule
		for _, r := range rules {
			if r.Type == typ {
				out = append(out, r)
			}
		}
		return out
	}
	for _, r := range byType(Assignment) {
		d := r.Definition
		if d.When != nil && d.When.holds(vals) {
			if f := t.field(d.Field); f != nil {
				if v, key := normalize(f, d.Value); key == "" && v != nil {
					vals[d.Field] = v
				}
			}
		}
	}
	for _, r := range byType(Calculation) {
		d := r.Definition
		e, _, err := parseExpr(d.Expr)
		if err != nil {
			continue
		}
		nums := map[string]float64{}
		for k, v := range vals {
			if n, ok := number(v); ok {
				nums[k] = n
			}
		}
		if x, ok := e.eval(nums); ok && !math.IsInf(x, 0) && !math.IsNaN(x) {
			vals[d.Field] = round(x, d.Digits)
		} else {
			delete(vals, d.Field)
		}
	}
	for _, r := range byType(Code) {
		d := r.Definition
		var chosen []string
		switch v := vals[d.Field].(type) {
		case string:
			chosen = []string{v}
		case []string:
			chosen = v
		}
		for _, c := range chosen {
			if code, ok := d.Codes[c]; ok && code != "" {
				res.Codes = append(res.Codes, StructCode{Field: d.Field, System: d.System, Value: c, Code: code})
			}
		}
	}
	for i := range t.Fields {
		f := &t.Fields[i]
		if _, ok := vals[f.Key]; f.Required && !ok && !slices.ContainsFunc(res.Errors, func(p StructProblem) bool { return p.Field == f.Key }) {
			res.Errors = append(res.Errors, StructProblem{Field: f.Key, key: "structured.required"})
		}
	}
	for _, r := range byType(Conditions) {
		d := r.Definition
		if d.When == nil || !d.When.holds(vals) {
			continue
		}
		for _, k := range d.Require {
			if _, ok := vals[k]; !ok {
				res.Errors = append(res.Errors, StructProblem{Field: k, RuleID: r.ID, Message: r.message(lang), key: "structured.required_when",
					args: map[string]any{"when": d.When.Field}})
			}
		}
	}
	for _, r := range byType(Exclusion) {
		d := r.Definition
		if d.When != nil && d.Second != nil && d.When.holds(vals) && d.Second.holds(vals) {
			res.Errors = append(res.Errors, StructProblem{Field: d.Second.Field, RuleID: r.ID, Message: r.message(lang), key: "structured.exclusive",
				args: map[string]any{"first": d.When.Field, "second": d.Second.Field}})
		}
	}
	for _, r := range byType(Hint) {
		if d := r.Definition; d.When != nil && d.When.holds(vals) {
			res.Hints = append(res.Hints, StructProblem{Field: d.When.Field, RuleID: r.ID, Message: r.message(lang), key: "structured.hint"})
		}
	}
	var lines []string
	for _, r := range byType(Splice) {
		if s := render(t, r.Definition.pattern(lang), vals, lang); s != "" {
			lines = append(lines, s)
		}
	}
	res.Text = strings.Join(lines, "\n")
	localize(t, res.Errors, lang)
	localize(t, res.Hints, lang)
	if res.Errors == nil {
		res.Errors = []StructProblem{}
	}
	return res
}

// localize writes each problem's message in lang (a rule's own message
// stays), naming fields by their labels.
func localize(t *StructTemplate, ps []StructProblem, lang i18n.Lang) {
	name := func(k any) string {
		if f := t.field(fmt.Sprint(k)); f != nil {
			return f.label(lang)
		}
		return fmt.Sprint(k)
	}
	for i := range ps {
		p := &ps[i]
		if p.Message != "" {
			continue
		}
		args := map[string]any{"label": name(p.Field)}
		for k, v := range p.args {
			if k == "label" || k == "when" || k == "first" || k == "second" {
				v = name(v)
			}
			args[k] = v
		}
		p.Message = i18n.T(lang, p.key, args)
	}
}
