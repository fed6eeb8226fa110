package billing

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the charge item endpoints (spec 2 §7 generic resource
// pattern under /api/charge_item) and the timeout endpoints (config/timeout).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Charge items", []httpx.Route{
		{Method: "GET", Path: "/api/charge_item/lists", Roles: access.Any, Handler: httpx.ListOf(s.ListItems), ID: "charge-item-list", Summary: "List charge items"},
		{Method: "GET", Path: "/api/charge_item/count", Roles: access.Any, Handler: httpx.CountsOf(s.CountItems), ID: "charge-item-count", Summary: "Charge item tab counts (all, enabled, disabled)"},
		{Method: "GET", Path: "/api/charge_item/item/{id}", Roles: access.Any, Handler: httpx.ByID(s.Item), ID: "charge-item-get", Summary: "Get a charge item"},
		{Method: "POST", Path: "/api/charge_item/store", Roles: access.Managers, Handler: httpx.WithBody(s.CreateItem), ID: "charge-item-create", Summary: "Create a charge item", MaxBody: 16 << 10},
		{Method: "PATCH", Path: "/api/charge_item/update", Roles: access.Managers, Handler: httpx.WithBody(s.UpdateItem), ID: "charge-item-update", Summary: "Change the given fields of a charge item", MaxBody: 16 << 10},
		{Method: "DELETE", Path: "/api/charge_item/destroy", Roles: access.Managers, Handler: httpx.Action(s.destroyItems), ID: "charge-item-delete", Summary: "Delete charge items (all or none)", MaxBody: 64 << 10},
	})
	api.Mount("Timeouts", []httpx.Route{
		{Method: "GET", Path: "/api/config/timeout", Roles: access.Any, Handler: httpx.ListOf(s.ListTimeouts), ID: "timeout-list", Summary: "List timeout configurations"},
		{Method: "POST", Path: "/api/config/timeout", Roles: access.Admins, Handler: httpx.WithBody(s.CreateTimeout), ID: "timeout-create", Summary: "Create a timeout configuration", MaxBody: 8 << 10},
		{Method: "PATCH", Path: "/api/config/timeout/{id}", Roles: access.Admins, Handler: httpx.ByIDWithBody(s.UpdateTimeout), ID: "timeout-update", Summary: "Change the given fields of a timeout configuration", MaxBody: 8 << 10},
		{Method: "DELETE", Path: "/api/config/timeout/{id}", Roles: access.Admins, Handler: httpx.ActionByID(s.DeleteTimeout), ID: "timeout-delete", Summary: "Delete a timeout configuration"},
	})
}

func (s *Service) destroyItems(ctx context.Context, in *struct {
	Body struct {
		IDs []int64 `json:"ids" minItems:"1" maxItems:"1000"`
	}
}) error {
	return s.DestroyItems(ctx, in.Body.IDs)
}
