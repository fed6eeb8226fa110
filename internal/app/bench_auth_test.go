package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"telepath/internal/app"
	"telepath/internal/auth"
	"telepath/internal/platform/db"
	"telepath/internal/platform/httpx"
)

// BenchmarkPasswordGuessing drives wrong passwords at sign-in, screen-unlock
// and password change through the real handler with the default sign-in
// policy (captcha off), from one client and from 64 concurrent clients (64
// addresses for sign-in; one stolen session for the others), for a few
// seconds each; and 64 clients each guessing a different user name, which
// only the overall bound on concurrent checks limits. It reports the guesses the server actually judged per second
// (answers that say "wrong password") and the peak heap while 64 checks run
// at once. Run: go test ./internal/app -run '^$' -bench PasswordGuessing -benchtime 1x
func BenchmarkPasswordGuessing(b *testing.B) {
	const window = 3 * time.Second
	for _, target := range []string{"login", "login_many_names", "lock_screen_verify", "password_change"} {
		for _, clients := range []int{1, 64} {
			b.Run(fmt.Sprintf("%s/clients=%d", target, clients), func(b *testing.B) {
				e := newEnvTB(b, db.SQLite, func(c *app.Config) {
					c.Auth.LoginPerMinute = auth.DefaultConfig().LoginPerMinute
					c.Proxies, _ = httpx.ParseProxies("1", "")
				})
				token := ""
				if target != "login" {
					token = e.login("expert")
				}
				wrong := e.encrypt("Wrong@2026x")
				var judged, refused atomic.Int64
				var peak atomic.Uint64
				stop := make(chan struct{})
				go func() { // heap sampler
					var m runtime.MemStats
					for {
						select {
						case <-stop:
							return
						case <-time.After(5 * time.Millisecond):
							runtime.ReadMemStats(&m)
							if m.HeapInuse > peak.Load() {
								peak.Store(m.HeapInuse)
							}
						}
					}
				}()
				runtime.GC()
				start := time.Now()
				deadline := start.Add(window)
				var wg sync.WaitGroup
				for c := range clients {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for time.Now().Before(deadline) {
							status, body := guess(e, target, token, wrong, fmt.Sprintf("10.1.%d.%d", c/250, c%250+1))
							if isJudged(target, status, body) {
								judged.Add(1)
							} else {
								refused.Add(1)
							}
						}
					}()
				}
				wg.Wait()
				close(stop)
				took := time.Since(start).Seconds()
				b.ReportMetric(float64(judged.Load())/took, "guesses/s")
				b.ReportMetric(float64(judged.Load()), "guesses")
				b.ReportMetric(float64(refused.Load())/took, "refused/s")
				b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
			})
		}
	}
}

func guess(e *env, target, token, wrong, ip string) (int, []byte) {
	var path string
	var body any
	switch target {
	case "login":
		path, body = "/api/auth/login", map[string]string{"username": "admin", "password": wrong}
	case "login_many_names": // each client its own (unknown) name: only the overall bound applies
		path, body = "/api/auth/login", map[string]string{"username": "guess-" + ip, "password": wrong}
	case "lock_screen_verify":
		path, body = "/api/system_management/users/lock_screen_verify", map[string]string{"password": wrong}
	default:
		path, body = "/api/user/password", map[string]string{"old_password": wrong, "new_password": e.encrypt("Brand-new@2027")}
	}
	j, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", e.srv.URL+path, bytes.NewReader(j))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(res.Body)
	return res.StatusCode, buf.Bytes()
}

// isJudged reports whether the answer tells that the password was checked and wrong.
func isJudged(target string, status int, body []byte) bool {
	switch target {
	case "login", "login_many_names":
		return status == 401 && bytes.Contains(body, []byte("用户名或密码错误"))
	case "lock_screen_verify":
		return status == 422 && bytes.Contains(body, []byte(`"password"`))
	default:
		return status == 422 && bytes.Contains(body, []byte(`"old_password"`))
	}
}
