package auth

import (
	"context"
	"net/http"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the sign-in and session endpoints.
func (s *Service) Routes(api *httpx.API) {
	tags := []string{"Auth"}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/common/captcha", ID: "captcha", Summary: "New captcha challenge (single use, 5 minutes)", Tags: tags, Public: true},
		func(ctx context.Context, in *struct {
			Required bool `query:"required" doc:"Issue one even when the captcha is off: the sign-in asked for it (captcha_code required)"`
		}) (*httpx.Data[*Captcha], error) {
			newCaptcha := s.NewCaptcha
			if in.Required {
				newCaptcha = s.Challenge
			}
			c, err := newCaptcha(ctx)
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/auth/public_key", ID: "auth-public-key", Summary: "Key to encrypt passwords with", Tags: tags, Public: true},
		func(ctx context.Context, _ *struct{}) (*httpx.Data[PublicKey], error) {
			return httpx.OK(PublicKey{PublicKey: s.PublicKey()}), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/auth/login", ID: "auth-login", Summary: "Sign in with user name and encrypted password", Tags: tags, Public: true, MaxBody: 8 << 10},
		func(ctx context.Context, in *struct{ Body LoginInput }) (*httpx.Data[*Session], error) {
			sess, err := s.Login(ctx, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(sess), nil
		})
	anyState := access.ScreenLocked | access.PasswordChange
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/auth/logout", ID: "auth-logout", Summary: "Sign out: revoke this session", Tags: tags, Roles: access.Any, Allow: anyState},
		func(ctx context.Context, _ *struct{}) (*httpx.Empty, error) {
			return httpx.Done(), s.Logout(ctx)
		})
	type passwordBody struct {
		Body struct {
			Password string `json:"password,omitempty" maxLength:"1024" doc:"Encrypted like the login password"`
		}
	}
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/system_management/users/lock_screen", ID: "lock-screen", Summary: "Lock the screen: until unlocked, this session answers only the unlock and sign-out calls (423 elsewhere)", Tags: tags, Roles: access.Any, Allow: access.ScreenLocked},
		func(ctx context.Context, _ *struct{}) (*httpx.Empty, error) {
			return httpx.Done(), s.LockScreen(ctx)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/system_management/users/lock_screen_verify", ID: "lock-screen-verify", Summary: "Unlock the screen with the password (after too many wrong ones the session ends: 401)", Tags: tags, Roles: access.Any, MaxBody: 8 << 10, Allow: anyState},
		func(ctx context.Context, in *passwordBody) (*httpx.Empty, error) {
			return httpx.Done(), s.VerifyPassword(ctx, in.Body.Password)
		})
	type changeBody struct {
		Body struct {
			OldPassword string `json:"old_password,omitempty" maxLength:"1024"`
			NewPassword string `json:"new_password,omitempty" maxLength:"1024"`
		}
	}
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/user/password", ID: "change-own-password", Summary: "Change the caller's password; ends their other sessions (after too many wrong old passwords, this one: 401)", Tags: tags, Roles: access.Any, MaxBody: 8 << 10, Allow: access.PasswordChange},
		func(ctx context.Context, in *changeBody) (*httpx.Empty, error) {
			return httpx.Done(), s.ChangePassword(ctx, in.Body.OldPassword, in.Body.NewPassword)
		})
}

// PublicKey is the key the browser encrypts passwords with.
type PublicKey struct {
	PublicKey string `json:"public_key" doc:"SPKI PEM of the RSA key for password encryption (RSA-OAEP, SHA-256)"`
}
