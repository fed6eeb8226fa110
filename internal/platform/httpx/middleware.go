package httpx

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"telepath/internal/platform/access"
)

var (
	requests = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "telepath_http_requests_total", Help: "HTTP requests by route pattern and status class.",
	}, []string{"route", "code"})
	latency = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name: "telepath_http_request_seconds", Help: "HTTP request latency by route pattern.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10},
	}, []string{"route"})
)

func metaOf(ctx huma.Context) access.Meta {
	if m := access.MetaFrom(ctx.Context()); m.IP != "" {
		return m
	}
	return access.Meta{IP: hostOf(ctx.RemoteAddr()), UserAgent: ctx.Header("User-Agent"), RequestID: ctx.Header("X-Request-Id")}
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
	w.ResponseWriter.WriteHeader(s)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Flush lets server-sent events through the wrapper.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Edge is the operator's policy for what arrives at the door.
type Edge struct {
	Proxies Proxies
}

// Wrap adds request ids, the caller's address, recovery, security headers,
// access logs and metrics around every request. Logs never contain query
// strings or bodies: they may hold tokens and patient data.
func Wrap(next http.Handler, log *slog.Logger, edge Edge) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 64 || strings.Trim(id, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_.:") != "" {
			b := make([]byte, 8)
			rand.Read(b)
			id = hex.EncodeToString(b)
			r.Header.Set("X-Request-Id", id)
		}
		ip, viaProxy := edge.Proxies.client(r)
		if !viaProxy {
			for _, name := range forwarded {
				r.Header.Del(name)
			}
		}
		// The user agent is stored with sessions and audit records: as valid text.
		ua := strings.ToValidUTF8(r.UserAgent(), "\uFFFD")
		r = r.WithContext(access.WithMeta(r.Context(), access.Meta{IP: ip, UserAgent: ua, RequestID: id}))
		h := w.Header()
		h.Set("X-Request-Id", id)
		securityHeaders(h, r.URL.Path)
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				log.Error("panic", "request_id", id, "panic", v, "stack", string(debug.Stack()))
				if sw.status == 0 {
					http.Error(sw, `{"message":"internal error"}`, http.StatusInternalServerError)
				}
			}
			route := r.Pattern
			if route == "" {
				route = "other"
			}
			d := time.Since(start)
			requests.WithLabelValues(route, strconv.Itoa(sw.status/100)+"xx").Inc()
			latency.WithLabelValues(route).Observe(d.Seconds())
			if sw.status >= 500 || d > time.Second {
				log.Warn("request", "request_id", id, "method", r.Method, "route", route, "status", sw.status, "ms", d.Milliseconds())
			} else {
				log.Debug("request", "request_id", id, "method", r.Method, "route", route, "status", sw.status, "ms", d.Milliseconds())
			}
		}()
		if badRequestText(r) {
			writeBadText(sw, r)
			return
		}
		next.ServeHTTP(sw, r)
	})
}

func writeErr(ctx huma.Context, e *Error) {
	ctx.SetHeader("Content-Type", "application/json")
	ctx.SetStatus(e.status)
	b, _ := jsonMarshal(e)
	ctx.BodyWriter().Write(b) //nolint:errcheck
}
