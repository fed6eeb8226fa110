package app_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// seedUsers adds n users (a tenth of them experts, a fifth disabled) in bulk.
func seedUsers(b *testing.B, d *db.DB, n int) {
	b.Helper()
	surnames := []rune("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗")
	now := time.Now().UTC()
	tx := d.MustBegin()
	const batch = 500
	for start := 0; start < n; start += batch {
		q := d.Builder().Insert("users").Columns("username", "name", "password_hash", "phone", "email", "work_no", "status", "created_at", "updated_at")
		for i := start; i < start+batch && i < n; i++ {
			name := string(surnames[i%len(surnames)]) + fmt.Sprintf("医生%d", i)
			status := 1
			if i%5 == 0 {
				status = 0
			}
			q = q.Values(fmt.Sprintf("user%06d", i), name, "x", fmt.Sprintf("138%08d", i), fmt.Sprintf("u%d@example.org", i),
				fmt.Sprintf("W%06d", i), status, now.Add(-time.Duration(i)*time.Minute), now)
		}
		if _, err := db.Exec(b.Context(), tx, q); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO user_roles (user_id, role, config) SELECT id, CASE WHEN id % 10 = 0 THEN 'expert' ELSE 'site' END, '{}' FROM users WHERE username LIKE 'user%'`); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if d.Dialect == db.Postgres {
		d.Exec("ANALYZE")
	} else {
		d.Exec("ANALYZE")
	}
}

// BenchmarkUserList measures GET /api/user over 100,000 users with a status
// filter, a role condition, a search text and a sort, through the whole HTTP
// stack (authentication included), from 8 concurrent clients. It reports
// p50/p99 latency and requests per second, and the same for a minimal
// net/http handler on this machine as the yardstick.
func BenchmarkUserList(b *testing.B) {
	for _, dialect := range dbtest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			e := newEnvTB(b, dialect, nil)
			seedUsers(b, e.app.DB, 100_000)
			token := e.login("admin")
			c, _ := jsonText(map[string]any{"constraints": []any{map[string]any{"condition": "and", "constraint": []any{
				map[string]any{"condition": "and", "operator": "in", "column": "role", "value": []string{"expert"}},
			}}}})
			q := url.Values{"page_size": {"20"}, "params": {`{"status":1}`}, "search": {"张"},
				"sort_by": {`{"created_at":"desc"}`}, "constraints": {c}}
			measure(b, e.srv.URL+"/api/user?"+q.Encode(), token)
		})
	}
	b.Run("minimal-handler", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"data":[]}`))
		}))
		defer srv.Close()
		measure(b, srv.URL, "")
	})
}

func measure(b *testing.B, target, token string) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(4) // 4 × GOMAXPROCS clients
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			req, _ := http.NewRequest("GET", target, nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			t0 := time.Now()
			res, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			var buf [4096]byte
			for {
				if _, err := res.Body.Read(buf[:]); err != nil {
					break
				}
			}
			res.Body.Close()
			if res.StatusCode != 200 {
				b.Errorf("status %d", res.StatusCode)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) == 0 {
		return
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
}
