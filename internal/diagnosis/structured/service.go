package structured

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
)

// Service keeps the structured templates, their rules and the symbols.
type Service struct {
	db         *db.DB
	clock      clock.Clock
	reportKind func(ctx context.Context, libraryID int64) (string, error)
}

// UseReportKind sets how a library's report kind is found (the templates
// offered on a case are those of its library's report kind).
func (s *Service) UseReportKind(f func(ctx context.Context, libraryID int64) (string, error)) {
	s.reportKind = f
}

// New returns the structured templates service.
func New(d *db.DB) *Service { return &Service{db: d} }

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now() }

func notFound() error { return apperr.New(apperr.NotFound, "error.not_found") }

const templateColumns = `t.id, t.name, t.name_en, t.kind, t.library_id, t.sort_order AS "rank", t.enabled <> 0 AS enabled, t.fields, t.created_at, t.updated_at,
	(SELECT COUNT(*) FROM struct_rules r WHERE r.template_id = t.id) AS rule_count`

func decodeTemplates(ts []StructTemplate) error {
	for i := range ts {
		if err := json.Unmarshal([]byte(ts[i].FieldsRaw), &ts[i].Fields); err != nil {
			return apperr.Wrap(err, "decode template fields")
		}
	}
	return nil
}

// StructTemplateParams filter the templates (GET params).
type StructTemplateParams struct {
	Kind      string `query:"kind" enum:",routine,frozen,cell" doc:"Only templates of this report kind"`
	Enabled   bool   `query:"enabled" doc:"Only enabled templates"`
	LibraryID int64  `query:"library_id" doc:"The templates offered on a case of this library: of its report kind, for every library or this one"`
}

// Templates lists the templates in their rank order.
func (s *Service) Templates(ctx context.Context, p *StructTemplateParams) ([]StructTemplate, error) {
	return s.templates(ctx, s.db, p)
}

func (s *Service) templates(ctx context.Context, q db.Querier, p *StructTemplateParams) ([]StructTemplate, error) {
	b := s.db.Builder().Select(templateColumns).From("struct_templates t").Where("t.deleted_at IS NULL").OrderBy("t.sort_order", "t.id")
	if p.Kind != "" {
		b = b.Where("t.kind = ?", p.Kind)
	}
	if p.Enabled {
		b = b.Where("t.enabled <> 0")
	}
	if p.LibraryID > 0 {
		b = b.Where("(t.library_id IS NULL OR t.library_id = ?)", p.LibraryID)
		if s.reportKind != nil {
			kind, err := s.reportKind(ctx, p.LibraryID)
			if err != nil {
				return nil, err
			}
			b = b.Where("t.kind = ?", kind)
		}
	}
	out := []StructTemplate{}
	if err := db.Select(ctx, q, &out, b); err != nil {
		return nil, apperr.Wrap(err, "load structured templates")
	}
	return out, decodeTemplates(out)
}

// StructTemplate returns one template.
func (s *Service) Template(ctx context.Context, id int64) (*StructTemplate, error) {
	return s.template(ctx, s.db, id, false)
}

func (s *Service) template(ctx context.Context, q db.Querier, id int64, deleted bool) (*StructTemplate, error) {
	b := s.db.Builder().Select(templateColumns).From("struct_templates t").Where("t.id = ?", id)
	if !deleted {
		b = b.Where("t.deleted_at IS NULL")
	}
	var out []StructTemplate
	if err := db.Select(ctx, q, &out, b); err != nil {
		return nil, apperr.Wrap(err, "load structured template")
	}
	if len(out) == 0 {
		return nil, notFound()
	}
	return &out[0], decodeTemplates(out)
}

// CreateTemplate adds a template, last in rank.
func (s *Service) CreateTemplate(ctx context.Context, in StructTemplateInput) (*StructTemplate, error) {
	var out *StructTemplate
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		id, err := s.insertTemplate(ctx, tx, &in)
		if err != nil {
			return err
		}
		if out, err = s.template(ctx, tx, id, false); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "struct_template.create", ObjectType: "struct_template", ObjectID: id, After: out})
	})
	return out, err
}

func (s *Service) checkLibrary(ctx context.Context, q db.Querier, in *StructTemplateInput, v *apperr.Validation) error {
	if in.LibraryID == nil || *in.LibraryID == 0 {
		in.LibraryID = nil
		return nil
	}
	var n int
	if err := db.Get(ctx, q, &n, s.db.Builder().Select("COUNT(*)").From("libraries").Where("id = ?", *in.LibraryID)); err != nil {
		return apperr.Wrap(err, "check library")
	}
	if n == 0 {
		v.Add("library_id", "field.invalid")
	}
	return nil
}

