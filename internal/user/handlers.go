package user

import (
	"context"
	"net/http"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/listquery"
)

// Routes registers the user endpoints (spec 2 §7 Users) and /api/auth/info.
func (s *Service) Routes(api *httpx.API, idle time.Duration) {
	tags := []string{"Users"}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/auth/info", ID: "auth-info", Summary: "The signed-in user, roles with configuration, centers and hospitals", Tags: []string{"Auth"}, Roles: access.Any, Allow: access.PasswordChange},
		func(ctx context.Context, _ *struct{}) (*httpx.Data[*Info], error) {
			info, err := s.Info(ctx, idle)
			if err != nil {
				return nil, err
			}
			return httpx.OK(info), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/role", ID: "role-list", Summary: "Roles the caller may grant", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, _ *struct{}) (*httpx.Data[[]RoleInfo], error) {
			return httpx.OK(s.Roles(ctx)), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/user", ID: "user-list", Summary: "List users (params.tab: all, enabled, disabled, locked)", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *listquery.Input) (*httpx.List[User], error) {
			rows, page, err := s.List(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/user/count", ID: "user-count", Summary: "User tab counts", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			c, err := s.Count(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/user/{id}", ID: "user-get", Summary: "Get a user", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[*User], error) {
			u, err := s.Get(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(u), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/user", ID: "user-create", Summary: "Create a user", Tags: tags, Roles: access.Managers, MaxBody: 64 << 10},
		func(ctx context.Context, in *struct{ Body UserInput }) (*httpx.Data[*User], error) {
			u, err := s.Create(ctx, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(u), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/user/{id}", ID: "user-update", Summary: "Update a user", Tags: tags, Roles: access.Managers, MaxBody: 64 << 10},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body UserInput
		}) (*httpx.Data[*User], error) {
			u, err := s.Update(ctx, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(u), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/user/{id}", ID: "user-delete", Summary: "Delete a user", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.Delete(ctx, in.ID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/user/status/{id}", ID: "user-status", Summary: "Enable (1) or disable (0) a user", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				Status *int `json:"status,omitempty" enum:"0,1"`
			}
		}) (*httpx.Empty, error) {
			if in.Body.Status == nil {
				return nil, apperr.New(apperr.Invalid, "error.validation").Field("status", "field.required")
			}
			return httpx.Done(), s.SetStatus(ctx, in.ID, *in.Body.Status)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/user/reset_password/{id}", ID: "user-reset-password", Summary: "Set a new password for a user", Tags: tags, Roles: access.Managers, MaxBody: 8 << 10},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				Password string `json:"password,omitempty" maxLength:"1024" doc:"Encrypted like the login password"`
			}
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.ResetPassword(ctx, in.ID, in.Body.Password)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/user/delLoginLock/{id}", ID: "user-unlock", Summary: "Lift a sign-in lock", Tags: tags, Roles: access.Managers},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.Unlock(ctx, in.ID)
		})
}
