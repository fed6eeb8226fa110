package reagent

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the reagent endpoints (the generic resource pattern of
// spec 2 §7 under /api/reagent).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Reagents", []httpx.Route{
		{Method: "GET", Path: "/api/reagent/lists", Roles: access.Admins, Handler: httpx.ListOf(s.List), ID: "reagent-list", Summary: "List reagents"},
		{Method: "GET", Path: "/api/reagent/count", Roles: access.Admins, Handler: httpx.CountsOf(s.Count), ID: "reagent-count", Summary: "Reagent tab counts (all, enabled, disabled)"},
		{Method: "GET", Path: "/api/reagent/item/{id}", Roles: access.Admins, Handler: httpx.ByID(s.Get), ID: "reagent-get", Summary: "Get a reagent"},
		{Method: "GET", Path: "/api/reagent/options", Roles: access.Any, Handler: httpx.Result(s.Options), ID: "reagent-options", Summary: "Enabled reagents that have not expired (the marker picker)"},
		{Method: "POST", Path: "/api/reagent/store", Roles: access.Admins, Handler: httpx.WithBody(s.Create), ID: "reagent-create", Summary: "Create a reagent", MaxBody: 16 << 10},
		{Method: "PATCH", Path: "/api/reagent/update", Roles: access.Admins, Handler: httpx.WithBody(s.Update), ID: "reagent-update", Summary: "Change the given fields of a reagent", MaxBody: 16 << 10},
		{Method: "DELETE", Path: "/api/reagent/destroy", Roles: access.Admins, Handler: httpx.Action(s.destroy), ID: "reagent-delete", Summary: "Delete reagents (all or none)", MaxBody: 64 << 10},
	})
}

func (s *Service) destroy(ctx context.Context, in *struct {
	Body struct {
		IDs []int64 `json:"ids" minItems:"1" maxItems:"1000"`
	}
}) error {
	return s.Destroy(ctx, in.Body.IDs)
}
