package app_test

import (
	"slices"
	"strings"
	"testing"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Deny by default: every operation declares who may call it, and the
// route tables hold every operation of the API document, once.
func TestEveryRouteDeclaresRoles(t *testing.T) {
	e := newEnv(t, "sqlite", nil)
	inTable := map[string]bool{}
	for _, r := range e.app.API.Table() {
		key := r.Method + " " + r.Path
		if inTable[key] {
			t.Errorf("%s is in the route tables twice", key)
		}
		inTable[key] = true
		if len(r.Roles) == 0 && !r.Public {
			t.Errorf("%s declares no roles", key)
		}
	}
	n := 0
	for path, item := range e.app.API.OpenAPI().Paths {
		for method, op := range operations(item) {
			n++
			if len(httpx.RolesOf(op)) == 0 {
				t.Errorf("%s %s declares no roles", method, path)
			}
			if !inTable[method+" "+path] {
				t.Errorf("%s %s is in no route table", method, path)
			}
		}
	}
	if n != len(inTable) {
		t.Errorf("%d operations, %d routes in the tables", n, len(inTable))
	}
	if n < 20 {
		t.Fatalf("only %d operations found", n)
	}
}

// Every route, for no session and for each role: a caller outside the
// declaration gets 401 or 403 and nothing else; a caller inside never does.
func TestRouteAccessMatrix(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		tokens := map[string]string{}
		users := map[string]string{}
		for _, r := range access.Roles {
			users[r] = r
		}
		for role, name := range users {
			tokens[role] = e.login(name)
		}
		for _, route := range e.app.API.Table() {
			method, path := route.Method, route.Path
			if method == "POST" && (path == "/api/auth/logout" || path == "/api/user/password" || path == "/api/system_management/users/lock_screen") {
				continue // would end or lock the session under test; covered in TestLogin and TestScreenLockOnServer
			}
			declared, public := route.Roles, route.Public
			url := strings.ReplaceAll(path, "{id}", "999999")
			r := e.do(method, url, "", "{}")
			if !public && r.Status != 401 {
				t.Errorf("%s %s without session: %d", method, path, r.Status)
			}
			for _, role := range access.Roles {
				allowed := public || slices.Contains(declared, "*") || slices.Contains(declared, role) || role == access.Root
				r := e.do(method, url, tokens[role], "{}")
				switch {
				case allowed && (r.Status == 401 || r.Status == 403):
					t.Errorf("%s %s as %s: %d %s", method, path, role, r.Status, r)
				case !allowed && r.Status != 403:
					t.Errorf("%s %s as %s: %d, want 403", method, path, role, r.Status)
				case r.Status >= 500:
					t.Errorf("%s %s as %s: %d %s", method, path, role, r.Status, r)
				}
			}
		}
		if e.count("audit_logs", "outcome = 'denied'") == 0 {
			t.Error("refusals are not audited")
		}
	})
}
