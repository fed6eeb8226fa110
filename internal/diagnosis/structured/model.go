// Package structured keeps the structured report templates, their rules and
// the symbols of the diagnosis editor (spec 2 §3 configuration records
// struct_template, rule, symbol; §7 config/struct_template, config/rule,
// config/symbol). A template is a list of fields an expert fills in (a
// tumour synoptic: histological type, grade, margins, lymph nodes …); its
// rules, of seven types, fill in, check and render the values (Evaluate).
// The administrators keep them; experts read them and evaluate values.
package structured

import "time"

// Report kinds a template is for (spec 2 §2).
var Kinds = []string{"routine", "frozen", "cell"}

// StructField types.
const (
	Text        = "text"
	Number      = "number"
	Select      = "select"
	MultiSelect = "multiselect"
	Bool        = "bool"
)

// FieldTypes are the types a field may have.
var FieldTypes = []string{Text, Number, Select, MultiSelect, Bool}

// ReportRule types (spec 2 §3: assignment, calculation, hint, code, splice,
// mutual exclusion, conditions).
const (
	Assignment  = "assignment"
	Calculation = "calculation"
	Hint        = "hint"
	Code        = "code"
	Splice      = "splice"
	Exclusion   = "exclusion"
	Conditions  = "conditions"
)

// RuleTypes are the seven rule types, in the order they run.
var RuleTypes = []string{Assignment, Calculation, Code, Conditions, Exclusion, Hint, Splice}

// StructField is one value of a template the expert fills in.
type StructField struct {
	Key       string   `json:"key" maxLength:"40" doc:"Lowercase letters, digits and _, starting with a letter; unique in the template; {key} in a splice pattern, key in a calculation"`
	Label     string   `json:"label" maxLength:"100"`
	LabelEn   string   `json:"label_en,omitempty" maxLength:"100" doc:"The label in English (the label is shown when empty)"`
	Type      string   `json:"type" enum:"text,number,select,multiselect,bool"`
	Options   []string `json:"options,omitempty" maxItems:"50" doc:"The choices of a select or multiselect field (the values kept, shown in Chinese)"`
	OptionsEn []string `json:"options_en,omitempty" maxItems:"50" doc:"The options in English, in the options' order (missing or empty: the option itself)"`
	Unit      string   `json:"unit,omitempty" maxLength:"20"`
	Required  bool     `json:"required,omitempty"`
	Default   any      `json:"default,omitempty" doc:"The value the form starts with (of the field's type; one of the options)"`
}

// StructTemplate is a structured report template.
type StructTemplate struct {
	ID        int64         `json:"id" db:"id"`
	Name      string        `json:"name" db:"name"`
	NameEn    string        `json:"name_en" db:"name_en" doc:"The name in English (the name is shown when empty)"`
	Kind      string        `json:"kind" db:"kind" enum:"routine,frozen,cell"`
	LibraryID *int64        `json:"library_id" db:"library_id" doc:"Offered only on the cases of this library (none: every library)"`
	Rank      int           `json:"rank" db:"rank"`
	Enabled   bool          `json:"enabled" db:"enabled"`
	Fields    []StructField `json:"fields" db:"-"`
	RuleCount int           `json:"rule_count" db:"rule_count"`
	CreatedAt time.Time     `json:"created_at" db:"created_at"`
	UpdatedAt time.Time     `json:"updated_at" db:"updated_at"`
	FieldsRaw string        `json:"-" db:"fields"`
}

// StructTemplateInput is the editable part of a template.
type StructTemplateInput struct {
	Name      string        `json:"name" maxLength:"100"`
	NameEn    string        `json:"name_en,omitempty" maxLength:"100" doc:"The name in English"`
	Kind      string        `json:"kind" enum:"routine,frozen,cell"`
	LibraryID *int64        `json:"library_id,omitempty"`
	Enabled   *bool         `json:"enabled,omitempty" doc:"Default true"`
	Fields    []StructField `json:"fields" maxItems:"100"`
}

// RuleCondition is a test of one field's value: eq, ne (filled and different),
// in (one of a list; a multiselect: any of them chosen), gt, gte, lt, lte
// (numbers), filled, empty.
type RuleCondition struct {
	Field string `json:"field" maxLength:"40"`
	Op    string `json:"op" enum:"eq,ne,in,gt,gte,lt,lte,filled,empty"`
	Value any    `json:"value,omitempty"`
}

