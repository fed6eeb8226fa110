package app_test

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"regexp"
	"strings"
	"testing"
	"time"

	"telepath/internal/app"
	"telepath/internal/demo"
	"telepath/internal/platform/db"
	"telepath/internal/platform/httpx"
)

// The client's address behind a proxy is the right-most one no trusted
// proxy wrote: a left-most X-Forwarded-For of the client's own neither
// escapes the sign-in rate limit nor lands in the audit log.
func TestForwardedForRightMost(t *testing.T) {
	for name, proxies := range map[string][2]string{
		"Hops":  {"1", ""},
		"CIDRs": {"", "10.0.0.0/8,127.0.0.1"},
	} {
		t.Run(name, func(t *testing.T) {
			eachDB(t, func(c *app.Config) {
				p, err := httpx.ParseProxies(proxies[0], proxies[1])
				if err != nil {
					t.Fatal(err)
				}
				c.Proxies = p
				c.Auth.LoginPerMinute = 3
			}, func(t *testing.T, e *env) {
				statuses := []int{}
				for i := range 5 {
					// what the proxy sends on: the client's own header, then the address the proxy saw
					xff := "198.51.100." + itoa(int64(i)) + ", 203.0.113.7"
					r := e.do("POST", "/api/auth/login", "", map[string]string{"username": "site", "password": e.encrypt(demo.Password)}, "X-Forwarded-For", xff)
					statuses = append(statuses, r.Status)
				}
				if statuses[0] != 200 || statuses[4] != 429 {
					t.Fatalf("forged left-most addresses escaped the rate limit: %v", statuses)
				}
				if n := e.count("audit_logs", "action = 'auth.login' AND ip <> '203.0.113.7'"); n != 0 {
					t.Fatalf("%d sign-ins audited with a forged address", n)
				}
			})
		})
	}
}

// uploadAs sends a multipart upload whose part declares contentType.
func (e *env) uploadAs(token, name, contentType string, body []byte) resp {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+name+`"`)
	h.Set("Content-Type", contentType)
	pw, _ := w.CreatePart(h)
	pw.Write(body)
	w.Close()
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/common/upload", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return resp{Status: res.StatusCode, Body: b.Bytes(), Header: res.Header}
}

// Attachments are shown in place only for an allow-list of media types,
// read case-insensitively; anything else is a download that the browser
// may not sniff into a page.
func TestAttachmentServedAs(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		site := e.login("site")
		for _, c := range []struct{ declared, want, disposition string }{
			{"TEXT/HTML", "application/octet-stream", "attachment"},
			{"text/html; charset=utf-8", "application/octet-stream", "attachment"},
			{"Image/SVG+XML", "application/octet-stream", "attachment"},
			{"application/xhtml+xml", "application/octet-stream", "attachment"},
			{"application/x-msdownload", "application/octet-stream", "attachment"},
			{"IMAGE/PNG", "image/png", "inline"},
			{"application/pdf", "application/pdf", "inline"},
			{"Text/Plain; charset=GBK", "text/plain; charset=gbk", "inline"},
			{"text/plain; charset=\"x;y\"", "text/plain; charset=utf-8", "inline"},
		} {
			var f struct {
				Data struct {
					URL string `json:"url"`
				} `json:"data"`
			}
			e.decode(e.expect(e.uploadAs(site, "a.bin", c.declared, []byte("<script>alert(1)</script>")), 200), &f)
			r := e.expect(e.do("GET", f.Data.URL, site, nil), 200)
			h := r.Header
			if h.Get("Content-Type") != c.want || !strings.HasPrefix(h.Get("Content-Disposition"), c.disposition+";") || h.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: served as %q, %q, nosniff %q", c.declared, h.Get("Content-Type"), h.Get("Content-Disposition"), h.Get("X-Content-Type-Options"))
			}
		}
	})
}

// /metrics is nobody's business on the main address unless the operator
// gives a token; TELEPATH_METRICS_ADDR serves it on a listener of its own.
func TestMetricsClosed(t *testing.T) {
	t.Run("Default", func(t *testing.T) {
		eachDB(t, nil, func(t *testing.T, e *env) {
			if r := e.do("GET", "/metrics", "", nil); r.Status != 404 || strings.Contains(r.String(), "telepath_http") {
				t.Fatalf("metrics open: %d", r.Status)
			}
		})
	})
	t.Run("Token", func(t *testing.T) {
		eachDB(t, func(c *app.Config) { c.MetricsToken = "s3cret-metrics" }, func(t *testing.T, e *env) {
			e.expect(e.do("GET", "/metrics", "", nil), 401)
			e.expect(e.do("GET", "/metrics", "wrong", nil), 401)
			if r := e.expect(e.do("GET", "/metrics", "s3cret-metrics", nil), 200); !strings.Contains(r.String(), "telepath_http_requests_total") {
				t.Fatalf("metrics: %.200s", r)
			}
		})
	})
	t.Run("OwnAddress", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		e := newEnv(t, db.SQLite, func(c *app.Config) { c.Addr, c.MetricsAddr = "127.0.0.1:0", addr })
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- e.app.Run(ctx) }()
		defer func() {
			cancel()
			if err := <-done; err != nil {
				t.Error(err)
			}
		}()
		var res *http.Response
		for range 100 {
			if res, err = http.Get("http://" + addr + "/metrics"); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(b), "go_goroutines") {
			t.Fatalf("metrics listener: %d", res.StatusCode)
		}
	})
}

