package app_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"telepath/internal/app"
)

func systemInput(over map[string]any) map[string]any {
	in := map[string]any{
		"language": "zh-CN", "page_title": "明州远程病理会诊", "page_icon": "/favicon.svg", "title": "明州会诊", "copyright": "明州市第一人民医院",
		"captcha_enable": true, "need_upload_slide": true,
		"watermark": map[string]any{"flag": true, "text": "仅供会诊", "fontSize": 18, "fontColor": "rgba(0,0,0,0.12)"},
	}
	for k, v := range over {
		in[k] = v
	}
	return in
}

// The sign-in page's logo: a small image as a data: URL, shown to everyone.
func TestLoginLogo(t *testing.T) {
	png := "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n tiny logo"))
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		logo := func() string {
			var cfg struct {
				Data struct {
					LoginLogo string `json:"login_logo"`
				}
			}
			e.decode(e.expect(e.do("GET", "/api/config/setting", "", nil), 200), &cfg)
			return cfg.Data.LoginLogo
		}
		e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(map[string]any{"login_logo": png})), 200)
		if logo() != png {
			t.Fatal("logo not kept")
		}
		// Left out, it stays; bad ones are refused and change nothing.
		e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(nil)), 200)
		big := "data:image/png;base64," + base64.StdEncoding.EncodeToString(make([]byte, 64<<10+1))
		for _, bad := range []string{"data:text/html;base64,PGI+", "data:image/png;base64,!!!", "javascript:alert(1)", "/logo.png", big} {
			e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(map[string]any{"login_logo": bad})), 422)
		}
		if logo() != png {
			t.Fatal("bad input changed the logo")
		}
		e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(map[string]any{"login_logo": ""})), 200)
		if logo() != "" {
			t.Fatal("logo not removed")
		}
	})
}

func TestSystemSettings(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		var cfg struct {
			Data map[string]any `json:"data"`
		}
		t.Run("OnlyAdmin", func(t *testing.T) {
			for _, u := range []string{"center_admin", "site", "expert", "root"} {
				want := 403
				if u == "root" {
					want = 200
				}
				e.expect(e.do("PUT", "/api/config/setting", e.login(u), systemInput(nil)), want)
			}
			e.expect(e.do("PUT", "/api/config/setting", "", systemInput(nil)), 401)
		})
		t.Run("BadInputChangesNothing", func(t *testing.T) {
			e.decode(e.expect(e.do("GET", "/api/config/setting", "", nil), 200), &cfg)
			before, audits := cfg.Data["page_title"], e.count("audit_logs", "action = 'settings.update'")
			for field, over := range map[string]map[string]any{
				"page_icon":           {"page_icon": "javascript:alert(1)"},
				"watermark.fontColor": {"watermark": map[string]any{"flag": true, "text": "x", "fontSize": 16, "fontColor": "red;background:url(x)"}},
				"watermark.fontSize":  {"watermark": map[string]any{"flag": true, "text": "x", "fontSize": 500, "fontColor": "#000"}},
				"watermark.text":      {"watermark": map[string]any{"flag": true, "text": " ", "fontSize": 16, "fontColor": "#000"}},
				"page_title":          {"page_title": strings.Repeat("题", 61)},
				"login_logo":          {"login_logo": "https://example.com/logo.png"},
			} {
				r := e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(over), "user-language", "en-US"), 422)
				var body struct {
					Errors map[string][]string `json:"errors"`
				}
				e.decode(r, &body)
				if len(body.Errors[field]) == 0 {
					t.Errorf("%s: no error for the field: %s", field, r)
				}
			}
			e.expect(e.do("PUT", "/api/config/setting", admin, `{"language":"fr-FR"}`), 422)
			e.decode(e.expect(e.do("GET", "/api/config/setting", "", nil), 200), &cfg)
			if cfg.Data["page_title"] != before || e.count("audit_logs", "action = 'settings.update'") != audits {
				t.Fatal("bad input changed the settings")
			}
		})
		t.Run("Saved", func(t *testing.T) {
			e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(nil)), 200)
			e.decode(e.expect(e.do("GET", "/api/config/setting", "", nil), 200), &cfg)
			wm := cfg.Data["watermark"].(map[string]any)
			if cfg.Data["page_title"] != "明州远程病理会诊" || cfg.Data["title"] != "明州会诊" || wm["text"] != "仅供会诊" || wm["fontSize"] != 18.0 {
				t.Fatalf("%v", cfg.Data)
			}
			if e.count("audit_logs", "action = 'settings.update' AND user_id IS NOT NULL") == 0 {
				t.Fatal("no audit record")
			}
		})
		t.Run("SubmitWithoutSlides", func(t *testing.T) {
			f := e.fixture()
			site := e.login("site")
			var c caseOut
			body := registration(f, "BL2026-00901")
			e.decode(e.expect(e.do("POST", "/api/consultation", site, body), 200), &c)
			id := itoa(c.Data.ID)
			e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
			e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 422)
			e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(map[string]any{"need_upload_slide": false})), 200)
			e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
		})
	})
}

func TestCaptchaFollowsTheSettings(t *testing.T) {
	eachDB(t, func(c *app.Config) { c.Auth.Captcha = true; c.Auth.CaptchaTestAnswer = "2468" }, func(t *testing.T, e *env) {
		var c struct {
			Data struct {
				Enabled bool `json:"enabled"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/common/captcha", "", nil), 200), &c)
		if !c.Data.Enabled {
			t.Fatal("captcha off by default")
		}
		e.expect(e.tryLogin("admin", "Telepath@2026"), 422) // no captcha answer
		var cap struct {
			Data struct {
				Key string `json:"key"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/common/captcha", "", nil), 200), &cap)
		var session struct {
			Data struct {
				Token string `json:"token"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("POST", "/api/auth/login", "", map[string]string{"username": "admin", "password": e.encrypt("Telepath@2026"),
			"captcha_key": cap.Data.Key, "captcha_code": "2468"}), 200), &session)
		admin := session.Data.Token
		e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(map[string]any{"captcha_enable": false})), 200)
		e.decode(e.expect(e.do("GET", "/api/common/captcha", "", nil), 200), &c)
		if c.Data.Enabled {
			t.Fatal("captcha still on")
		}
		e.expect(e.tryLogin("admin", "Telepath@2026"), 200)
	})
}
