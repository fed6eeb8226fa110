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
	"telepath/internal/borrow"
	"telepath/internal/consultation"
	"telepath/internal/demo"
	"telepath/internal/diagnosis"
	"telepath/internal/diagnosis/advice"
	"telepath/internal/diagnosis/invitation"
	"telepath/internal/diagnosis/judge"
	"telepath/internal/diagnosis/publication"
	"telepath/internal/diagnosis/shots"
	"telepath/internal/diagnosis/structured"
	"telepath/internal/diagnosis/templates"
	"telepath/internal/files"
	"telepath/internal/frozen"
	"telepath/internal/gallery"
	"telepath/internal/library"
	"telepath/internal/meeting"
	"telepath/internal/menu"
	"telepath/internal/notify"
	"telepath/internal/org"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/i18n"
	"telepath/internal/reagent"
	"telepath/internal/report"
	"telepath/internal/settings"
	"telepath/internal/share"
	"telepath/internal/slideserver"
	"telepath/internal/statistics"
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
	// Notify is the message centre and live event delivery.
	Notify *notify.Service
	// Frozen is the duty schedule and the frozen appointments.
	Frozen *frozen.Service
	// Timeouts sends the timeout reminders (every 30 s).
	Timeouts *notify.Timeouts
	// Statistics computes the statistics screens from the daily rollups and the cases.
	Statistics *statistics.Service

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
	clk := clock.New(a.Config.Zone, nil)
	authSvc.UseClock(clk)
	if err := a.seed(ctx, clk); err != nil {
		return err
	}
	orgSvc := org.New(a.DB)
	orgSvc.UseClock(clk)
	settingsSvc.UseHospitalCenters(orgSvc.CentersOfHospital)
	userSvc := user.New(a.DB, orgSvc, authSvc)
	userSvc.UseClock(clk)
	libSvc := library.New(a.DB)
	libSvc.UseClock(clk)
	userSvc.UseLibraries(libSvc.Existing)
	billSvc := billing.New(a.DB)
	billSvc.UseClock(clk)
	reagentSvc := reagent.New(a.DB)
	reagentSvc.UseClock(clk)
	fileSvc := files.New(a.DB, a.Config.DataDir)
	fileSvc.UseClock(clk)
	settingsSvc.UseClock(clk)
	consultSvc := consultation.New(a.DB, consultationDeps(orgSvc, userSvc, libSvc, billSvc, fileSvc, settingsSvc))
	consultSvc.UseClock(clk)
	auditLog.Cases = consultSvc
	notifySvc := notify.New(a.DB, notifyDeps(authSvc, orgSvc, userSvc, settingsSvc))
	notifySvc.UseClock(clk)
	notifySvc.Hub().Log = a.Log
	consultSvc.Listen(notifySvc.OnCase)
	a.Notify = notifySvc
	live, stopLive := context.WithCancel(context.Background())
	a.closers = append(a.closers, func() error { stopLive(); return nil })
	notifySvc.Start(live, a.Config.DatabaseURL)
	a.Timeouts = notifySvc.Timeouts(consultSvc.Due)
	go a.Timeouts.Run(live, 30*time.Second)
	go a.DB.KeepStatistics(live, 6*time.Hour, a.Log)
	fileSvc.SetCaseAccess(consultSvc.CanSee, consultSvc.CasesOfFile)
	reportTemplates := report.NewTemplates(a.DB)
	reportTemplates.UseClock(clk)
	adviceSvc := advice.New(a.DB, adviceDeps(consultSvc, userSvc, settingsSvc))
	adviceSvc.UseClock(clk)
	structSvc := structured.New(a.DB)
	structSvc.UseClock(clk)
	structSvc.UseReportKind(func(ctx context.Context, libraryID int64) (string, error) {
		lib, err := libSvc.Get(ctx, libraryID)
		if err != nil {
			return "", err
		}
		return lib.ReportKind, nil
	})
	diagDeps := diagnosisDeps(consultSvc, userSvc, libSvc, settingsSvc)
	diagDeps.StructValues, diagDeps.StructProblems = structSvc.Values, structSvc.Problems
	diagSvc := diagnosis.New(a.DB, diagDeps)
	diagSvc.UseClock(clk)
	shotSvc := shots.New(a.DB, consultSvc, fileSvc)
	shotSvc.UseClock(clk)
	gallerySvc := gallery.New(a.DB, consultSvc, fileSvc)
	gallerySvc.UseClock(clk)
	pubSvc := publication.New(publicationDeps(consultSvc, diagSvc, adviceSvc, reportImages(shotSvc, gallerySvc), userSvc, libSvc, settingsSvc, reportTemplates))
	pubSvc.UseClock(clk)
	inviteSvc := invitation.New(a.DB, invitation.Deps{Cases: consultSvc, Experts: diagDeps.Experts})
	inviteSvc.UseClock(clk)
	judgeSvc := judge.New(a.DB, consultSvc)
	judgeSvc.UseClock(clk)
	templateSvc := templates.New(a.DB)
	templateSvc.UseClock(clk)
	fd := frozenDeps(orgSvc, userSvc, libSvc, consultSvc, notifySvc)
	fd.ParaffinAfterFrozen = func(ctx context.Context, center int64) bool {
		return settingsSvc.DiagnosisFor(ctx, center).AfterFrozenParaffinBlock
	}
	fd.RecallNeedsCheck = func(ctx context.Context) bool { return settingsSvc.System(ctx).RollbackNeedCheck }
	frozenSvc := frozen.New(a.DB, fd)
	frozenSvc.UseClock(clk)
	a.Frozen = frozenSvc
	consultSvc.Listen(frozenSvc.CasePublished, consultation.ActPublish)
	consultSvc.Listen(frozenSvc.CaseOpened, consultation.ActLock)
	consultSvc.Listen(frozenSvc.CaseAssigned, consultation.ActBindExpert, consultation.ActReferral, consultation.ActExpertReferral)
	statSvc := statistics.New(a.DB, statistics.Deps{BigScreen: func(ctx context.Context) bool { return settingsSvc.System(ctx).BigScreen }})
	statSvc.UseClock(clk)
	if err := statSvc.Start(ctx); err != nil {
		return err
	}
	a.Statistics = statSvc
	if a.Config.Demo && a.Config.DemoCases {
		a.Log.Info("seeding demo cases (the first start makes two demo slides)")
		if err := demo.SeedCases(ctx, a.DB, consultSvc, demo.FileSlides(a.DB, a.Config.DataDir, clk), clk); err != nil {
			return err
		}
	}

	mux := http.NewServeMux()
	api := httpx.NewAPI(mux, authSvc, auditLog)
	api.UseReadRecorder(auditLog)
	api.UseClock(clk)
	authSvc.Routes(api, userSvc.LendInfo(a.Config.Auth.IdleTimeout))
	userSvc.Routes(api)
	orgSvc.Routes(api)
	auditLog.Routes(api)
	menu.Routes(api)
	notifySvc.Routes(api)
	libSvc.Routes(api)
	billSvc.Routes(api)
	reagentSvc.Routes(api)
	fileSvc.Routes(api)
	gallerySvc.Routes(api)
	consultSvc.Routes(api, consultation.Lent{Advice: adviceSvc.Lend(), Publisher: pubSvc.Lend(),
		Supplement: diagSvc.LendSupplement(), Judgements: judgeSvc.Lend()})
	diagSvc.Routes(api)
	pubSvc.Routes(api, mux)
	adviceSvc.Routes(api)
	inviteSvc.Routes(api)
	judgeSvc.Routes(api)
	shotSvc.Routes(api)
	templateSvc.Routes(api)
	structSvc.Routes(api)
	settingsSvc.Routes(api)
	reportTemplates.Routes(api)
	frozenSvc.Routes(api)
	statSvc.Routes(api)
	borrowSvc := borrow.New(a.DB)
	borrowSvc.UseClock(clk)
	borrowSvc.Routes(api)
	slides, closeSlides, err := slideserver.Setup(ctx, a.DB, a.Config.DataDir, authSvc, consultSvc.CanSee, a.Log, api, mux, clk)
	if err != nil {
		return err
	}
	a.closers = append(a.closers, closeSlides)
	shareSvc := share.New(a.DB, shareDeps(consultSvc, authSvc, slides, pubSvc, fileSvc, settingsSvc))
	shareSvc.UseClock(clk)
	shareSvc.UsePDFStamper(report.NewStamper(a.Config.PDFStampTimeout))
	slides.UseShares(shareSvc.SlideGrant)
	slides.UseDiskWarning(func(ctx context.Context) int64 { return int64(settingsSvc.System(ctx).DiskSpace) << 30 })
	slides.UseThumbs(fileSvc.ThumbUsage)
	shareSvc.Routes(api)
	meetingSvc := meeting.New(a.DB, meetingDeps(consultSvc, authSvc, notifySvc, settingsSvc))
	meetingSvc.UseClock(clk)
	consultSvc.Listen(meetingSvc.CaseEnded(meeting.EndedSigned), consultation.ActPublish)
	consultSvc.Listen(meetingSvc.CaseEnded(meeting.EndedReview), consultation.ActToReview)
	consultSvc.Listen(meetingSvc.PresenterMoved, consultation.ActLock)
	consultSvc.Guard(consultation.ActMeeting, meetingSvc.Switched)
	slides.UseAnnotationsSaved(meetingSvc.AnnotationsSaved)
	meetingSvc.Routes(api)

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
func (a *App) seed(ctx context.Context, clk clock.Clock) error {
	if a.Config.Demo {
		return demo.Seed(ctx, a.DB, a.Log, clk)
	}
	return demo.FirstAdmin(ctx, a.DB, a.Log, clk)
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
