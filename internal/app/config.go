// Package app wires the configuration, database, domains and HTTP server
// into the running Telepath process.
package app

import (
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"telepath/internal/auth"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/httpx"
)

// Config is the operator's configuration (DESIGN.md §2), read from the
// environment once in main.
type Config struct {
	Addr        string
	DataDir     string
	DatabaseURL string
	Demo        bool
	DemoCases   bool          // with Demo: also cases in every status (tests turn it off)
	Proxies     httpx.Proxies // who may tell the client's address (X-Forwarded-For)
	// Zone is the operator's time zone (TELEPATH_TIMEZONE): dates without a
	// zone are read in it, reports and exports show times in it. nil: the
	// default, Asia/Shanghai.
	Zone     *time.Location
	LogLevel slog.Level
	// MetricsAddr serves /metrics on a listener of its own (for the
	// monitoring network); MetricsToken serves it on Addr to bearers of it.
	MetricsAddr  string
	MetricsToken string
	Auth         auth.Config
	// PDFStampTimeout is how much CPU time watermarking a shared case's
	// PDF attachment of up to 1 MB may take, a twentieth more for each
	// further MB, and three times that of wall-clock time
	// (TELEPATH_PDF_STAMP_TIMEOUT; 0: report.DefaultStampTimeout).
	PDFStampTimeout time.Duration
}

// ConfigFromEnv reads TELEPATH_* variables through getenv.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		Addr:         or(getenv("TELEPATH_ADDR"), "127.0.0.1:8080"),
		DataDir:      or(getenv("TELEPATH_DATA_DIR"), "./data"),
		DatabaseURL:  getenv("TELEPATH_DATABASE_URL"),
		Demo:         truthy(getenv("TELEPATH_DEMO")),
		DemoCases:    true,
		Auth:         auth.DefaultConfig(),
		MetricsAddr:  getenv("TELEPATH_METRICS_ADDR"),
		MetricsToken: getenv("TELEPATH_METRICS_TOKEN"),
	}
	c.Auth.Captcha = !falsy(getenv("TELEPATH_CAPTCHA"))
	c.Auth.CaptchaTestAnswer = getenv("TELEPATH_CAPTCHA_TEST_ANSWER")
	var errs []string
	if c.Auth.CaptchaTestAnswer != "" && getenv("TELEPATH_TEST_MODE") != "1" {
		errs = append(errs, "TELEPATH_CAPTCHA_TEST_ANSWER: a fixed captcha answer is for tests only; it needs TELEPATH_TEST_MODE=1")
	}
	var err error
	if c.Proxies, err = httpx.ParseProxies(getenv("TELEPATH_TRUST_PROXY"), getenv("TELEPATH_TRUSTED_PROXIES")); err != nil {
		errs = append(errs, err.Error())
	}
	if c.Zone, err = clock.LoadZone(getenv("TELEPATH_TIMEZONE")); err != nil {
		errs = append(errs, "TELEPATH_TIMEZONE: want a time zone name such as Asia/Shanghai")
	}
	dur := func(name string, dst *time.Duration) {
		if v := getenv(name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				errs = append(errs, name+": want a duration such as 30m")
				return
			}
			*dst = d
		}
	}
	num := func(name string, dst *int) {
		if v := getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				errs = append(errs, name+": want a positive number")
				return
			}
			*dst = n
		}
	}
	dur("TELEPATH_SESSION_IDLE", &c.Auth.IdleTimeout)
	dur("TELEPATH_SESSION_MAX", &c.Auth.MaxSession)
	dur("TELEPATH_LOGIN_LOCK", &c.Auth.LockFor)
	dur("TELEPATH_PDF_STAMP_TIMEOUT", &c.PDFStampTimeout)
	num("TELEPATH_LOGIN_MAX_FAILURES", &c.Auth.MaxFailures)
	num("TELEPATH_LOGIN_RATE", &c.Auth.LoginPerMinute)
	if v := getenv("TELEPATH_LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			errs = append(errs, "TELEPATH_LOG_LEVEL: want debug, info, warn or error")
		}
	}
	if len(errs) > 0 {
		return c, fmt.Errorf("configuration: %s", strings.Join(errs, "; "))
	}
	return c, nil
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func truthy(v string) bool {
	switch strings.ToLower(v) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func falsy(v string) bool {
	switch strings.ToLower(v) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}
