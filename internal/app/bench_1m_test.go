package app_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"telepath/internal/app"
)

// BenchmarkLists1M measures every case list tab of the screens, the tab
// counts (menu badges) and the user list against a database filled by
// `telepath bench-data` (1,000,000 cases, 100,000 users). It runs only when
// TELEPATH_BENCH_1M_SQLITE (the data directory) or TELEPATH_BENCH_1M_POSTGRES
// (a database URL, never the test database) names such a database:
//
//	TELEPATH_BENCH_1M_SQLITE=/work/benchdata/sqlite go test -run '^$' -bench Lists1M -benchtime 100x ./internal/app
func BenchmarkLists1M(b *testing.B) {
	each1M(b, func(b *testing.B, e *env) {
		for _, c := range lists1M() {
			token := e.login(c.user)
			b.Run(c.name, func(b *testing.B) { measure(b, e.srv.URL+c.path+"?"+c.q.Encode(), token) })
		}
	})
	b.Run("minimal-handler", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"data":[]}`))
		}))
		defer srv.Close()
		measure(b, srv.URL, "")
	})
}

// each1M runs fn on a server over each 1M database named by
// TELEPATH_BENCH_1M_SQLITE / TELEPATH_BENCH_1M_POSTGRES (skipped without one).
func each1M(b *testing.B, fn func(b *testing.B, e *env)) {
	targets := map[string]func(*app.Config){}
	if dir := os.Getenv("TELEPATH_BENCH_1M_SQLITE"); dir != "" {
		targets["sqlite"] = func(c *app.Config) {
			c.DataDir = dir
			if strings.HasPrefix(dir, "sqlite://") { // a URL with its own _pragma options
				c.DatabaseURL, c.DataDir = dir, b.TempDir()
			}
		}
	}
	if u := os.Getenv("TELEPATH_BENCH_1M_POSTGRES"); u != "" {
		targets["postgres"] = func(c *app.Config) { c.DatabaseURL = u; c.DataDir = b.TempDir() }
	}
	if len(targets) == 0 {
		b.Skip("no 1M database (TELEPATH_BENCH_1M_SQLITE / TELEPATH_BENCH_1M_POSTGRES)")
	}
	for _, name := range []string{"sqlite", "postgres"} {
		set, ok := targets[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			cfg, err := app.ConfigFromEnv(func(string) string { return "" })
			if err != nil {
				b.Fatal(err)
			}
			cfg.Demo = true
			cfg.DemoCases = false
			cfg.Auth.Captcha = false
			cfg.Auth.LoginPerMinute = 1000
			set(&cfg)
			a, err := app.New(context.Background(), cfg, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				b.Fatal(err)
			}
			// The first timeout tick catches up on the reminders of the last
			// day (one long write); let it finish before measuring.
			if _, err := a.Timeouts.Tick(context.Background()); err != nil {
				b.Fatal(err)
			}
			srv := httptest.NewServer(a.Handler)
			defer func() { srv.Close(); a.Close() }()
			e := &env{t: b, app: a, srv: srv}
			var key struct {
				Data struct {
					PublicKey string `json:"public_key"`
				} `json:"data"`
			}
			e.decode(e.do("GET", "/api/auth/public_key", "", nil), &key)
			e.pubKey = key.Data.PublicKey
			fn(b, e)
		})
	}
}

type listCase struct {
	name, user, path string
	q                url.Values
}

// lists1M are the screens' list requests: each tab with the screen's
// default sort, the tab counts, searches of each kind, filters, a deep page.
func lists1M() []listCase {
	var out []listCase
	add := func(name, user, path string, kv ...string) {
		q := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			q.Set(kv[i], kv[i+1])
		}
		out = append(out, listCase{name, user, path, q})
	}
	caseList := func(screen, user, sort string, tabs ...string) {
		for _, t := range tabs {
			add(screen+"/"+t, user, "/api/consultation/list", "page_size", "20", "sort_by", sort, "params", `{"tab":"`+t+`"}`)
		}
		add(screen+"/count", user, "/api/consultation/count", "params", `{}`)
	}
	created, submitted := `{"created_at":"desc"}`, `{"submitted_at":"desc"}`
	caseList("case-manage", "site", created, "all", "draft", "to_submit", "submitted", "to_review", "completed", "recall", "returned_site", "timeout")
	caseList("distribute", "allocator", created, "to_allot", "returned_center", "assigned", "timeout", "soon_timeout")
	caseList("diagnosis", "expert", submitted, "pending", "diagnosing", "to_review", "completed", "timeout", "soon_timeout")
	caseList("admin-manage", "admin", created, "all", "unsubmitted", "to_allot", "pending", "diagnosing", "to_review", "completed", "recall_pending", "returned_site", "timeout", "soon_timeout")
	for _, s := range []struct{ name, text string }{{"name-1char", "王"}, {"name-2char", "王伟"}, {"consult-no-part", "2611000"}, {"pathology-part", "BL2025-0123"}, {"id-number", "330212198001150001"}} {
		add("admin-manage/search-"+s.name, "admin", "/api/consultation/list", "page_size", "20", "sort_by", created, "params", `{"tab":"all"}`, "search", s.text)
		add("case-manage/search-"+s.name, "site", "/api/consultation/list", "page_size", "20", "sort_by", created, "params", `{"tab":"all"}`, "search", s.text)
	}
	// The fixed-tab screens: recall (site), recall review and returns
	// (allocator), returns and favourites (expert), the technician's tabs.
	for _, t := range []string{"recall", "recall_pending", "recalled", "returned_site"} {
		add("case-recall/"+t, "site", "/api/consultation/list", "page_size", "20", "sort_by", created, "params", `{"tab":"`+t+`"}`)
	}
	add("distribute/recall_pending", "allocator", "/api/consultation/list", "page_size", "20", "sort_by", created, "params", `{"tab":"recall_pending"}`)
	add("distribute/returned_site", "allocator", "/api/consultation/list", "page_size", "20", "sort_by", created, "params", `{"tab":"returned_site"}`)
	add("diagnosis/returned_center", "expert", "/api/consultation/list", "page_size", "20", "sort_by", submitted, "params", `{"tab":"returned_center"}`)
	add("diagnosis/collected", "expert", "/api/consultation/list", "page_size", "20", "sort_by", submitted, "params", `{"tab":"collected"}`)
	caseList("diagnosis-staff", "staff", submitted, "submitted", "timeout", "completed", "all")
	// A search of each kind on every screen, hospital names included.
	for _, s := range []struct{ name, text string }{{"name-1char", "王"}, {"hospital-name", "明州"}} {
		add("distribute/search-"+s.name, "allocator", "/api/consultation/list", "page_size", "20", "sort_by", created, "params", `{"tab":"assigned"}`, "search", s.text)
		add("diagnosis/search-"+s.name, "expert", "/api/consultation/list", "page_size", "20", "sort_by", submitted, "params", `{"tab":"completed"}`, "search", s.text)
	}
	// An expert's completed tab searched for three characters and more: a
	// hospital name that 26 hospitals' 520,000 cases match, a consultation
	// number's part (issue 17).
	for _, s := range []struct{ name, text string }{{"hospital-name-4char", "人民医院"}, {"consult-no-part", "2611000"}} {
		add("diagnosis/search-"+s.name, "expert", "/api/consultation/list", "page_size", "20", "sort_by", submitted, "params", `{"tab":"completed"}`, "search", s.text)
	}
	for _, s := range []struct{ name, text string }{{"hospital-name", "明州"}} {
		add("admin-manage/search-"+s.name, "admin", "/api/consultation/list", "page_size", "20", "sort_by", created, "params", `{"tab":"all"}`, "search", s.text)
		add("case-manage/search-"+s.name, "site", "/api/consultation/list", "page_size", "20", "sort_by", created, "params", `{"tab":"all"}`, "search", s.text)
	}
	// Every sortable column of the screens, on the biggest tab.
	for _, col := range []string{"consult_no", "pathology_number", "patient_name", "age", "status", "slide_count", "inspection_date", "submitted_at", "timeout_at"} {
		add("admin-manage/sort-"+col, "admin", "/api/consultation/list", "page_size", "20", "sort_by", `{"`+col+`":"asc"}`, "params", `{"tab":"all"}`)
	}
	add("case-manage/sort-slide_count", "site", "/api/consultation/list", "page_size", "20", "sort_by", `{"slide_count":"desc"}`, "params", `{"tab":"completed"}`)
	add("diagnosis/sort-pathology_number", "expert", "/api/consultation/list", "page_size", "20", "sort_by", `{"pathology_number":"asc"}`, "params", `{"tab":"completed"}`)
	// The screens' own filters together, with a sort and a search.
	add("admin-manage/all-filters", "admin", "/api/consultation/list", "page_size", "20", "sort_by", `{"submitted_at":"asc"}`,
		"params", `{"tab":"completed","hospital_id":[5,6,7],"expert_id":[6,7,15],"status":4,"expedite":0,"charge_status":2,"submitted_at":["2025-01-01","2025-12-31"]}`, "search", "王")
	add("admin-manage/count-filters", "admin", "/api/consultation/count",
		"params", `{"hospital_id":[5,6,7],"expedite":1,"created_at":["2025-01-01","2025-12-31"]}`)
	add("distribute/filters-search-sort", "allocator", "/api/consultation/list", "page_size", "20", "sort_by", `{"timeout_at":"asc"}`,
		"params", `{"tab":"assigned","hospital_id":[5,6,7,8],"expedite":0,"submitted_at":["2026-01-01","2026-12-31"]}`, "search", "李")
	add("diagnosis/filters-search-sort", "expert", "/api/consultation/list", "page_size", "20", "sort_by", `{"pathology_number":"desc"}`,
		"params", `{"tab":"completed","hospital_id":[5,6],"inspection_date":["2024-01-01","2025-12-31"]}`, "search", "张")
	add("case-manage/filters-dates", "site", "/api/consultation/list", "page_size", "20", "sort_by", `{"inspection_date":"desc"}`,
		"params", `{"tab":"all","status":4,"expedite":1,"inspection_date":["2024-01-01","2024-12-31"],"created_at":["2024-01-01","2025-06-30"]}`)
	// Deep pages of every screen's biggest list.
	add("case-manage/deep-page-500", "site", "/api/consultation/list", "page", "500", "page_size", "20", "sort_by", created, "params", `{"tab":"completed"}`)
	add("diagnosis/deep-page-1000", "expert", "/api/consultation/list", "page", "1000", "page_size", "20", "sort_by", submitted, "params", `{"tab":"completed"}`)
	add("admin-manage/deep-page-5000-name", "admin", "/api/consultation/list", "page", "5000", "page_size", "20", "sort_by", `{"patient_name":"asc"}`, "params", `{"tab":"completed"}`)
	add("case-manage/filters-search-sort", "site", "/api/consultation/list", "page_size", "20", "sort_by", `{"patient_name":"asc"}`,
		"params", `{"tab":"completed","expedite":0,"gender":"female"}`, "search", "李")
	add("admin-manage/deep-page-5000", "admin", "/api/consultation/list", "page", "5000", "page_size", "20", "sort_by", created, "params", `{"tab":"all"}`)
	add("admin-manage/count-search", "admin", "/api/consultation/count", "search", "王")
	// Tab counts under a search of each kind (exact counts, issue 17).
	for _, s := range []struct{ name, text string }{{"name-2char", "王伟"}, {"hospital-name", "明州"}, {"id-number-part", "19800115"}, {"latin-1char", "B"}} {
		add("admin-manage/count-search-"+s.name, "admin", "/api/consultation/count", "search", s.text)
		add("case-manage/completed-search-"+s.name, "site", "/api/consultation/list", "page_size", "20", "sort_by", created, "params", `{"tab":"completed"}`, "search", s.text)
	}
	add("user/list", "admin", "/api/user", "page_size", "20", "sort_by", created, "params", `{"tab":"all"}`)
	add("user/list-search", "admin", "/api/user", "page_size", "20", "sort_by", created, "params", `{"status":1}`, "search", "张")
	add("user/count", "admin", "/api/user/count", "params", `{}`)
	add("user/deep-page-5000", "admin", "/api/user", "page", "5000", "page_size", "20", "sort_by", `{"name":"asc"}`, "params", `{"tab":"all"}`)
	add("user/search-phone", "admin", "/api/user", "page_size", "20", "sort_by", created, "params", `{"tab":"all"}`, "search", "1390004")
	add("menu", "expert", "/api/menu")
	return out
}
