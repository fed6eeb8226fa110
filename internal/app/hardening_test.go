package app_test

import (
	"bytes"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"telepath/internal/app"
	"telepath/internal/demo"
)

const (
	lockScreen  = "/api/system_management/users/lock_screen"
	unlockScren = "/api/system_management/users/lock_screen_verify"
)

var digits = regexp.MustCompile(`\d+`)

// Sign-in failures slow down the client that makes them; they do not lock
// the account, and unknown and known user names get the same answers.
func TestLoginThrottle(t *testing.T) {
	eachDB(t, func(c *app.Config) { c.Auth.LoginPerMinute = 1000 }, func(t *testing.T, e *env) {
		t.Run("ClientWaitsAccountNotLocked", func(t *testing.T) {
			for i := 0; i < 5; i++ {
				e.expect(e.tryLogin("expert2", "Wrong@2026x"), 401)
			}
			r := e.expect(e.tryLogin("expert2", demo.Password), 429)
			if !strings.Contains(message(r), "秒") || !digits.MatchString(message(r)) {
				t.Fatalf("throttle message: %q", message(r))
			}
			en := e.do("POST", "/api/auth/login", "", map[string]string{"username": "expert2", "password": e.encrypt(demo.Password)}, "user-language", "en-US")
			if en.Status != 429 || !strings.Contains(message(en), "try again in") {
				t.Fatalf("en-US throttle: %d %q", en.Status, message(en))
			}
			// The administrator sees the throttle and clears it.
			admin := e.login("admin")
			var id int64
			e.app.DB.Get(&id, e.app.DB.Rebind("SELECT id FROM users WHERE username = ?"), "expert2")
			e.expect(e.do("POST", "/api/user/delLoginLock/"+itoa(id), admin, nil), 200)
			e.login("expert2")
		})
		t.Run("UnknownAnsweredLikeKnown", func(t *testing.T) {
			for i := 0; i < 7; i++ {
				a := e.tryLogin("ghost_user", "Wrong@2026x")
				b := e.tryLogin("expert", "Wrong@2026x")
				ma, mb := digits.ReplaceAllString(message(a), "N"), digits.ReplaceAllString(message(b), "N")
				if a.Status != b.Status || ma != mb {
					t.Fatalf("attempt %d: unknown %d %q, known %d %q", i+1, a.Status, message(a), b.Status, message(b))
				}
			}
		})
	})
}

// A session cannot be used to guess its user's password without limit.
func TestSessionPasswordGuessing(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		for _, tc := range []struct{ name, path, field string }{
			{"LockScreenVerify", unlockScren, "password"},
			{"ChangePassword", "/api/user/password", "old_password"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				token := e.login("publisher")
				body := map[string]string{tc.field: e.encrypt("Wrong@2026x")}
				if tc.field == "old_password" {
					body["new_password"] = e.encrypt("Brand-new@2027")
				}
				for i := 0; i < 4; i++ {
					e.expect(e.do("POST", tc.path, token, body), 422)
				}
				r := e.expect(e.do("POST", tc.path, token, body), 401)
				if !strings.Contains(message(r), "密码") {
					t.Fatalf("end message: %q", message(r))
				}
				e.expect(e.do("GET", "/api/auth/info", token, nil), 401)
				e.login("publisher") // signing in again still works
			})
		}
	})
}

// A locked screen is locked on the server: the token answers only the
// unlock call and sign-out.
func TestScreenLockOnServer(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		token := e.login("center_admin")
		e.expect(e.do("POST", lockScreen, token, nil), 200)
		r := e.expect(e.do("GET", "/api/auth/info", token, nil), 423)
		if !strings.Contains(message(r), "锁定") {
			t.Fatalf("zh-CN: %q", message(r))
		}
		if r := e.do("GET", "/api/user", token, nil, "user-language", "en-US"); r.Status != 423 || !strings.Contains(message(r), "locked") {
			t.Fatalf("en-US: %d %q", r.Status, message(r))
		}
		e.expect(e.do("POST", "/api/user/password", token, map[string]string{"old_password": e.encrypt(demo.Password), "new_password": e.encrypt("Brand-new@2027")}), 423)
		e.expect(e.do("POST", unlockScren, token, map[string]string{"password": e.encrypt("Wrong@2026x")}), 422)
		e.expect(e.do("POST", unlockScren, token, map[string]string{"password": e.encrypt(demo.Password)}), 200)
		e.expect(e.do("GET", "/api/auth/info", token, nil), 200)
		e.expect(e.do("GET", "/api/user", token, nil), 200)

		e.expect(e.do("POST", lockScreen, token, nil), 200)
		e.expect(e.do("POST", "/api/auth/logout", token, nil), 200)
		e.expect(e.do("POST", unlockScren, token, map[string]string{"password": e.encrypt(demo.Password)}), 401)
	})
}