// rawDo sends a request whose path, query and body go out byte for byte.
func (e *env) rawDo(method, path, contentType string, body []byte, headers ...string) resp {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+"/", bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.URL.Opaque = path // keeps %00 and %FF as sent
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{Status: res.StatusCode, Body: b, Header: res.Header}
}

// NUL characters and invalid UTF-8 are refused at the door with a
// localized 400, signed in or not, wherever they come: path, query, JSON
// strings, form fields, file names. PostgreSQL answered 500 to them.
func TestBadTextRefused(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		site := e.login("site")
		auth := "Bearer " + site
		const json = "application/json"
		for _, c := range []struct {
			name, method, path, ctype string
			body                      string
			headers                   []string
		}{
			{"QueryNUL", "GET", "/api/consultation/list?search=a%00b", "", "", []string{"Authorization", auth}},
			{"QueryUTF8", "GET", "/api/consultation/list?search=%FF%FE", "", "", []string{"Authorization", auth}},
			{"QueryKey", "GET", "/api/consultation/list?a%00=1", "", "", []string{"Authorization", auth}},
			{"PathVerifyNUL", "GET", "/api/report/verify/ab%00cd", "", "", nil},
			{"PathVerifyUTF8", "GET", "/api/report/verify/ab%C3", "", "", nil},
			{"VerifyPage", "GET", "/verify/%00", "", "", nil},
			{"LoginJSONNUL", "POST", "/api/auth/login", json, `{"username":"si\u0000te","password":"x"}`, nil},
			{"LoginJSONUTF8", "POST", "/api/auth/login", json, "{\"username\":\"si\xffte\",\"password\":\"x\"}", nil},
			{"LoginForm", "POST", "/api/auth/login", "application/x-www-form-urlencoded", "username=si%00te&password=x", nil},
			{"CaseJSONNUL", "POST", "/api/consultation", "application/json; charset=utf-8", `{"name":"\u0000"}`, []string{"Authorization", auth}},
		} {
			t.Run(c.name, func(t *testing.T) {
				for _, lang := range []string{"en-US", "zh-CN"} {
					r := e.rawDo(c.method, c.path, c.ctype, []byte(c.body), append([]string{"user-language", lang}, c.headers...)...)
					if r.Status != 400 || message(r) == "" || message(r) == "error.bad_text" || (lang == "zh-CN") != han.MatchString(message(r)) {
						t.Fatalf("%s: %d %s", lang, r.Status, r.Body)
					}
				}
			})
		}
		t.Run("EscapedBackslashIsText", func(t *testing.T) {
			r := e.rawDo("POST", "/api/auth/login", json, []byte(`{"username":"si\\u0000te","password":"x"}`))
			if r.Status == 400 || r.Status >= 500 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		})
		t.Run("MultipartFileName", func(t *testing.T) {
			r := e.uploadAs(site, "a\xff.txt", "text/plain", []byte("x"))
			if r.Status != 400 || !han.MatchString(message(r)) {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		})
		t.Run("UserAgentStoredAsText", func(t *testing.T) {
			r := e.do("POST", "/api/auth/login", "", map[string]string{"username": "site", "password": e.encrypt(demo.Password)}, "User-Agent", "Mozilla\xff\xfe")
			e.expect(r, 200)
		})
	})
}

// Every response carries a strict Content-Security-Policy and its sister
// headers; API answers are not stored; the API documentation comes from
// the binary, with no script of another origin.
func TestSecurityHeaders(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		token := e.login("site")
		docs := e.expect(e.do("GET", "/api/docs", "", nil), 200)
		for _, r := range []resp{e.expect(e.do("GET", "/api/auth/info", token, nil), 200), e.do("GET", "/api/auth/public_key", "", nil), docs, e.do("GET", "/healthz", "", nil)} {
			h := r.Header
			csp := h.Get("Content-Security-Policy")
			for _, want := range []string{"default-src 'self'", "script-src 'self' 'wasm-unsafe-eval';", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'self'", "connect-src 'self'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("CSP %q lacks %q", csp, want)
				}
			}
			if strings.Contains(csp, "'unsafe-eval'") || strings.Contains(csp, "http") || h.Get("X-Content-Type-Options") != "nosniff" ||
				h.Get("Referrer-Policy") == "" || !strings.Contains(h.Get("Permissions-Policy"), "camera=()") {
				t.Errorf("headers: %v", h)
			}
		}
		if cc := e.do("GET", "/api/auth/info", token, nil).Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("auth/info Cache-Control %q", cc)
		}
		page := docs.String()
		if strings.Contains(page, "https://") || strings.Contains(page, "<script>") || !strings.Contains(page, "<elements-api") {
			t.Fatalf("docs page: %s", page)
		}
		for _, m := range regexp.MustCompile(`(?:src|href)="(/api/docs/[^"]+)"`).FindAllStringSubmatch(page, -1) {
			r := e.expect(e.do("GET", m[1], "", nil), 200)
			if len(r.Body) < 10000 || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
				t.Errorf("%s: %d bytes, %v", m[1], len(r.Body), r.Header)
			}
		}
		if n := strings.Count(page, `="/api/docs/elements-`); n != 2 {
			t.Fatalf("docs assets referenced: %d", n)
		}
	})
}
