package org

import (
	"context"
	"net/http"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/listquery"
)

// Routes registers the center and hospital endpoints (spec 2 §7).
func (s *Service) Routes(api *httpx.API) {
	s.centerRoutes(api)
	s.hospitalRoutes(api)
}

func (s *Service) centerRoutes(api *httpx.API) {
	tags := []string{"Centers"}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/center/list", ID: "center-list", Summary: "List centers", Tags: tags, Roles: access.OrgReaders},
		func(ctx context.Context, in *listquery.Input) (*httpx.List[Center], error) {
			rows, page, err := s.ListCenters(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/center/count", ID: "center-count", Summary: "Center tab counts", Tags: tags, Roles: access.OrgReaders},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			c, err := s.CountCenters(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/center/{id}", ID: "center-get", Summary: "Get a center", Tags: tags, Roles: access.OrgReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[*Center], error) {
			c, err := s.Center(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/center/add", ID: "center-create", Summary: "Create a center or sub-center", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *struct{ Body CenterInput }) (*httpx.Data[*Center], error) {
			c, err := s.CreateCenter(ctx, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/center/{id}", ID: "center-update", Summary: "Update a center", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body CenterInput
		}) (*httpx.Data[*Center], error) {
			c, err := s.UpdateCenter(ctx, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/center/{id}", ID: "center-delete", Summary: "Delete a center without sub-centers or hospitals", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.DeleteCenter(ctx, in.ID)
		})
}

func (s *Service) hospitalRoutes(api *httpx.API) {
	tags := []string{"Hospitals"}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/hospital/list", ID: "hospital-list", Summary: "List hospitals (sites)", Tags: tags, Roles: access.OrgReaders},
		func(ctx context.Context, in *listquery.Input) (*httpx.List[Hospital], error) {
			rows, page, err := s.ListHospitals(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/hospital/count", ID: "hospital-count", Summary: "Hospital tab counts", Tags: tags, Roles: access.OrgReaders},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			c, err := s.CountHospitals(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/hospital/{id}", ID: "hospital-get", Summary: "Get a hospital", Tags: tags, Roles: access.OrgReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[*Hospital], error) {
			h, err := s.Hospital(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(h), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/hospital/add", ID: "hospital-create", Summary: "Create a hospital bound to centers", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *struct{ Body HospitalInput }) (*httpx.Data[*Hospital], error) {
			h, err := s.CreateHospital(ctx, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(h), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/hospital/{id}", ID: "hospital-update", Summary: "Update a hospital", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body HospitalInput
		}) (*httpx.Data[*Hospital], error) {
			h, err := s.UpdateHospital(ctx, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(h), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/hospital/{id}/bindCenter", ID: "hospital-bind-centers", Summary: "Bind a hospital to centers", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				CenterIDs []int64 `json:"center_ids" maxItems:"100"`
			}
		}) (*httpx.Data[*Hospital], error) {
			h, err := s.BindCenters(ctx, in.ID, in.Body.CenterIDs)
			if err != nil {
				return nil, err
			}
			return httpx.OK(h), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/hospital/{id}", ID: "hospital-delete", Summary: "Delete a hospital without users", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.DeleteHospital(ctx, in.ID)
		})
}
