package settings

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers GET and PUT /api/config/setting and the diagnosis
// settings (GET and POST /api/config/common/setting).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Settings", []httpx.Route{
		{Method: "GET", Path: "/api/config/setting", Public: true, Handler: httpx.Result(s.system), ID: "system-config", Summary: "Public system configuration"},
		{Method: "PUT", Path: "/api/config/setting", Roles: access.Admins, Handler: httpx.WithBody(s.Update), ID: "system-config-update", Summary: "Change the system configuration", MaxBody: 128 << 10},
		{Method: "PUT", Path: "/api/config/storage/threshold", Roles: access.Admins, Handler: httpx.WithBody(s.UpdateDiskSpace), ID: "storage-threshold-update", Summary: "Set the low disk space warning threshold (system config disk_space, GB) alone", MaxBody: 1 << 10},
		{Method: "GET", Path: "/api/config/common/setting", Roles: access.Any, Handler: httpx.Value(s.Diagnosis), ID: "diagnosis-config", Summary: "Diagnosis settings in force (the center's copy, falling back to the global one)"},
		{Method: "POST", Path: "/api/config/common/setting", Roles: access.Managers, Handler: httpx.WithBody(s.UpdateDiagnosis), ID: "diagnosis-config-update", Summary: "Change diagnosis settings (administrator: global; center administrator: their center's copy)", MaxBody: 64 << 10},
	})
}

func (s *Service) system(ctx context.Context) (System, error) { return s.System(ctx), nil }
