// Command telepath runs the Telepath remote pathology consultation server.
//
//	telepath serve              start the server (configuration from TELEPATH_* variables)
//	telepath openapi            print the OpenAPI document
//	telepath audit-verify       check that no operation log record was changed or removed
//	telepath rotate-slide-key   new signing key for slide URLs (the previous one stays accepted)
//	telepath migrate            apply the pending migrations and report how long they took
//	telepath bench-data         load 1,000,000 benchmark cases (with the demo users) into the configured database
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"telepath/internal/app"
	"telepath/internal/benchdata"
	"telepath/internal/demo"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/slideserver"
	"telepath/web"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "telepath:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd = args[0]
	}
	cfg, err := app.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	slog.SetDefault(log)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch cmd {
	case "serve":
		ui, err := fs.Sub(web.Dist, "dist")
		if err != nil {
			return err
		}
		a, err := app.New(ctx, cfg, ui, log)
		if err != nil {
			return err
		}
		defer a.Close()
		return a.Run(ctx)
	case "openapi":
		doc, err := app.OpenAPI(ctx)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	case "audit-verify":
		rep, err := app.VerifyAudit(ctx, cfg)
		if err != nil {
			return err
		}
		if !rep.OK {
			return fmt.Errorf("audit chain broken at record %d (number %d): %s", rep.Broken.ID, rep.Broken.Seq, rep.Broken.Message)
		}
		fmt.Printf("audit chain intact: %d records checked, %d not yet sealed\n", rep.Checked, rep.Pending)
		return nil
	case "rotate-slide-key":
		d, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
		if err != nil {
			return err
		}
		defer d.Close()
		id, err := slideserver.RotateKey(ctx, d)
		if err != nil {
			return err
		}
		fmt.Printf("slide URLs are now signed with key %d; URLs of key %d still work, older ones no longer\n", id, id-1)
		return nil
	case "migrate":
		t0 := time.Now()
		d, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
		if err != nil {
			return err
		}
		defer d.Close()
		fmt.Printf("migrations applied in %s\n", time.Since(t0).Round(time.Millisecond))
		return nil
	case "bench-data":
		d, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
		if err != nil {
			return err
		}
		defer d.Close()
		if err := demo.Seed(ctx, d, log, clock.Clock{}); err != nil {
			return err
		}
		return benchdata.Load(ctx, d, benchdata.Defaults(time.Now()), log)
	default:
		return fmt.Errorf("unknown command %q (want serve, migrate, openapi, audit-verify, rotate-slide-key or bench-data)", cmd)
	}
}
