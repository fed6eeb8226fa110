package structured

import (
	"context"
	"encoding/json"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

const ruleColumns = `id, template_id, type, definition, message, message_en, sort_order AS "rank", created_at, updated_at`

func (s *Service) rules(ctx context.Context, q db.Querier, templateID int64) ([]ReportRule, error) {
	out := []ReportRule{}
	if err := db.Select(ctx, q, &out, s.db.Builder().Select(ruleColumns).From("struct_rules").
		Where("template_id = ?", templateID).OrderBy("sort_order", "id")); err != nil {
		return nil, apperr.Wrap(err, "load rules")
	}
	for i := range out {
		if err := json.Unmarshal([]byte(out[i].DefRaw), &out[i].Definition); err != nil {
			return nil, apperr.Wrap(err, "decode rule")
		}
	}
	return out, nil
}

// ReportRuleParams choose a template's rules.
type ReportRuleParams struct {
	TemplateID int64 `query:"template_id" minimum:"1" required:"true" doc:"The template whose rules to list"`
}

// Rules lists a template's rules in their order.
func (s *Service) Rules(ctx context.Context, p *ReportRuleParams) ([]ReportRule, error) {
	if _, err := s.template(ctx, s.db, p.TemplateID, false); err != nil {
		return nil, err
	}
	return s.rules(ctx, s.db, p.TemplateID)
}

func (s *Service) rule(ctx context.Context, q db.Querier, id int64) (*ReportRule, error) {
	var out []ReportRule
	if err := db.Select(ctx, q, &out, s.db.Builder().Select(ruleColumns).From("struct_rules").Where("id = ?", id)); err != nil {
		return nil, apperr.Wrap(err, "load rule")
	}
	if len(out) == 0 {
		return nil, notFound()
	}
	if _, err := s.template(ctx, q, out[0].TemplateID, false); err != nil {
		return nil, err // a deleted template's rules are gone with it
	}
	return &out[0], apperr.Wrap(json.Unmarshal([]byte(out[0].DefRaw), &out[0].Definition), "decode rule")
}

// ReportRule returns one rule.
func (s *Service) Rule(ctx context.Context, id int64) (*ReportRule, error) {
	return s.rule(ctx, s.db, id)
}

// checkRule validates a rule against its template's fields.
func (s *Service) checkRule(ctx context.Context, q db.Querier, in *ReportRuleInput) error {
	t, err := s.template(ctx, q, in.TemplateID, false)
	if apperr.Is(err, "error.not_found") {
		var v apperr.Validation
		v.Add("template_id", "structured.no_template")
		return v.Err()
	}
	if err != nil {
		return err
	}
	var v apperr.Validation
	in.validate(t, &v)
	return v.Err()
}

func (in *ReportRuleInput) values(now time.Time) map[string]any {
	def, _ := json.Marshal(in.Definition)
	return map[string]any{"template_id": in.TemplateID, "type": in.Type, "definition": string(def), "message": in.Message, "message_en": in.MessageEn, "updated_at": now}
}

// insertRule adds a checked rule; rank is its place when the input has none.
func (s *Service) insertRule(ctx context.Context, tx *db.Tx, in *ReportRuleInput, rank int) (int64, error) {
	vals := in.values(s.now())
	vals["created_at"], vals["sort_order"] = vals["updated_at"], rank
	if in.Rank != nil {
		vals["sort_order"] = *in.Rank
	}
	id, err := db.InsertID(ctx, tx, tx.Builder().Insert("struct_rules").SetMap(vals))
	return id, apperr.Wrap(err, "insert rule")
}

// CreateRule adds a rule to a template, last.
func (s *Service) CreateRule(ctx context.Context, in ReportRuleInput) (*ReportRule, error) {
	var out *ReportRule
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.checkRule(ctx, tx, &in); err != nil {
			return err
		}
		var rank int
		if err := db.Get(ctx, tx, &rank, tx.Builder().Select("COALESCE(MAX(sort_order), -1) + 1").From("struct_rules").Where("template_id = ?", in.TemplateID)); err != nil {
			return apperr.Wrap(err, "next rank")
		}
		id, err := s.insertRule(ctx, tx, &in, rank)
		if err != nil {
			return err
		}
		if out, err = s.rule(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "struct_rule.create", ObjectType: "struct_rule", ObjectID: id, After: out})
	})
	return out, err
}

// UpdateRule changes a rule (it stays with its template).
func (s *Service) UpdateRule(ctx context.Context, id int64, in ReportRuleInput) (*ReportRule, error) {
	var out *ReportRule
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.rule(ctx, tx, id)
		if err != nil {
			return err
		}
		in.TemplateID = before.TemplateID
		if err := s.checkRule(ctx, tx, &in); err != nil {
			return err
		}
		vals := in.values(s.now())
		if in.Rank != nil {
			vals["sort_order"] = *in.Rank
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("struct_rules").SetMap(vals).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "update rule")
		}
		if out, err = s.rule(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "struct_rule.update", ObjectType: "struct_rule", ObjectID: id, Before: before, After: out})
	})
	return out, err
}

// DeleteRule removes a rule.
func (s *Service) DeleteRule(ctx context.Context, id int64, in StructDeleteInput) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.rule(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("struct_rules").Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete rule")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "struct_rule.delete", ObjectType: "struct_rule", ObjectID: id, Before: before, After: in})
	})
}

// ReportRuleBatch replaces the rules of a template with a list, in its order.
type ReportRuleBatch struct {
	TemplateID int64             `json:"template_id" minimum:"1"`
	Rules      []ReportRuleInput `json:"rules" maxItems:"200" doc:"The template's rules, in order (their template_id is ignored)"`
}

// BatchStoreRules replaces a template's rules, all or none; errors name the
// rule (rules.N.…).
func (s *Service) BatchStoreRules(ctx context.Context, in ReportRuleBatch) ([]ReportRule, error) {
	var out []ReportRule
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		t, err := s.template(ctx, tx, in.TemplateID, false)
		if apperr.Is(err, "error.not_found") {
			var v apperr.Validation
			v.Add("template_id", "structured.no_template")
			return v.Err()
		}
		if err != nil {
			return err
		}
		var v apperr.Validation
		for i := range in.Rules {
			in.Rules[i].TemplateID = in.TemplateID
			in.Rules[i].Rank = nil
			var rv apperr.Validation
			in.Rules[i].validate(t, &rv)
			prefix(&v, rv.Err(), "rules."+itoa(i)+".")
		}
		if err := v.Err(); err != nil {
			return err
		}
		before, err := s.rules(ctx, tx, in.TemplateID)
		if err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("struct_rules").Where("template_id = ?", in.TemplateID)); err != nil {
			return apperr.Wrap(err, "replace rules")
		}
		for i := range in.Rules {
			if _, err := s.insertRule(ctx, tx, &in.Rules[i], i); err != nil {
				return err
			}
		}
		if out, err = s.rules(ctx, tx, in.TemplateID); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "struct_rule.batch", ObjectType: "struct_template", ObjectID: in.TemplateID, Before: before, After: out})
	})
	return out, err
}
