package org

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the center and hospital endpoints (spec 2 §7).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Centers", []httpx.Route{
		{Method: "GET", Path: "/api/center/list", Roles: access.OrgReaders, Handler: httpx.ListOf(s.ListCenters), ID: "center-list", Summary: "List centers"},
		{Method: "GET", Path: "/api/center/count", Roles: access.OrgReaders, Handler: httpx.CountsOf(s.CountCenters), ID: "center-count", Summary: "Center tab counts"},
		{Method: "GET", Path: "/api/center/{id}", Roles: access.OrgReaders, Handler: httpx.ByID(s.Center), ID: "center-get", Summary: "Get a center"},
		{Method: "POST", Path: "/api/center/add", Roles: access.Admins, Handler: httpx.WithBody(s.CreateCenter), ID: "center-create", Summary: "Create a center or sub-center"},
		{Method: "POST", Path: "/api/center/{id}", Roles: access.Admins, Handler: httpx.ByIDWithBody(s.UpdateCenter), ID: "center-update", Summary: "Update a center"},
		{Method: "DELETE", Path: "/api/center/{id}", Roles: access.Admins, Handler: httpx.ActionByID(s.DeleteCenter), ID: "center-delete", Summary: "Delete a center without sub-centers or hospitals"},
	})
	api.Mount("Hospitals", []httpx.Route{
		{Method: "GET", Path: "/api/hospital/list", Roles: access.OrgReaders, Handler: httpx.ListOf(s.ListHospitals), ID: "hospital-list", Summary: "List hospitals (sites)"},
		{Method: "GET", Path: "/api/hospital/count", Roles: access.OrgReaders, Handler: httpx.CountsOf(s.CountHospitals), ID: "hospital-count", Summary: "Hospital tab counts"},
		{Method: "GET", Path: "/api/hospital/{id}", Roles: access.OrgReaders, Handler: httpx.ByID(s.Hospital), ID: "hospital-get", Summary: "Get a hospital"},
		{Method: "POST", Path: "/api/hospital/add", Roles: access.Managers, Handler: httpx.WithBody(s.CreateHospital), ID: "hospital-create", Summary: "Create a hospital bound to centers"},
		{Method: "POST", Path: "/api/hospital/{id}", Roles: access.Managers, Handler: httpx.ByIDWithBody(s.UpdateHospital), ID: "hospital-update", Summary: "Update a hospital"},
		{Method: "POST", Path: "/api/hospital/{id}/bindCenter", Roles: access.Managers, Handler: httpx.Value(s.hospitalBindCenters), ID: "hospital-bind-centers", Summary: "Bind a hospital to centers"},
		{Method: "DELETE", Path: "/api/hospital/{id}", Roles: access.Managers, Handler: httpx.ActionByID(s.DeleteHospital), ID: "hospital-delete", Summary: "Delete a hospital without users"},
	})
}

func (s *Service) hospitalBindCenters(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		CenterIDs []int64 `json:"center_ids" maxItems:"100"`
	}
}) (*Hospital, error) {
	return s.BindCenters(ctx, in.ID, in.Body.CenterIDs)
}
