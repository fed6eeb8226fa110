package report

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
)

// ReportTemplateOptions is what the template editor offers: every section and
// patient field that exists, which sections are required and which take no
// heading.
type ReportTemplateOptions struct {
	Sections      []string `json:"sections"`
	Required      []string `json:"required"`
	Headless      []string `json:"headless"`
	PatientFields []string `json:"patient_fields"`
}

// Routes registers the report template endpoints behind /setting/report
// (spec 1 §2: administrators only).
func (s *Templates) Routes(api *httpx.API) {
	api.Mount("Report templates", []httpx.Route{
		{Method: "GET", Path: "/api/setting/report/list", Roles: access.Admins, Handler: httpx.ListOf(s.List), ID: "report-template-list", Summary: "List report templates"},
		{Method: "GET", Path: "/api/setting/report/count", Roles: access.Admins, Handler: httpx.CountsOf(s.Count), ID: "report-template-count", Summary: "Report template tab counts (all, routine, frozen, cell)"},
		{Method: "GET", Path: "/api/setting/report/options", Roles: access.Admins, Handler: httpx.Result(options), ID: "report-template-options", Summary: "Sections and fields a report template may use"},
		{Method: "GET", Path: "/api/setting/report/default/{kind}", Roles: access.Admins, Handler: httpx.Value(defaultLayout), ID: "report-template-default", Summary: "The built-in layout of a report kind, to start a new template from"},
		{Method: "GET", Path: "/api/setting/report/{id}", Roles: access.Admins, Handler: httpx.ByID(s.Get), ID: "report-template-get", Summary: "Get a report template"},
		{Method: "POST", Path: "/api/setting/report/add", Roles: access.Admins, Handler: httpx.WithBody(s.Create), ID: "report-template-create", Summary: "Create a report template"},
		{Method: "POST", Path: "/api/setting/report/{id}", Roles: access.Admins, Handler: httpx.ByIDWithBody(s.Update), ID: "report-template-update", Summary: "Update a report template"},
	})
}

func options(context.Context) (ReportTemplateOptions, error) {
	o := ReportTemplateOptions{Sections: SectionKeys, Required: RequiredSections, PatientFields: PatientFields}
	for _, k := range SectionKeys {
		if Headless(k) {
			o.Headless = append(o.Headless, k)
		}
	}
	return o, nil
}

func defaultLayout(_ context.Context, in *struct {
	Kind string `path:"kind" doc:"routine, frozen or cell"`
}) (Layout, error) {
	switch in.Kind {
	case KindRoutine, KindFrozen, KindCell:
		return DefaultLayout(in.Kind), nil
	}
	return Layout{}, apperr.New(apperr.NotFound, "error.not_found")
}
