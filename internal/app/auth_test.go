package app_test

import (
	"strings"
	"testing"

	"telepath/internal/app"
	"telepath/internal/demo"
)

func TestLogin(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		t.Run("OK", func(t *testing.T) {
			token := e.login("admin")
			r := e.expect(e.do("GET", "/api/auth/info", token, nil), 200)
			if !strings.Contains(r.String(), `"role":"admin"`) {
				t.Fatalf("info: %s", r)
			}
		})
		t.Run("ErrSameForUnknownUserAndWrongPassword", func(t *testing.T) {
			a := e.tryLogin("nobody", demo.Password)
			b := e.tryLogin("expert", "Wrong@2026x")
			if a.Status != 401 || b.Status != 401 || message(a) != message(b) {
				t.Fatalf("unknown user %d %q, wrong password %d %q", a.Status, message(a), b.Status, message(b))
			}
		})
		t.Run("ErrLanguage", func(t *testing.T) {
			r := e.do("POST", "/api/auth/login", "", map[string]string{"username": "nobody", "password": e.encrypt("x")}, "user-language", "en-US")
			if message(r) != "Wrong user name or password" {
				t.Fatalf("en-US message: %q", message(r))
			}
			if message(e.tryLogin("nobody", "x")) != "用户名或密码错误" {
				t.Fatal("zh-CN is the default")
			}
		})
		t.Run("ErrPlainPassword", func(t *testing.T) {
			r := e.do("POST", "/api/auth/login", "", map[string]string{"username": "admin", "password": demo.Password})
			e.expect(r, 422)
		})
		t.Run("LogoutRevokes", func(t *testing.T) {
			token := e.login("site")
			e.expect(e.do("POST", "/api/auth/logout", token, nil), 200)
			e.expect(e.do("GET", "/api/auth/info", token, nil), 401)
		})
		t.Run("ChangePasswordEndsOtherSessions", func(t *testing.T) {
			first, second := e.login("staff"), e.login("staff")
			body := map[string]string{"old_password": e.encrypt(demo.Password), "new_password": e.encrypt("short")}
			r := e.expect(e.do("POST", "/api/user/password", second, body), 422)
			if !strings.Contains(r.String(), "new_password") {
				t.Fatalf("policy error: %s", r)
			}
			body["new_password"] = e.encrypt("Another@2027")
			e.expect(e.do("POST", "/api/user/password", second, body), 200)
			e.expect(e.do("GET", "/api/auth/info", first, nil), 401)
			e.expect(e.do("GET", "/api/auth/info", second, nil), 200)
			e.expect(e.tryLogin("staff", "Another@2027"), 200)
		})
		t.Run("LockScreenVerify", func(t *testing.T) {
			token := e.login("publisher")
			e.expect(e.do("POST", "/api/system_management/users/lock_screen_verify", token, map[string]string{"password": e.encrypt("nope-nope")}), 422)
			e.expect(e.do("POST", "/api/system_management/users/lock_screen_verify", token, map[string]string{"password": e.encrypt(demo.Password)}), 200)
		})
		t.Run("AuditsSignIns", func(t *testing.T) {
			if e.count("audit_logs", "action = 'auth.login' AND outcome = 'success'") == 0 || e.count("audit_logs", "action = 'auth.login' AND outcome = 'failure'") == 0 {
				t.Fatal("sign-ins not audited")
			}
		})
	})
}

func TestCaptcha(t *testing.T) {
	eachDB(t, func(c *app.Config) { c.Auth.Captcha = true; c.Auth.CaptchaTestAnswer = "4821" }, func(t *testing.T, e *env) {
		captcha := func() string {
			var out struct {
				Data struct {
					Enabled bool   `json:"enabled"`
					Key     string `json:"key"`
					Image   string `json:"image"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/common/captcha", "", nil), 200), &out)
			if !out.Data.Enabled || !strings.HasPrefix(out.Data.Image, "data:image/png;base64,") {
				t.Fatalf("captcha: %+v", out.Data)
			}
			return out.Data.Key
		}
		login := func(key, code string) resp {
			return e.do("POST", "/api/auth/login", "", map[string]string{"username": "admin", "password": e.encrypt(demo.Password), "captcha_key": key, "captcha_code": code})
		}
		t.Run("ErrWrongCode", func(t *testing.T) {
			r := e.expect(login(captcha(), "0000"), 422)
			if !strings.Contains(r.String(), "captcha_code") {
				t.Fatalf("%s", r)
			}
		})
		t.Run("ErrMissing", func(t *testing.T) { e.expect(login("", ""), 422) })
		t.Run("SingleUse", func(t *testing.T) {
			key := captcha()
			e.expect(login(key, "4821"), 200)
			e.expect(login(key, "4821"), 422)
		})
	})
}
