package billing

import (
	"context"
	"net/http"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/listquery"
)

// Routes registers the charge item endpoints (spec 2 §7 generic resource
// pattern under /api/charge_item) and the timeout endpoints (config/timeout).
func (s *Service) Routes(api *httpx.API) {
	s.itemRoutes(api)
	s.timeoutRoutes(api)
}

func (s *Service) itemRoutes(api *httpx.API) {
	tags := []string{"Charge items"}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/charge_item/lists", ID: "charge-item-list", Summary: "List charge items", Tags: tags, Roles: access.Any},
		func(ctx context.Context, in *listquery.Input) (*httpx.List[Item], error) {
			rows, page, err := s.ListItems(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/charge_item/count", ID: "charge-item-count", Summary: "Charge item tab counts (all, enabled, disabled)", Tags: tags, Roles: access.Any},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			c, err := s.CountItems(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/charge_item/item/{id}", ID: "charge-item-get", Summary: "Get a charge item", Tags: tags, Roles: access.Any},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[*Item], error) {
			it, err := s.Item(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(it), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/charge_item/store", ID: "charge-item-create", Summary: "Create a charge item", Tags: tags, Roles: access.Managers, MaxBody: 16 << 10},
		func(ctx context.Context, in *struct{ Body ItemInput }) (*httpx.Data[*Item], error) {
			it, err := s.CreateItem(ctx, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(it), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPatch, Path: "/api/charge_item/update", ID: "charge-item-update", Summary: "Change the given fields of a charge item", Tags: tags, Roles: access.Managers, MaxBody: 16 << 10},
		func(ctx context.Context, in *struct{ Body ItemPatch }) (*httpx.Data[*Item], error) {
			it, err := s.UpdateItem(ctx, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(it), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/charge_item/destroy", ID: "charge-item-delete", Summary: "Delete charge items (all or none)", Tags: tags, Roles: access.Managers, MaxBody: 64 << 10},
		func(ctx context.Context, in *struct {
			Body struct {
				IDs []int64 `json:"ids" minItems:"1" maxItems:"1000"`
			}
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.DestroyItems(ctx, in.Body.IDs)
		})
}

func (s *Service) timeoutRoutes(api *httpx.API) {
	tags := []string{"Timeouts"}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/config/timeout", ID: "timeout-list", Summary: "List timeout configurations", Tags: tags, Roles: access.Any},
		func(ctx context.Context, in *listquery.Input) (*httpx.List[TimeoutConfig], error) {
			rows, page, err := s.ListTimeouts(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/config/timeout", ID: "timeout-create", Summary: "Create a timeout configuration", Tags: tags, Roles: access.Admins, MaxBody: 8 << 10},
		func(ctx context.Context, in *struct{ Body TimeoutInput }) (*httpx.Data[*TimeoutConfig], error) {
			t, err := s.CreateTimeout(ctx, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(t), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPatch, Path: "/api/config/timeout/{id}", ID: "timeout-update", Summary: "Change the given fields of a timeout configuration", Tags: tags, Roles: access.Admins, MaxBody: 8 << 10},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body TimeoutPatch
		}) (*httpx.Data[*TimeoutConfig], error) {
			t, err := s.UpdateTimeout(ctx, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(t), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/config/timeout/{id}", ID: "timeout-delete", Summary: "Delete a timeout configuration", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.DeleteTimeout(ctx, in.ID)
		})
}
