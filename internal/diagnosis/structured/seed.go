package structured

import (
	"context"
	"fmt"
	"time"

	"telepath/internal/platform/db"
)

// DemoTemplate is the demo's structured template: a breast invasive
// carcinoma synoptic with one rule of most types, in Chinese with English
// beside: its name, labels, options, rule messages and diagnosis sentence
// (the options' Chinese text is the value kept).
func DemoTemplate() StructTemplateImport {
	cond := func(field, op string, value any) *RuleCondition {
		return &RuleCondition{Field: field, Op: op, Value: value}
	}
	types := []string{"浸润性癌（非特殊类型）", "浸润性小叶癌", "黏液癌", "小管癌"}
	typesEn := []string{"Invasive carcinoma of no special type", "Invasive lobular carcinoma", "Mucinous carcinoma", "Tubular carcinoma"}
	receptor, receptorEn := []string{"阳性", "阴性"}, []string{"Positive", "Negative"}
	margins, marginsEn := []string{"未累及", "累及"}, []string{"Not involved", "Involved"}
	return StructTemplateImport{
		StructTemplateInput: StructTemplateInput{
			Name:   "乳腺浸润性癌结构化报告",
			NameEn: "Breast invasive carcinoma synoptic",
			Kind:   "routine",
			Fields: []StructField{
				{Key: "histological_type", Label: "组织学类型", LabelEn: "Histological type", Type: Select, Options: types, OptionsEn: typesEn, Required: true},
				{Key: "grade", Label: "组织学分级", LabelEn: "Histological grade", Type: Select, Options: []string{"1", "2", "3"}, Required: true},
				{Key: "tumour_size", Label: "肿瘤最大径", LabelEn: "Tumour size", Type: Number, Unit: "mm", Required: true},
				{Key: "margins", Label: "切缘", LabelEn: "Margins", Type: Select, Options: margins, OptionsEn: marginsEn, Required: true},
				{Key: "margin_distance", Label: "距最近切缘", LabelEn: "Distance to the closest margin", Type: Number, Unit: "mm"},
				{Key: "ln_examined", Label: "淋巴结检查数", LabelEn: "Lymph nodes examined", Type: Number, Required: true},
				{Key: "ln_positive", Label: "淋巴结阳性数", LabelEn: "Lymph nodes positive", Type: Number, Required: true},
				{Key: "ln_ratio", Label: "淋巴结阳性率", LabelEn: "Positive lymph node ratio", Type: Number, Unit: "%"},
				{Key: "er", Label: "ER", Type: Select, Options: receptor, OptionsEn: receptorEn},
				{Key: "pr", Label: "PR", Type: Select, Options: receptor, OptionsEn: receptorEn},
				{Key: "her2", Label: "HER2", Type: Select, Options: []string{"0", "1+", "2+", "3+"}},
				{Key: "comment", Label: "备注", LabelEn: "Comment", Type: Text},
			},
		},
		Rules: []ReportRuleInput{
			{Type: Calculation, Definition: RuleDefinition{Field: "ln_ratio", Expr: "ln_positive / ln_examined * 100", Digits: 0}},
			{Type: Splice, Definition: RuleDefinition{
				Pattern: "{histological_type}，组织学分级 {grade} 级，肿瘤最大径 {tumour_size} mm。" +
					"切缘{margins}[，距最近切缘 {margin_distance} mm]。" +
					"淋巴结转移 {ln_positive}/{ln_examined}[（{ln_ratio}%）]。[ER {er}，][PR {pr}，][HER2 {her2}。][{comment}]",
				PatternEn: "{histological_type}, grade {grade}, tumour size {tumour_size} mm. " +
					"Margins {margins}[, {margin_distance} mm to the closest margin]. " +
					"Lymph nodes: {ln_positive}/{ln_examined} positive[ ({ln_ratio}%)].[ ER {er},][ PR {pr},][ HER2 {her2}.][ {comment}]"}},
			{Type: Conditions, Definition: RuleDefinition{When: cond("margins", "eq", margins[0]), Require: []string{"margin_distance"}},
				Message: "切缘未累及：请填写距最近切缘的距离", MessageEn: "Margins not involved: give the distance to the closest margin"},
			{Type: Exclusion, Definition: RuleDefinition{When: cond("margins", "eq", margins[1]), Second: cond("margin_distance", "filled", nil)},
				Message: "切缘累及时不填写距最近切缘的距离", MessageEn: "Involved margins have no distance to the closest margin"},
			{Type: Hint, Definition: RuleDefinition{When: cond("her2", "eq", "2+")},
				Message: "HER2 2+（不确定）：建议行原位杂交（ISH）检测", MessageEn: "HER2 2+ (equivocal): recommend in situ hybridisation (ISH)"},
			{Type: Code, Definition: RuleDefinition{Field: "histological_type", System: "ICD-O-3", Codes: map[string]string{
				types[0]: "8500/3", types[1]: "8520/3", types[2]: "8480/3", types[3]: "8211/3"}}},
		},
	}
}

// DemoSymbols are the demo's special characters.
var DemoSymbols = []string{"±", "×", "μm", "°", "≥", "≤", "↑", "↓", "²", "³", "%", "‰"}

// SeedDemo adds the demo template, its rules and the symbols (checked as
// the API would).
func SeedDemo(ctx context.Context, tx *db.Tx, now time.Time) error {
	s := &Service{}
	in := DemoTemplate()
	if err := s.checkImport(ctx, tx, &in); err != nil {
		return fmt.Errorf("demo structured template: %w", err)
	}
	vals := in.values(now)
	vals["sort_order"], vals["created_at"] = 0, now
	id, err := db.InsertID(ctx, tx, tx.Builder().Insert("struct_templates").SetMap(vals))
	if err != nil {
		return err
	}
	for i := range in.Rules {
		in.Rules[i].TemplateID = id
		rv := in.Rules[i].values(now)
		rv["sort_order"], rv["created_at"] = i, now
		if _, err := db.InsertID(ctx, tx, tx.Builder().Insert("struct_rules").SetMap(rv)); err != nil {
			return err
		}
	}
	for i, sym := range DemoSymbols {
		if _, err := db.InsertID(ctx, tx, tx.Builder().Insert("symbols").SetMap(map[string]any{"text": sym, "sort_order": i,
			"created_at": now, "updated_at": now})); err != nil {
			return err
		}
	}
	return nil
}
