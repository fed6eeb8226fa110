package user

import (
	"context"
	"io"
	"mime/multipart"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
)

// Routes registers the user endpoints (spec 2 §7 Users) and the expert's
// own signature.
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Users", []httpx.Route{
		{Method: "GET", Path: "/api/role", Roles: access.Managers, Handler: httpx.Result(s.grantable), ID: "role-list", Summary: "Roles the caller may grant"},
		{Method: "GET", Path: "/api/user", Roles: access.Managers, Handler: httpx.ListOf(s.List), ID: "user-list", Summary: "List users (params.tab: all, enabled, disabled, locked)"},
		{Method: "GET", Path: "/api/admin/manage", Roles: access.Admins, Handler: httpx.ListOf(s.Administrators), ID: "admin-manage-list", Summary: "Administrators and center administrators with what each may manage (params.tab: all, admin, center_admin)"},
		{Method: "GET", Path: "/api/admin/manage/count", Roles: access.Admins, Handler: httpx.CountsOf(s.AdministratorCounts), ID: "admin-manage-count", Summary: "Tab counts of the administrators list"},
		{Method: "GET", Path: "/api/user/count", Roles: access.Managers, Handler: httpx.CountsOf(s.Count), ID: "user-count", Summary: "User tab counts"},
		{Method: "GET", Path: "/api/user/role/config", Roles: access.Managers, Handler: httpx.Value(s.roleConfigs), ID: "user-role-config-get", Summary: "A user's roles with their configuration (expert: subspecialties, takes_cases; allocator: center_ids; site: site_id)"},
		{Method: "POST", Path: "/api/user/role/config", Roles: access.Managers, Handler: httpx.WithBody(s.SetRoleConfig), ID: "user-role-config-set", Summary: "Set one role's configuration of a user", MaxBody: 16 << 10},
		{Method: "GET", Path: "/api/user/{id}", Roles: access.Managers, Handler: httpx.ByID(s.Get), ID: "user-get", Summary: "Get a user"},
		{Method: "POST", Path: "/api/user", Roles: access.Managers, Handler: httpx.WithBody(s.Create), ID: "user-create", Summary: "Create a user", MaxBody: 64 << 10},
		{Method: "POST", Path: "/api/user/{id}", Roles: access.Managers, Handler: httpx.ByIDWithBody(s.Update), ID: "user-update", Summary: "Update a user", MaxBody: 64 << 10},
		{Method: "DELETE", Path: "/api/user/{id}", Roles: access.Managers, Handler: httpx.ActionByID(s.Delete), ID: "user-delete", Summary: "Delete a user"},
		{Method: "POST", Path: "/api/user/status/{id}", Roles: access.Managers, Handler: httpx.Action(s.setStatus), ID: "user-status", Summary: "Enable (1) or disable (0) a user"},
		{Method: "POST", Path: "/api/user/reset_password/{id}", Roles: access.Managers, Handler: httpx.Action(s.resetPassword), ID: "user-reset-password", Summary: "Set a new password for a user", MaxBody: 8 << 10},
		{Method: "POST", Path: "/api/user/password", Roles: access.Any, Handler: httpx.Action(s.changeOwnPassword), ID: "change-own-password", Summary: "Change the caller's password; ends their other sessions (after too many wrong old passwords, this one: 401)", MaxBody: 8 << 10, Allow: access.PasswordChange, Tags: []string{"Auth"}},
		{Method: "POST", Path: "/api/user/delLoginLock/{id}", Roles: access.Managers, Handler: httpx.ActionByID(s.Unlock), ID: "user-unlock", Summary: "Lift a sign-in lock"},
		{Method: "GET", Path: "/api/user/diagnosis/status", Roles: access.Experts, Handler: httpx.Value(s.ownAvailability), ID: "user-availability-get", Summary: "The calling expert's availability for new cases"},
		{Method: "PATCH", Path: "/api/user/diagnosis/status", Roles: access.Experts, Handler: httpx.WithBody(s.SetAvailability), ID: "user-availability-set", Summary: "Mark the calling expert available or away (with an optional note and return day)", MaxBody: 8 << 10},
		{Method: "GET", Path: "/api/user/signature", Roles: access.Experts, Handler: httpx.Raw(s.ownSignature), ID: "user-signature-get", Summary: "The signed-in expert's signature image (404 when none)"},
		{Method: "POST", Path: "/api/user/signature", Roles: access.Experts, Handler: httpx.Action(s.uploadSignature), ID: "user-signature-set", Summary: "Upload the signed-in expert's signature (multipart file: PNG or JPEG, at most 512 KB)", MaxBody: MaxSignatureBytes + 64<<10},
		{Method: "DELETE", Path: "/api/user/signature", Roles: access.Experts, Handler: httpx.Do(s.removeSignature), ID: "user-signature-delete", Summary: "Remove the signed-in expert's signature"},
	})
}

