package structured

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

var keyPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// patternKey finds the {key} placeholders of a splice pattern.
var patternKey = regexp.MustCompile(`\{([^{}]*)\}`)

// Limits, in characters.
const (
	maxName    = 100
	maxLabel   = 100
	maxOption  = 100
	maxUnit    = 20
	maxMessage = 500
	maxPattern = 5000
	maxSymbol  = 10
)

// validate normalises a template's input and reports every bad part as a
// field error: a missing name, an unknown kind, no fields, a bad or
// duplicate key, a missing label, an unknown type, a choice field without
// options or with an empty or repeated one, more English options than
// options, a default that does not fit (named by its label in lang).
func (in *StructTemplateInput) validate(v *apperr.Validation, lang i18n.Lang) {
	in.Name = strings.TrimSpace(in.Name)
	if in.Name == "" {
		v.Add("name", "field.required")
	} else if utf8.RuneCountInString(in.Name) > maxName {
		v.Add("name", "field.too_long", "max", maxName)
	}
	if in.NameEn = strings.TrimSpace(in.NameEn); utf8.RuneCountInString(in.NameEn) > maxName {
		v.Add("name_en", "field.too_long", "max", maxName)
	}
	if !slices.Contains(Kinds, in.Kind) {
		v.Add("kind", "field.invalid")
	}
	if len(in.Fields) == 0 {
		v.Add("fields", "structured.no_fields")
	}
	seen := map[string]bool{}
	for i := range in.Fields {
		f := &in.Fields[i]
		at := func(part string) string { return fmt.Sprintf("fields.%d.%s", i, part) }
		f.Key, f.Label, f.LabelEn, f.Unit = strings.TrimSpace(f.Key), strings.TrimSpace(f.Label), strings.TrimSpace(f.LabelEn), strings.TrimSpace(f.Unit)
		switch {
		case !keyPattern.MatchString(f.Key):
			v.Add(at("key"), "structured.bad_key")
		case seen[f.Key]:
			v.Add(at("key"), "structured.duplicate_key", "key", f.Key)
		}
		seen[f.Key] = true
		if f.Label == "" {
			v.Add(at("label"), "field.required")
		}
		for part, s := range map[string]string{"label": f.Label, "label_en": f.LabelEn} {
			if utf8.RuneCountInString(s) > maxLabel {
				v.Add(at(part), "field.too_long", "max", maxLabel)
			}
		}
		if utf8.RuneCountInString(f.Unit) > maxUnit {
			v.Add(at("unit"), "field.too_long", "max", maxUnit)
		}
		if !slices.Contains(FieldTypes, f.Type) {
			v.Add(at("type"), "field.invalid")
			continue
		}
		if f.Type == Select || f.Type == MultiSelect {
			if len(f.Options) == 0 {
				v.Add(at("options"), "structured.options_needed")
			}
			for j := range f.Options {
				f.Options[j] = strings.TrimSpace(f.Options[j])
				o := f.Options[j]
				switch {
				case o == "" || utf8.RuneCountInString(o) > maxOption:
					v.Add(at("options"), "structured.bad_option", "option", o)
				case slices.Index(f.Options, o) < j:
					v.Add(at("options"), "structured.repeated_option", "option", o)
				}
			}
			for j := range f.OptionsEn {
				f.OptionsEn[j] = strings.TrimSpace(f.OptionsEn[j])
				if utf8.RuneCountInString(f.OptionsEn[j]) > maxOption {
					v.Add(at("options_en"), "structured.bad_option", "option", f.OptionsEn[j])
				}
			}
			for len(f.OptionsEn) > 0 && f.OptionsEn[len(f.OptionsEn)-1] == "" {
				f.OptionsEn = f.OptionsEn[:len(f.OptionsEn)-1]
			}
			if len(f.OptionsEn) > len(f.Options) {
				v.Add(at("options_en"), "structured.options_en_count")
			}
		} else {
			f.Options, f.OptionsEn = nil, nil
		}
		if f.Default != nil {
			d, key := normalize(f, f.Default)
			if key != "" {
				v.Add(at("default"), key, "label", f.label(lang))
			}
			f.Default = d
		}
	}
}

// fieldsOf is a template made of the input's fields, to check rules against.
func (in *StructTemplateInput) template() *StructTemplate {
	return &StructTemplate{Name: in.Name, NameEn: in.NameEn, Kind: in.Kind, Fields: in.Fields}
}

