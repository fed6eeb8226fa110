package settings

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers GET and PUT /api/config/setting.
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Settings", []httpx.Route{
		{Method: "GET", Path: "/api/config/setting", Public: true, Handler: httpx.Result(s.system), ID: "system-config", Summary: "Public system configuration"},
		{Method: "PUT", Path: "/api/config/setting", Roles: access.Admins, Handler: httpx.WithBody(s.Update), ID: "system-config-update", Summary: "Change the system configuration", MaxBody: 16 << 10},
	})
}

func (s *Service) system(ctx context.Context) (System, error) { return s.System(ctx), nil }
