package report

import (
	"context"
	"net/http"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/listquery"
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
	tags := []string{"Report templates"}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/setting/report/list", ID: "report-template-list", Summary: "List report templates", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *listquery.Input) (*httpx.List[ReportTemplate], error) {
			rows, page, err := s.List(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/setting/report/count", ID: "report-template-count", Summary: "Report template tab counts (all, routine, frozen, cell)", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			c, err := s.Count(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/setting/report/options", ID: "report-template-options", Summary: "Sections and fields a report template may use", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, _ *struct{}) (*httpx.Data[ReportTemplateOptions], error) {
			o := ReportTemplateOptions{Sections: SectionKeys, Required: RequiredSections, PatientFields: PatientFields}
			for _, k := range SectionKeys {
				if Headless(k) {
					o.Headless = append(o.Headless, k)
				}
			}
			return httpx.OK(o), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/setting/report/default/{kind}", ID: "report-template-default", Summary: "The built-in layout of a report kind, to start a new template from", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *struct {
			Kind string `path:"kind" doc:"routine, frozen or cell"`
		}) (*httpx.Data[Layout], error) {
			switch in.Kind {
			case KindRoutine, KindFrozen, KindCell:
			default:
				return nil, apperr.New(apperr.NotFound, "error.not_found")
			}
			return httpx.OK(DefaultLayout(in.Kind)), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/setting/report/{id}", ID: "report-template-get", Summary: "Get a report template", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[*ReportTemplate], error) {
			t, err := s.Get(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(t), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/setting/report/add", ID: "report-template-create", Summary: "Create a report template", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *struct{ Body ReportTemplateInput }) (*httpx.Data[*ReportTemplate], error) {
			t, err := s.Create(ctx, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(t), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/setting/report/{id}", ID: "report-template-update", Summary: "Update a report template", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body ReportTemplateInput
		}) (*httpx.Data[*ReportTemplate], error) {
			t, err := s.Update(ctx, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(t), nil
		})
}
