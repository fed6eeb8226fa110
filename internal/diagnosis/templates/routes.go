package templates

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the template and term endpoints (spec 2 §7 Config).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Diagnosis templates", []httpx.Route{
		{Method: "GET", Path: "/api/config/template", Roles: access.TemplateWriters, Handler: httpx.Result(s.Templates), ID: "template-list", Summary: "Diagnosis templates: public ones and the caller's"},
		{Method: "POST", Path: "/api/config/template", Roles: access.TemplateWriters, Handler: httpx.WithBody(s.createTemplate), ID: "template-create", Summary: "Create a diagnosis template", MaxBody: 128 << 10},
		{Method: "POST", Path: "/api/config/template/{id}", Roles: access.TemplateWriters, Handler: httpx.ByIDWithBody(s.SaveTemplate), ID: "template-update", Summary: "Change a diagnosis template", MaxBody: 128 << 10},
		{Method: "DELETE", Path: "/api/config/template/{id}", Roles: access.TemplateWriters, Handler: httpx.ActionByID(s.DeleteTemplate), ID: "template-delete", Summary: "Delete a diagnosis template"},
	})
	api.Mount("Diagnosis terms", []httpx.Route{
		{Method: "GET", Path: "/api/config/term", Roles: access.TemplateWriters, Handler: httpx.Result(s.Terms), ID: "term-list", Summary: "Diagnosis terms: public ones and the caller's"},
		{Method: "POST", Path: "/api/config/term", Roles: access.TemplateWriters, Handler: httpx.WithBody(s.createTerm), ID: "term-create", Summary: "Create a diagnosis term", MaxBody: 8 << 10},
		{Method: "POST", Path: "/api/config/term/{id}", Roles: access.TemplateWriters, Handler: httpx.ByIDWithBody(s.SaveTerm), ID: "term-update", Summary: "Change a diagnosis term", MaxBody: 8 << 10},
		{Method: "DELETE", Path: "/api/config/term/{id}", Roles: access.TemplateWriters, Handler: httpx.ActionByID(s.DeleteTerm), ID: "term-delete", Summary: "Delete a diagnosis term"},
	})
}

func (s *Service) createTemplate(ctx context.Context, in TemplateInput) (*Template, error) {
	return s.SaveTemplate(ctx, 0, in)
}

func (s *Service) createTerm(ctx context.Context, in TermInput) (*Term, error) {
	return s.SaveTerm(ctx, 0, in)
}