func (s *Service) insertTemplate(ctx context.Context, tx *db.Tx, in *StructTemplateInput) (int64, error) {
	var v apperr.Validation
	in.validate(&v, i18n.From(ctx))
	if err := s.checkLibrary(ctx, tx, in, &v); err != nil {
		return 0, err
	}
	if err := v.Err(); err != nil {
		return 0, err
	}
	var rank int
	if err := db.Get(ctx, tx, &rank, tx.Builder().Select("COALESCE(MAX(sort_order), -1) + 1").From("struct_templates").Where("deleted_at IS NULL")); err != nil {
		return 0, apperr.Wrap(err, "next rank")
	}
	vals := in.values(s.now())
	vals["sort_order"], vals["created_at"] = rank, vals["updated_at"]
	id, err := db.InsertID(ctx, tx, tx.Builder().Insert("struct_templates").SetMap(vals))
	return id, apperr.Wrap(err, "insert structured template")
}

func (in *StructTemplateInput) values(now time.Time) map[string]any {
	fields, _ := json.Marshal(in.Fields)
	enabled := 1
	if in.Enabled != nil && !*in.Enabled {
		enabled = 0
	}
	return map[string]any{"name": in.Name, "name_en": in.NameEn, "kind": in.Kind, "library_id": in.LibraryID, "enabled": enabled, "fields": string(fields), "updated_at": now}
}

// UpdateTemplate changes a template. Its rules must still fit the new
// fields (a field a rule uses is not removed or retyped).
func (s *Service) UpdateTemplate(ctx context.Context, id int64, in StructTemplateInput) (*StructTemplate, error) {
	var out *StructTemplate
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.template(ctx, tx, id, false)
		if err != nil {
			return err
		}
		var v apperr.Validation
		in.validate(&v, i18n.From(ctx))
		if err := s.checkLibrary(ctx, tx, &in, &v); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		rules, err := s.rules(ctx, tx, id)
		if err != nil {
			return err
		}
		for _, r := range rules {
			var rv apperr.Validation
			ri := ReportRuleInput{TemplateID: id, Type: r.Type, Definition: r.Definition, Message: r.Message}
			if ri.validate(in.template(), &rv); rv.Err() != nil {
				v.Add("fields", "structured.field_in_use", "rule", apperr.MsgKey("structured.type."+r.Type))
				return v.Err()
			}
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("struct_templates").SetMap(in.values(s.now())).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "update structured template")
		}
		if out, err = s.template(ctx, tx, id, false); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "struct_template.update", ObjectType: "struct_template", ObjectID: id, Before: before, After: out})
	})
	return out, err
}

// StructDeleteInput says why a template or rule is deleted (kept in the audit log).
type StructDeleteInput struct {
	Reason string `json:"reason,omitempty" maxLength:"200"`
}

// DeleteTemplate removes a template (and so its rules) from the lists.
func (s *Service) DeleteTemplate(ctx context.Context, id int64, in StructDeleteInput) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.template(ctx, tx, id, false)
		if err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("struct_templates").Set("deleted_at", s.now()).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete structured template")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "struct_template.delete", ObjectType: "struct_template", ObjectID: id,
			Before: before, After: in})
	})
}

// StructRankInput moves a template to a place in the list.
type StructRankInput struct {
	Position int `json:"position" minimum:"0" doc:"The new place, from 0, in the list of all templates"`
}

// RankTemplate moves a template to a place in the list; the others keep
// their order.
func (s *Service) RankTemplate(ctx context.Context, id int64, in StructRankInput) ([]StructTemplate, error) {
	var out []StructTemplate
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		all, err := s.templates(ctx, tx, &StructTemplateParams{})
		if err != nil {
			return err
		}
		at := slices.IndexFunc(all, func(t StructTemplate) bool { return t.ID == id })
		if at < 0 {
			return notFound()
		}
		moved := all[at]
		all = slices.Delete(all, at, at+1)
		pos := min(max(in.Position, 0), len(all))
		all = slices.Insert(all, pos, moved)
		for i, t := range all {
			if t.Rank != i {
				if _, err := db.Exec(ctx, tx, tx.Builder().Update("struct_templates").Set("sort_order", i).Where("id = ?", t.ID)); err != nil {
					return apperr.Wrap(err, "rank structured template")
				}
			}
		}
		if out, err = s.templates(ctx, tx, &StructTemplateParams{}); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "struct_template.rank", ObjectType: "struct_template", ObjectID: id, After: in})
	})
	return out, err
}

