package auth

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the sign-in and session endpoints; info serves
// /api/auth/info, lent by package user, which answers it.
func (s *Service) Routes(api *httpx.API, info httpx.Handler) {
	anyState := access.ScreenLocked | access.PasswordChange
	api.Mount("Auth", []httpx.Route{
		{Method: "GET", Path: "/api/common/captcha", Public: true, Handler: httpx.Value(s.captcha), ID: "captcha", Summary: "New captcha challenge (single use, 5 minutes)"},
		{Method: "GET", Path: "/api/auth/public_key", Public: true, Handler: httpx.Result(s.publicKey), ID: "auth-public-key", Summary: "Key to encrypt passwords with"},
		{Method: "POST", Path: "/api/auth/login", Public: true, Handler: httpx.WithBody(s.Login), ID: "auth-login", Summary: "Sign in with user name and encrypted password", MaxBody: 8 << 10},
		{Method: "GET", Path: "/api/auth/info", Roles: access.Any, Handler: info, ID: "auth-info", Summary: "The signed-in user, roles with configuration, centers and hospitals", Allow: access.PasswordChange},
		{Method: "POST", Path: "/api/auth/logout", Roles: access.Any, Handler: httpx.Do(s.Logout), ID: "auth-logout", Summary: "Sign out: revoke this session", Allow: anyState},
		{Method: "POST", Path: "/api/system_management/users/lock_screen", Roles: access.Any, Handler: httpx.Do(s.LockScreen), ID: "lock-screen", Summary: "Lock the screen: until unlocked, this session answers only the unlock and sign-out calls (423 elsewhere)", Allow: access.ScreenLocked},
		{Method: "POST", Path: "/api/system_management/users/lock_screen_verify", Roles: access.Any, Handler: httpx.Action(s.unlockScreen), ID: "lock-screen-verify", Summary: "Unlock the screen with the password (after too many wrong ones the session ends: 401)", MaxBody: 8 << 10, Allow: anyState},
	})
}

// captcha issues a challenge; required=true issues one even when the captcha is off.
func (s *Service) captcha(ctx context.Context, in *struct {
	Required bool `query:"required" doc:"Issue one even when the captcha is off: the sign-in asked for it (captcha_code required)"`
}) (*Captcha, error) {
	if in.Required {
		return s.Challenge(ctx)
	}
	return s.NewCaptcha(ctx)
}

func (s *Service) publicKey(context.Context) (PublicKey, error) {
	return PublicKey{PublicKey: s.PublicKey()}, nil
}

type passwordBody struct {
	Body struct {
		Password string `json:"password,omitempty" maxLength:"1024" doc:"Encrypted like the login password"`
	}
}

func (s *Service) unlockScreen(ctx context.Context, in *passwordBody) error {
	return s.VerifyPassword(ctx, in.Body.Password)
}

// PublicKey is the key the browser encrypts passwords with.
type PublicKey struct {
	PublicKey string `json:"public_key" doc:"SPKI PEM of the RSA key for password encryption (RSA-OAEP, SHA-256)"`
}
