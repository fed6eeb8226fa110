package app_test

import (
	"cmp"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"telepath/internal/statistics"
)

// BenchmarkStatistics1M measures every statistics screen over the 1M
// database of `telepath bench-data` (three years of cases): the current
// month, the last year and the whole three years, for the admin (everything)
// a site (one hospital) and an expert (their own work), reading the daily rollups ("rollups") and
// counting every figure on the cases as before them ("cases"), in the same
// run. Requests run one after the other: the figure is the answer time a
// reader waits for.
//
//	TELEPATH_BENCH_1M_SQLITE=<dir> go test -run '^$' -bench 'Statistics1M/.*/rollups' -benchtime 5x ./internal/app
//
// With TELEPATH_BENCH_TRACE=1 each run logs its screen's measures, slowest
// first, with the longest each took (they run four at a time).
func BenchmarkStatistics1M(b *testing.B) {
	var mu sync.Mutex
	took := map[string]time.Duration{}
	if os.Getenv("TELEPATH_BENCH_TRACE") != "" {
		statistics.Trace = func(name string, d time.Duration) {
			mu.Lock()
			took[name] = max(took[name], d)
			mu.Unlock()
		}
		defer func() { statistics.Trace = nil }()
	}
	logTrace := func(b *testing.B) {
		mu.Lock()
		defer mu.Unlock()
		names := slices.SortedFunc(maps.Keys(took), func(x, y string) int { return cmp.Compare(took[y], took[x]) })
		for _, n := range names {
			b.Logf("%8.1f ms  %s", float64(took[n].Microseconds())/1000, n)
		}
		clear(took)
	}
	each1M(b, func(b *testing.B, e *env) {
		now := time.Now()
		periods := map[string][2]string{
			"month": {now.Format("2006-01") + "-01", now.Format("2006-01-02")},
			"year":  {now.AddDate(-1, 0, 1).Format("2006-01-02"), now.Format("2006-01-02")},
			"3y":    {now.AddDate(-3, 0, 1).Format("2006-01-02"), now.Format("2006-01-02")},
		}
		open := map[string][]string{
			"admin":  {"consultation", "bank", "expert", "expert-consultation", "quality", "he", "outside", "diagnosis"},
			"site":   {"consultation", "bank", "expert-consultation"},
			"expert": {"consultation", "quality"},
		}
		for _, user := range []string{"admin", "site", "expert"} {
			token := e.login(user)
			for _, screen := range open[user] {
				for _, p := range []string{"month", "year", "3y"} {
					q := url.Values{"start": {periods[p][0]}, "end": {periods[p][1]}}
					for _, read := range []string{"rollups", "cases"} {
						b.Run(user+"/"+screen+"/"+p+"/"+read, func(b *testing.B) {
							e.app.Statistics.ReadRollups(read == "rollups")
							defer e.app.Statistics.ReadRollups(true)
							measureSerial(b, e.srv.URL+"/api/statistical/"+screen+"?"+q.Encode(), token)
							logTrace(b)
						})
					}
				}
			}
		}
	})
}

// measureSerial sends b.N requests one at a time and reports the median
// and the slowest answer.
func measureSerial(b *testing.B, target, token string) {
	var lat []time.Duration
	for i := 0; i < b.N; i++ {
		req, _ := http.NewRequest("GET", target, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		t0 := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
}
