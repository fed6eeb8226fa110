package app

import (
	"context"
	"crypto/subtle"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"telepath/internal/audit"
	"telepath/internal/auth"
	"telepath/internal/billing"
	"telepath/internal/consultation"
	"telepath/internal/demo"
	"telepath/internal/diagnosis"
	"telepath/internal/files"
	"telepath/internal/library"
	"telepath/internal/menu"
	"telepath/internal/org"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/i18n"
	"telepath/internal/report"
	"telepath/internal/settings"
	"telepath/internal/slideserver"
	"telepath/internal/user"
)

// App is one running Telepath: its database, API and HTTP handler.
// The end-to-end tests start it exactly as main does.
type App struct {
	Config  Config
	DB      *db.DB
	API     *httpx.API
	Handler http.Handler
	Log     *slog.Logger
	// Audit is the operation log; Flush writes the buffered read records.
	Audit *audit.Log

	closers []func() error // background work to stop before the database closes
}

// New opens the database, runs migrations and seeds, and builds the handler.
// ui is the built web app (nil serves the API only).
func New(ctx context.Context, cfg Config, ui fs.FS, log *slog.Logger) (*App, error) {
	d, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	a := &App{Config: cfg, DB: d, Log: log}
	if err := a.build(ctx, ui); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

func (a *App) build(ctx context.Context, ui fs.FS) error {
	if a.Config.Auth.CaptchaTestAnswer != "" {
		a.Log.Warn("TEST MODE: TELEPATH_CAPTCHA_TEST_ANSWER is set, every captcha has the same answer; never run this way in production")
	}
	auditLog := &audit.Log{DB: a.DB}
	auditLog.Start()
	a.Audit = auditLog
	a.closers = append(a.closers, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		return auditLog.Close(ctx)
	})
	authSvc, err := auth.New(ctx, a.DB, a.Config.Auth, auditLog)
	if err != nil {
		return err
	}
	settingsSvc := settings.New(a.DB, a.Config.Auth.Captcha)
	authSvc.UseCaptchaSetting(func(ctx context.Context) bool { return settingsSvc.System(ctx).CaptchaEnable })
	if err := a.seed(ctx); err != nil {
		return err
	}
	clk := clock.New(a.Config.Zone, nil)
	orgSvc := org.New(a.DB)
	orgSvc.UseClock(clk)
	userSvc := user.New(a.DB, orgSvc, authSvc)
	userSvc.UseClock(clk)
	libSvc := library.New(a.DB)
	libSvc.UseClock(clk)
	billSvc := billing.New(a.DB)
	billSvc.UseClock(clk)
	fileSvc := files.New(a.DB, a.Config.DataDir)
	fileSvc.UseClock(clk)
	settingsSvc.UseClock(clk)
	consultSvc := consultation.New(a.DB, consultationDeps(orgSvc, userSvc, libSvc, billSvc, fileSvc, settingsSvc))
	consultSvc.UseClock(clk)
	auditLog.Cases = consultSvc
	fileSvc.SetCaseAccess(consultSvc.CanSee)
	reportTemplates := report.NewTemplates(a.DB)
	reportTemplates.UseClock(clk)
	diagDeps := diagnosisDeps(consultSvc, userSvc, libSvc, settingsSvc)
	diagDeps.Files = fileSvc
	diagDeps.ReportLayout = reportTemplates.InUse
	diagDeps.Signature = func(ctx context.Context, userID int64) []byte {
		b, _, _ := userSvc.Signature(ctx, userID) // a report prints without one rather than fail
		return b
	}
	diagSvc := diagnosis.New(a.DB, diagDeps)
	diagSvc.UseClock(clk)
	if a.Config.Demo && a.Config.DemoCases {
		a.Log.Info("seeding demo cases (the first start makes two demo slides)")
		if err := demo.SeedCases(ctx, a.DB, consultSvc, demo.FileSlides(a.DB, a.Config.DataDir)); err != nil {
			return err
		}
	}

	mux := http.NewServeMux()
	api := httpx.NewAPI(mux, authSvc, auditLog)
	api.UseReadRecorder(auditLog)
	api.UseZone(clk.Zone())
	authSvc.Routes(api)
	userSvc.Routes(api, a.Config.Auth.IdleTimeout)
	orgSvc.Routes(api)
	auditLog.Routes(api)
	menu.Routes(api)
	libSvc.Routes(api)
	billSvc.Routes(api)
	fileSvc.Routes(api)
	consultSvc.Routes(api)
	diagSvc.Routes(api, mux)
	settingsSvc.Routes(api)
	reportTemplates.Routes(api)
	closeSlides, err := slideserver.Setup(ctx, a.DB, a.Config.DataDir, authSvc, consultSvc.CanSee, a.Log, api, mux, clk)
	if err != nil {
		return err
	}
	a.closers = append(a.closers, closeSlides)

	mux.HandleFunc("GET /healthz", a.healthz)
	mux.Handle("GET /metrics", a.metricsOnMain())
	mux.Handle("/api/", apiNotFound())
	if ui != nil {
		mux.Handle("/", spa(ui))
	}
	a.API = api
	a.Handler = httpx.Wrap(mux, a.Log, httpx.Edge{Proxies: a.Config.Proxies})
	return nil
}