// LendInfo gives auth the handler of /api/auth/info, which its route table
// lists (auth cannot call this package: it imports auth). idle is the
// session's idle timeout the answer carries.
func (s *Service) LendInfo(idle time.Duration) httpx.Handler {
	return httpx.Result(func(ctx context.Context) (*Info, error) { return s.Info(ctx, idle) })
}

func (s *Service) roleConfigs(ctx context.Context, in *struct {
	UserID int64 `query:"user_id" minimum:"1"`
}) (*RoleConfigs, error) {
	return s.RoleConfigsOf(ctx, in.UserID)
}

func (s *Service) grantable(ctx context.Context) ([]RoleInfo, error) { return s.Roles(ctx), nil }

func (s *Service) setStatus(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		Status *int `json:"status,omitempty" enum:"0,1"`
	}
}) error {
	if in.Body.Status == nil {
		return apperr.New(apperr.Invalid, "error.validation").Field("status", "field.required")
	}
	return s.SetStatus(ctx, in.ID, *in.Body.Status)
}

func (s *Service) resetPassword(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		Password string `json:"password,omitempty" maxLength:"1024" doc:"Encrypted like the login password"`
	}
}) error {
	return s.ResetPassword(ctx, in.ID, in.Body.Password)
}

// ownSignature streams the caller's signature image.
func (s *Service) ownSignature(ctx context.Context, _ *struct{}) (*huma.StreamResponse, error) {
	b, ct, err := s.Signature(ctx, access.FromContext(ctx).UserID)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, apperr.New(apperr.NotFound, "signature.none")
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", ct)
		hc.SetHeader("Cache-Control", "private, no-store")
		hc.SetHeader("X-Content-Type-Options", "nosniff")
		hc.BodyWriter().Write(b)
	}}, nil
}

// uploadSignature reads the multipart file and stores it as the caller's signature.
func (s *Service) uploadSignature(ctx context.Context, in *struct {
	RawBody multipart.Form
}) error {
	fhs := in.RawBody.File["file"]
	if len(fhs) != 1 {
		return apperr.New(apperr.Invalid, "error.validation").Field("file", "field.required")
	}
	r, err := fhs[0].Open()
	if err != nil {
		return apperr.Wrap(err, "open upload")
	}
	defer r.Close()
	img, err := io.ReadAll(io.LimitReader(r, MaxSignatureBytes+1))
	if err != nil {
		return apperr.Wrap(err, "read upload")
	}
	if img == nil {
		img = []byte{}
	}
	return s.SetSignature(ctx, img)
}

func (s *Service) removeSignature(ctx context.Context) error { return s.SetSignature(ctx, nil) }

type changeBody struct {
	Body struct {
		OldPassword string `json:"old_password,omitempty" maxLength:"1024"`
		NewPassword string `json:"new_password,omitempty" maxLength:"1024"`
	}
}

func (s *Service) changeOwnPassword(ctx context.Context, in *changeBody) error {
	return s.auth.ChangePassword(ctx, in.Body.OldPassword, in.Body.NewPassword)
}

func (s *Service) ownAvailability(ctx context.Context, _ *struct{}) (Availability, error) {
	return s.OwnAvailability(ctx)
}