// StructTemplateImport is a template with its rules (batchStore).
type StructTemplateImport struct {
	StructTemplateInput
	Rules []ReportRuleInput `json:"rules,omitempty" maxItems:"200" doc:"Its rules (template_id is ignored)"`
}

// StructTemplateBatch imports templates with their rules.
type StructTemplateBatch struct {
	Templates []StructTemplateImport `json:"templates" minItems:"1" maxItems:"100"`
}

// BatchStore imports templates with their rules, all or none; the errors
// name the template (templates.N.…).
func (s *Service) BatchStore(ctx context.Context, in StructTemplateBatch) ([]StructTemplate, error) {
	var out []StructTemplate
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		out = []StructTemplate{} // InTx may run this again
		var v apperr.Validation
		for i := range in.Templates {
			err := s.checkImport(ctx, tx, &in.Templates[i])
			if err != nil && apperr.CodeOf(err) != apperr.Invalid {
				return err
			}
			prefix(&v, err, "templates."+itoa(i)+".")
		}
		if err := v.Err(); err != nil {
			return err
		}
		for i := range in.Templates {
			ti := &in.Templates[i]
			id, err := s.insertTemplate(ctx, tx, &ti.StructTemplateInput)
			if err != nil {
				return err
			}
			for j := range ti.Rules {
				ti.Rules[j].TemplateID = id
				if _, err := s.insertRule(ctx, tx, &ti.Rules[j], j); err != nil {
					return err
				}
			}
			t, err := s.template(ctx, tx, id, false)
			if err != nil {
				return err
			}
			out = append(out, *t)
			if err := audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "struct_template.create", ObjectType: "struct_template", ObjectID: id, After: ti}); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// checkImport checks a template with its rules.
func (s *Service) checkImport(ctx context.Context, q db.Querier, ti *StructTemplateImport) error {
	var v apperr.Validation
	ti.validate(&v, i18n.From(ctx))
	if err := s.checkLibrary(ctx, q, &ti.StructTemplateInput, &v); err != nil {
		return err
	}
	if v.Err() == nil {
		for j := range ti.Rules {
			var rv apperr.Validation
			ti.Rules[j].validate(ti.template(), &rv)
			prefix(&v, rv.Err(), "rules."+itoa(j)+".")
		}
	}
	return v.Err()
}

// prefix copies err's field errors into v under a prefix.
func prefix(v *apperr.Validation, err error, p string) {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return
	}
	for _, f := range ae.FieldOrder() {
		for _, m := range ae.Fields[f] {
			args := []any{}
			for k, a := range m.Args {
				args = append(args, k, a)
			}
			v.Add(p+f, m.Key, args...)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// StructEvaluateInput is the values an expert filled in.
type StructEvaluateInput struct {
	Values map[string]any `json:"values"`
}

// Evaluate runs a template's rules on values (the structured form's live
// check), in the caller's language.
func (s *Service) Evaluate(ctx context.Context, id int64, in StructEvaluateInput) (*StructResult, error) {
	t, err := s.template(ctx, s.db, id, false)
	if err != nil {
		return nil, err
	}
	rules, err := s.rules(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	r := Evaluate(t, rules, in.Values, i18n.From(ctx))
	return &r, nil
}

// Problems are the blocking problems of values saved with a diagnosis, in
// the caller's language (nothing when the template is gone). The diagnosis
// package asks before publishing, in its transaction.
func (s *Service) Problems(ctx context.Context, q db.Querier, templateID int64, values map[string]any) ([]string, error) {
	t, err := s.template(ctx, q, templateID, false)
	if apperr.Is(err, "error.not_found") {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	rules, err := s.rules(ctx, q, templateID)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range Evaluate(t, rules, values, i18n.From(ctx)).Errors {
		out = append(out, p.Message)
	}
	return out, nil
}

// Values checks values about to be saved with a diagnosis: the template
// exists and each value fits its field (field errors under values.KEY).
func (s *Service) Values(ctx context.Context, q db.Querier, templateID int64, values map[string]any) (map[string]any, error) {
	t, err := s.template(ctx, q, templateID, false)
	if apperr.Is(err, "error.not_found") {
		var v apperr.Validation
		v.Add("template_id", "structured.no_template")
		return nil, v.Err()
	}
	if err != nil {
		return nil, err
	}
	out, bad := Check(t, values)
	if len(bad) > 0 {
		var v apperr.Validation
		lang := i18n.From(ctx)
		for _, p := range bad {
			v.Add("values."+p.Field, p.key, "label", t.field(p.Field).label(lang))
		}
		return nil, v.Err()
	}
	return out, nil
}
