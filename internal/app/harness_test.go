package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"telepath/internal/app"
	"telepath/internal/auth"
	"telepath/internal/demo"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// env is a running Telepath with the demo data, reached over HTTP.
type env struct {
	t      testing.TB
	app    *app.App
	srv    *httptest.Server
	pubKey string
}

// eachDB runs fn against a fresh demo server on every dialect. The servers
// share nothing, so the dialects (and the tests) run in parallel.
func eachDB(t *testing.T, mutate func(*app.Config), fn func(t *testing.T, e *env)) {
	t.Parallel()
	for _, d := range dbtest.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			fn(t, newEnv(t, d, mutate))
		})
	}
}

func newEnv(t *testing.T, dialect db.Dialect, mutate func(*app.Config)) *env {
	t.Helper()
	return newEnvTB(t, dialect, mutate)
}

func newEnvTB(tb testing.TB, dialect db.Dialect, mutate func(*app.Config)) *env {
	tb.Helper()
	cfg, err := app.ConfigFromEnv(func(string) string { return "" })
	if err != nil {
		tb.Fatal(err)
	}
	cfg.Demo = true
	cfg.DemoCases = false
	cfg.Auth.Captcha = false
	cfg.Auth.LoginPerMinute = 1000
	if dialect == db.Postgres {
		cfg.DataDir = tb.TempDir()
		cfg.DatabaseURL = dbtest.URL(tb)
	} else {
		cfg.DataDir = dbtest.SQLiteDir(tb)
	}
	if mutate != nil {
		mutate(&cfg)
	}
	a, err := app.New(context.Background(), cfg, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler)
	tb.Cleanup(func() { srv.Close(); a.Close() })
	e := &env{t: tb, app: a, srv: srv}
	var key struct {
		Data struct {
			PublicKey string `json:"public_key"`
		} `json:"data"`
	}
	e.decode(e.do("GET", "/api/auth/public_key", "", nil), &key)
	e.pubKey = key.Data.PublicKey
	return e
}

// resp is a finished request.
type resp struct {
	Status int
	Body   []byte
	Header http.Header
}

func (r resp) String() string { return string(r.Body) }

// do sends body (JSON-encoded unless it is a string or []byte) with token.
func (e *env) do(method, path, token string, body any, headers ...string) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
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

func (e *env) decode(r resp, v any) {
	e.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		e.t.Fatalf("decode %d %s: %v", r.Status, r.Body, err)
	}
}

// expect fails unless r has status.
func (e *env) expect(r resp, status int) resp {
	e.t.Helper()
	if r.Status != status {
		e.t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
	return r
}

func (e *env) encrypt(pw string) string {
	e.t.Helper()
	c, err := auth.Encrypt(e.pubKey, pw)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// tryLogin signs in and returns the response.
func (e *env) tryLogin(username, password string) resp {
	return e.do("POST", "/api/auth/login", "", map[string]string{"username": username, "password": e.encrypt(password)})
}

// login signs a demo user in and returns the token.
func (e *env) login(username string) string {
	e.t.Helper()
	r := e.expect(e.tryLogin(username, demo.Password), 200)
	var out struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	e.decode(r, &out)
	return out.Data.Token
}

// count returns a row count straight from the database.
func (e *env) count(table, where string, args ...any) int {
	e.t.Helper()
	var n int
	q := "SELECT COUNT(*) FROM " + table
	if where != "" {
		q += " WHERE " + where
	}
	if err := e.app.DB.Get(&n, e.app.DB.Rebind(q), args...); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func message(r resp) string {
	var m struct {
		Message string `json:"message"`
	}
	json.Unmarshal(r.Body, &m)
	return m.Message
}

// fieldRefusedIn reports whether r is a 422 whose first message for field is
// written out in lang (Chinese characters in zh-CN, none in en-US), not a raw key.
func fieldRefusedIn(e *env, r resp, lang, field string) bool {
	e.t.Helper()
	var out struct {
		Errors map[string][]string `json:"errors"`
	}
	if json.Unmarshal(r.Body, &out) != nil || r.Status != 422 {
		return false
	}
	msgs := out.Errors[field]
	return len(msgs) > 0 && !rawKey.MatchString(msgs[0]) && (lang == "zh-CN") == han.MatchString(msgs[0])
}
