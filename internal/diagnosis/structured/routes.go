package structured

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the structured template, rule and symbol endpoints
// (spec 2 §7 Configuration). The administrators keep them; experts (and
// administrators) read them and evaluate values.
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Structured report templates", []httpx.Route{
		{Method: "GET", Path: "/api/config/struct_template", Roles: access.TemplateWriters, Handler: httpx.Value(s.listTemplates), ID: "struct-template-list", Summary: "Structured report templates in their order (filter by kind, enabled, library)"},
		{Method: "POST", Path: "/api/config/struct_template", Roles: access.Admins, Handler: httpx.WithBody(s.CreateTemplate), ID: "struct-template-create", Summary: "Create a structured report template", MaxBody: 256 << 10},
		{Method: "GET", Path: "/api/config/struct_template/{id}", Roles: access.TemplateWriters, Handler: httpx.ByID(s.Template), ID: "struct-template-get", Summary: "Get a structured report template"},
		{Method: "POST", Path: "/api/config/struct_template/{id}", Roles: access.Admins, Handler: httpx.ByIDWithBody(s.UpdateTemplate), ID: "struct-template-update", Summary: "Change a structured report template (its rules must still fit)", MaxBody: 256 << 10},
		{Method: "DELETE", Path: "/api/config/struct_template/{id}", Roles: access.Admins, Handler: httpx.ActionByIDWithBody(s.DeleteTemplate), ID: "struct-template-delete", Summary: "Delete a structured report template, with an optional reason"},
		{Method: "POST", Path: "/api/config/struct_template/rank/{id}", Roles: access.Admins, Handler: httpx.ByIDWithBody(s.RankTemplate), ID: "struct-template-rank", Summary: "Move a structured report template to a place in the list"},
		{Method: "POST", Path: "/api/config/struct_template/batchStore", Roles: access.Admins, Handler: httpx.WithBody(s.BatchStore), ID: "struct-template-batch", Summary: "Import structured report templates with their rules (all or none)", MaxBody: 2 << 20},
		{Method: "POST", Path: "/api/config/struct_template/evaluate/{id}", Roles: access.TemplateWriters, Handler: httpx.ByIDWithBody(s.Evaluate), ID: "struct-template-evaluate", Summary: "Run a template's rules on filled-in values (evaluate/{id} beside the spec's rank/{id}, which the router cannot hold with {id}/evaluate): the values after assignments and calculations, the rendered text, codes, hints and blocking errors", MaxBody: 64 << 10},
	})
	api.Mount("Report rules", []httpx.Route{
		{Method: "GET", Path: "/api/config/rule", Roles: access.TemplateWriters, Handler: httpx.Value(s.Rules), ID: "struct-rule-list", Summary: "A structured template's rules in their order"},
		{Method: "POST", Path: "/api/config/rule", Roles: access.Admins, Handler: httpx.WithBody(s.CreateRule), ID: "struct-rule-create", Summary: "Add a rule to a structured template", MaxBody: 64 << 10},
		{Method: "GET", Path: "/api/config/rule/{id}", Roles: access.TemplateWriters, Handler: httpx.ByID(s.Rule), ID: "struct-rule-get", Summary: "Get a rule"},
		{Method: "POST", Path: "/api/config/rule/{id}", Roles: access.Admins, Handler: httpx.ByIDWithBody(s.UpdateRule), ID: "struct-rule-update", Summary: "Change a rule", MaxBody: 64 << 10},
		{Method: "DELETE", Path: "/api/config/rule/{id}", Roles: access.Admins, Handler: httpx.ActionByIDWithBody(s.DeleteRule), ID: "struct-rule-delete", Summary: "Delete a rule, with an optional reason"},
		{Method: "POST", Path: "/api/config/rule/batchStore", Roles: access.Admins, Handler: httpx.WithBody(s.BatchStoreRules), ID: "struct-rule-batch", Summary: "Replace a template's rules with a list, in order (all or none)", MaxBody: 1 << 20},
	})
	api.Mount("Symbols", []httpx.Route{
		{Method: "GET", Path: "/api/config/symbol/lists", Roles: access.TemplateWriters, Handler: httpx.Result(s.Symbols), ID: "symbol-list", Summary: "The special characters offered in the diagnosis editor, in order"},
		{Method: "POST", Path: "/api/config/symbol/update", Roles: access.Admins, Handler: httpx.WithBody(s.UpdateSymbols), ID: "symbol-update", Summary: "Replace the list of symbols (change, reorder, add, remove; all or none)", MaxBody: 64 << 10},
		{Method: "POST", Path: "/api/config/symbol/store", Roles: access.Admins, Handler: httpx.WithBody(s.StoreSymbol), ID: "symbol-create", Summary: "Add a symbol at the end of the list", MaxBody: 4 << 10},
	})
}

func (s *Service) listTemplates(ctx context.Context, p *StructTemplateParams) ([]StructTemplate, error) {
	return s.Templates(ctx, p)
}