// seed adds the demo data on an empty database, or the first administrator.
func (a *App) seed(ctx context.Context) error {
	if a.Config.Demo {
		return demo.Seed(ctx, a.DB, a.Log)
	}
	return demo.FirstAdmin(ctx, a.DB, a.Log)
}

func (a *App) healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	w.Header().Set("Content-Type", "application/json")
	if err := a.DB.PingContext(ctx); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"status":"database unavailable"}`))
		return
	}
	w.Write([]byte(`{"status":"ok"}`))
}

// metricsOnMain is /metrics on the main address: for bearers of the
// operator's token only, and not at all without one.
func (a *App) metricsOnMain() http.Handler {
	token := a.Config.MetricsToken
	if token == "" {
		return http.NotFoundHandler()
	}
	prom := promhttp.Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		prom.ServeHTTP(w, r)
	})
}

// Run serves until ctx is cancelled, then shuts down gracefully.
func (a *App) Run(ctx context.Context) error {
	servers := []*http.Server{newServer(a.Handler)}
	addrs := []string{a.Config.Addr}
	if a.Config.MetricsAddr != "" {
		m := http.NewServeMux()
		m.Handle("GET /metrics", promhttp.Handler())
		servers, addrs = append(servers, newServer(m)), append(addrs, a.Config.MetricsAddr)
	}
	errc := make(chan error, len(servers))
	for i, srv := range servers {
		ln, err := net.Listen("tcp", addrs[i])
		if err != nil {
			for _, s := range servers[:i] {
				s.Close()
			}
			return err
		}
		if i == 0 {
			a.Log.Info("telepath listening", "url", "http://"+ln.Addr().String(), "database", string(a.DB.Dialect))
		} else {
			a.Log.Info("metrics listening", "url", "http://"+ln.Addr().String()+"/metrics")
		}
		go func() { errc <- srv.Serve(ln) }()
	}
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, srv := range servers {
		if e := srv.Shutdown(shut); e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
			err = e
		}
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}

// VerifyAudit checks the operation log's hash chain (telepath audit-verify).
func VerifyAudit(ctx context.Context, cfg Config) (*audit.Report, error) {
	d, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	rep, err := audit.Verify(ctx, d)
	if err != nil {
		return nil, err
	}
	rep.Localize(i18n.EN)
	return rep, nil
}

// Close stops background work and releases the database.
func (a *App) Close() error {
	for _, c := range a.closers {
		c() //nolint:errcheck
	}
	return a.DB.Close()
}