// checkCondition reports a condition that names no field of t, or whose
// operator or value does not fit the field.
func checkCondition(t *StructTemplate, c *RuleCondition, at string, v *apperr.Validation) {
	if c == nil {
		v.Add(at, "field.required")
		return
	}
	f := t.field(c.Field)
	if f == nil {
		v.Add(at+".field", "structured.unknown_field", "key", c.Field)
		return
	}
	fits := func(x any) bool {
		if f.Type == MultiSelect {
			s, ok := x.(string)
			return ok && slices.Contains(f.Options, s)
		}
		n, key := normalize(f, x)
		return key == "" && n != nil
	}
	switch c.Op {
	case "filled", "empty":
		c.Value = nil
	case "eq", "ne":
		if !fits(c.Value) {
			v.Add(at+".value", "structured.bad_value", "label", f.Label)
		}
	case "in":
		list, ok := c.Value.([]any)
		if !ok || len(list) == 0 {
			v.Add(at+".value", "structured.bad_value", "label", f.Label)
			return
		}
		for _, x := range list {
			if !fits(x) {
				v.Add(at+".value", "structured.bad_value", "label", f.Label)
				return
			}
		}
	case "gt", "gte", "lt", "lte":
		if f.Type != Number {
			v.Add(at+".field", "structured.not_number", "key", c.Field)
		} else if _, ok := number(c.Value); !ok {
			v.Add(at+".value", "structured.bad_value", "label", f.Label)
		}
	default:
		v.Add(at+".op", "field.invalid")
	}
}

// validate normalises a rule's input and reports what does not fit its type
// or the template's fields.
func (in *ReportRuleInput) validate(t *StructTemplate, v *apperr.Validation) {
	in.Message, in.MessageEn = strings.TrimSpace(in.Message), strings.TrimSpace(in.MessageEn)
	if utf8.RuneCountInString(in.Message) > maxMessage {
		v.Add("message", "field.too_long", "max", maxMessage)
	}
	if utf8.RuneCountInString(in.MessageEn) > maxMessage {
		v.Add("message_en", "field.too_long", "max", maxMessage)
	}
	d := &in.Definition
	field := func(types ...string) *StructField {
		f := t.field(d.Field)
		switch {
		case d.Field == "":
			v.Add("definition.field", "field.required")
		case f == nil:
			v.Add("definition.field", "structured.unknown_field", "key", d.Field)
		case len(types) > 0 && !slices.Contains(types, f.Type):
			if slices.Contains(types, Number) {
				v.Add("definition.field", "structured.not_number", "key", d.Field)
			} else {
				v.Add("definition.field", "structured.not_choice", "key", d.Field)
			}
			return nil
		}
		return f
	}
	switch in.Type {
	case Assignment:
		checkCondition(t, d.When, "definition.when", v)
		if f := field(); f != nil {
			if n, key := normalize(f, d.Value); key != "" || n == nil {
				v.Add("definition.value", "structured.bad_value", "label", f.Label)
			} else {
				d.Value = n
			}
		}
	case Calculation:
		if f := field(Number); f != nil {
			_, refs, err := parseExpr(d.Expr)
			if strings.TrimSpace(d.Expr) == "" {
				v.Add("definition.expr", "field.required")
			} else if err != nil {
				v.Add("definition.expr", "structured.bad_expr")
			}
			for _, r := range refs {
				if g := t.field(r); g == nil {
					v.Add("definition.expr", "structured.unknown_field", "key", r)
				} else if g.Type != Number {
					v.Add("definition.expr", "structured.not_number", "key", r)
				} else if r == d.Field {
					v.Add("definition.expr", "structured.self_reference", "key", r)
				}
			}
		}
		if d.Digits < 0 || d.Digits > 6 {
			v.Add("definition.digits", "field.invalid")
		}
	case Hint:
		checkCondition(t, d.When, "definition.when", v)
		if in.Message == "" {
			v.Add("message", "field.required")
		}
	case Code:
		d.System = strings.TrimSpace(d.System)
		if f := field(Select, MultiSelect); f != nil {
			if len(d.Codes) == 0 {
				v.Add("definition.codes", "field.required")
			}
			for opt, code := range d.Codes {
				if !slices.Contains(f.Options, opt) {
					v.Add("definition.codes", "structured.bad_option", "option", opt)
				} else if strings.TrimSpace(code) == "" || utf8.RuneCountInString(code) > 40 {
					v.Add("definition.codes", "structured.bad_code", "option", opt)
				}
			}
		}
	case Splice:
		if strings.TrimSpace(d.Pattern) == "" {
			v.Add("definition.pattern", "field.required")
		}
		if strings.TrimSpace(d.PatternEn) == "" {
			d.PatternEn = ""
		}
		for part, p := range map[string]string{"definition.pattern": d.Pattern, "definition.pattern_en": d.PatternEn} {
			if utf8.RuneCountInString(p) > maxPattern {
				v.Add(part, "field.too_long", "max", maxPattern)
			}
			for _, m := range patternKey.FindAllStringSubmatch(p, -1) {
				if t.field(m[1]) == nil {
					v.Add(part, "structured.unknown_field", "key", m[1])
				}
			}
		}
	case Exclusion:
		checkCondition(t, d.When, "definition.when", v)
		checkCondition(t, d.Second, "definition.second", v)
	case Conditions:
		checkCondition(t, d.When, "definition.when", v)
		if len(d.Require) == 0 {
			v.Add("definition.require", "field.required")
		}
		for _, k := range d.Require {
			if t.field(k) == nil {
				v.Add("definition.require", "structured.unknown_field", "key", k)
			}
		}
	default:
		v.Add("type", "field.invalid")
	}
}