// RuleDefinition is what a rule does; which parts count depends on its type:
//   - assignment: when When holds, StructField is set to Value;
//   - calculation: StructField (a number) = Expr over number fields, rounded to Digits;
//   - hint: when When holds, the message is shown (it does not block);
//   - code: StructField's value maps to a code of System through Codes;
//   - splice: Pattern with {key} placeholders renders the diagnosis text; a
//     part in [ ] is left out when a placeholder in it is empty; PatternEn is
//     the sentence in English, used for a text in English (Pattern when empty);
//   - exclusion: When and Second may not both hold;
//   - conditions: when When holds, the Require fields must be filled.
type RuleDefinition struct {
	When      *RuleCondition    `json:"when,omitempty"`
	Second    *RuleCondition    `json:"second,omitempty"`
	Field     string            `json:"field,omitempty" maxLength:"40"`
	Value     any               `json:"value,omitempty"`
	Expr      string            `json:"expr,omitempty" maxLength:"500"`
	Digits    int               `json:"digits,omitempty" minimum:"0" maximum:"6"`
	System    string            `json:"system,omitempty" maxLength:"40"`
	Codes     map[string]string `json:"codes,omitempty"`
	Pattern   string            `json:"pattern,omitempty" maxLength:"5000"`
	PatternEn string            `json:"pattern_en,omitempty" maxLength:"5000" doc:"A splice pattern in English (the pattern is used when empty)"`
	Require   []string          `json:"require,omitempty" maxItems:"100"`
}

// ReportRule is a rule of a template.
type ReportRule struct {
	ID         int64          `json:"id" db:"id"`
	TemplateID int64          `json:"template_id" db:"template_id"`
	Type       string         `json:"type" db:"type" enum:"assignment,calculation,hint,code,splice,exclusion,conditions"`
	Definition RuleDefinition `json:"definition" db:"-"`
	Message    string         `json:"message" db:"message" doc:"Shown for a hint or a failed check (a default text otherwise)"`
	MessageEn  string         `json:"message_en" db:"message_en" doc:"The message in English (the message is shown when empty)"`
	Rank       int            `json:"rank" db:"rank"`
	CreatedAt  time.Time      `json:"created_at" db:"created_at"`
	UpdatedAt  time.Time      `json:"updated_at" db:"updated_at"`
	DefRaw     string         `json:"-" db:"definition"`
}

// ReportRuleInput is the editable part of a rule.
type ReportRuleInput struct {
	TemplateID int64          `json:"template_id,omitempty" minimum:"0" doc:"The template (not in a batch)"`
	Type       string         `json:"type" enum:"assignment,calculation,hint,code,splice,exclusion,conditions"`
	Definition RuleDefinition `json:"definition"`
	Message    string         `json:"message,omitempty" maxLength:"500"`
	MessageEn  string         `json:"message_en,omitempty" maxLength:"500" doc:"The message in English"`
	Rank       *int           `json:"rank,omitempty" minimum:"0" maximum:"10000"`
}

// Symbol is a special character offered in the diagnosis editor.
type Symbol struct {
	ID   int64  `json:"id" db:"id"`
	Text string `json:"text" db:"text"`
	Rank int    `json:"rank" db:"rank"`
}

// StructProblem is a failed check or a hint, localized.
type StructProblem struct {
	Field   string `json:"field,omitempty" doc:"The field it concerns"`
	RuleID  int64  `json:"rule_id,omitempty"`
	Message string `json:"message"`

	key  string
	args map[string]any
}

// StructCode is a code a value maps to.
type StructCode struct {
	Field  string `json:"field"`
	System string `json:"system"`
	Value  string `json:"value"`
	Code   string `json:"code"`
}

// StructResult is what Evaluate makes of a template's values.
type StructResult struct {
	Values map[string]any  `json:"values" doc:"The values after assignments and calculations"`
	Text   string          `json:"text" doc:"The rendered diagnosis text (splice rules)"`
	Hints  []StructProblem `json:"hints"`
	Errors []StructProblem `json:"errors" doc:"Blocking problems: a report with any is not published"`
	Codes  []StructCode    `json:"codes"`
}
