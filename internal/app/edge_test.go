package app_test

import (
	"testing"

	"telepath/internal/app"
	"telepath/internal/demo"
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