// Passwords that pass the class rule but are common, or hold the user
// name, are refused wherever a password is set.
func TestWeakPasswordsRefused(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		create := func(username, pw string) resp {
			return e.do("POST", "/api/user", admin, map[string]any{"username": username, "name": "弱口令", "password": e.encrypt(pw), "status": 1, "roles": []string{"admin"}})
		}
		for _, pw := range []string{"Aa123456", "P@ssw0rd", "Password1!", "Qwerty@123", "weakling_7x#Q"} {
			r := create("weakling_7x", pw)
			if !fieldRefusedIn(e, r, "zh-CN", "password") {
				t.Errorf("%q accepted: %d %s", pw, r.Status, r)
			}
		}
		e.expect(create("weakling_7x", demo.Password), 200)
		staff := e.login("staff")
		r := e.do("POST", "/api/user/password", staff, map[string]string{"old_password": e.encrypt(demo.Password), "new_password": e.encrypt("Staff@2027")})
		if !fieldRefusedIn(e, r, "zh-CN", "new_password") {
			t.Fatalf("password with the user name accepted: %d %s", r.Status, r)
		}
	})
}

// After an administrator sets a user's password the user must choose a new
// one before anything else works; demo users are not asked.
func TestForcedPasswordChange(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		if strings.Contains(e.do("GET", "/api/auth/info", admin, nil).String(), `"must_change_password":true`) {
			t.Fatal("a demo user is asked to change the password")
		}
		var id int64
		e.app.DB.Get(&id, e.app.DB.Rebind("SELECT id FROM users WHERE username = ?"), "expert")
		e.expect(e.do("POST", "/api/user/reset_password/"+itoa(id), admin, map[string]string{"password": e.encrypt("Fresh#Start2027")}), 200)
		r := e.expect(e.tryLogin("expert", "Fresh#Start2027"), 200)
		var out struct {
			Data struct {
				Token string `json:"token"`
			} `json:"data"`
		}
		e.decode(r, &out)
		token := out.Data.Token
		if !strings.Contains(e.expect(e.do("GET", "/api/auth/info", token, nil), 200).String(), `"must_change_password":true`) {
			t.Fatal("info does not ask for a new password")
		}
		if r := e.expect(e.do("GET", "/api/menu", token, nil), 403); !strings.Contains(message(r), "密码") {
			t.Fatalf("refusal: %q", message(r))
		}
		e.expect(e.do("POST", "/api/user/password", token, map[string]string{"old_password": e.encrypt("Fresh#Start2027"), "new_password": e.encrypt("Chosen#Myself2027")}), 200)
		e.expect(e.do("GET", "/api/menu", token, nil), 200)
	})
}

// The first administrator of an installation without demo data must change
// the printed password.
func TestFirstAdminMustChangePassword(t *testing.T) {
	eachDB(t, func(c *app.Config) { c.Demo = false }, func(t *testing.T, e *env) {
		if e.count("users", "username = 'admin' AND must_change_password = 1") != 1 {
			t.Fatal("the first admin is not asked to change the password")
		}
	})
}

// Captcha challenges are limited per address and never stored.
func TestCaptchaLimits(t *testing.T) {
	eachDB(t, func(c *app.Config) { c.Auth.Captcha = true; c.Auth.LoginPerMinute = 10 }, func(t *testing.T, e *env) {
		var limited int
		for i := 0; i < 60; i++ {
			r := e.do("GET", "/api/common/captcha", "", nil)
			if r.Status == 429 {
				limited++
				if message(r) == "" {
					t.Fatal("no message")
				}
			}
		}
		if limited == 0 {
			t.Fatal("60 captchas in a row were not limited")
		}
		if e.count("captcha_uses", "") != 0 {
			t.Fatal("challenges stored in the database")
		}
	})
}

// The fixed captcha answer for tests needs the test mode and is announced.
func TestCaptchaTestAnswerNeedsTestMode(t *testing.T) {
	env := map[string]string{"TELEPATH_CAPTCHA_TEST_ANSWER": "2468"}
	if _, err := app.ConfigFromEnv(func(k string) string { return env[k] }); err == nil {
		t.Fatal("test answer accepted without TELEPATH_TEST_MODE")
	}
	env["TELEPATH_TEST_MODE"] = "1"
	cfg, err := app.ConfigFromEnv(func(k string) string { return env[k] })
	if err != nil || cfg.Auth.CaptchaTestAnswer != "2468" {
		t.Fatalf("test mode: %v %q", err, cfg.Auth.CaptchaTestAnswer)
	}
	cfg.DataDir = t.TempDir()
	var logs bytes.Buffer
	a, err := app.New(t.Context(), cfg, nil, slog.New(slog.NewTextHandler(io.MultiWriter(&logs), nil)))
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "TELEPATH_CAPTCHA_TEST_ANSWER") {
		t.Fatalf("not announced: %s", logs.String())
	}
}

// TELEPATH_TIMEZONE names the operator's zone, Asia/Shanghai by default; an
// unknown name stops the start.
func TestTimezoneConfig(t *testing.T) {
	for name, want := range map[string]string{"": "Asia/Shanghai", "Europe/Paris": "Europe/Paris", "Mars/Olympus": ""} {
		cfg, err := app.ConfigFromEnv(func(k string) string {
			if k == "TELEPATH_TIMEZONE" {
				return name
			}
			return ""
		})
		switch {
		case want == "" && err == nil:
			t.Errorf("%q accepted", name)
		case want != "" && (err != nil || cfg.Zone == nil || cfg.Zone.String() != want):
			t.Errorf("%q: %v %v", name, cfg.Zone, err)
		}
	}
}
