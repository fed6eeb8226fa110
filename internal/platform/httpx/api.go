// Package httpx is the HTTP layer shared by every domain: the huma API with
// its OpenAPI document, route declarations with the roles allowed to call
// them, authentication, localized errors and the response envelopes.
package httpx

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apidocs"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/i18n"
)

// Authenticator resolves a bearer token to a principal. It returns an
// apperr Unauthorized error when the token is unknown or the session ended.
type Authenticator interface {
	Authenticate(ctx context.Context, token string, meta access.Meta) (*access.Principal, error)
}

// DenialRecorder records refused calls in the audit log.
type DenialRecorder interface {
	RecordDenied(ctx context.Context, p *access.Principal, method, path string, status int)
}

// API is the application's typed API and its dependencies.
type API struct {
	huma.API
	auth   Authenticator
	denied DenialRecorder
	reads  ReadRecorder
	table  []Route
	zone   *time.Location
	clock  clock.Clock
}

// UseZone sets the operator's time zone, which every request carries (see
// clock.ZoneFrom); set it before serving.
func (a *API) UseZone(l *time.Location) { a.zone = l }

// UseClock sets the clock every request carries (see clock.From) and its
// time zone; set it before serving.
func (a *API) UseClock(c clock.Clock) { a.clock, a.zone = c, c.Zone() }

// NewAPI creates the API on mux under /api.
func NewAPI(mux *http.ServeMux, auth Authenticator, denied DenialRecorder) *API {
	huma.NewErrorWithContext = humaError
	cfg := huma.DefaultConfig("Telepath API", "1.0.0")
	cfg.Info.Description = "Remote pathology consultation. Send `Authorization: Bearer <token>` and `user-language: zh-CN|en-US`."
	cfg.OpenAPIPath = "/api/openapi"
	cfg.DocsPath = "" // served from the binary below, not from a CDN
	cfg.SchemasPath = "/api/schemas"
	cfg.CreateHooks = nil // no $schema links in responses
	cfg.Formats = map[string]huma.Format{"application/json": jsonFormat, "json": jsonFormat}
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"bearer": {Type: "http", Scheme: "bearer"},
	}
	a := &API{API: humago.New(mux, cfg), auth: auth, denied: denied}
	apidocs.Mount(mux, "/api/docs", "/api/openapi.yaml", cfg.Info.Title+" Reference")
	a.UseMiddleware(a.authenticate)
	return a
}

const (
	rolesKey = "roles"
	allowKey = "allow"
	readMeta = "read"
)

// Route declares one endpoint, one line of a domain's route table. Roles
// lists who may call it (a group of package access; access.Any for every
// signed-in user); Public marks the few endpoints open to visitors. A route
// with neither is refused to everyone: deny by default.
type Route struct {
	Method, Path string
	Roles        []string
	Handler      Handler // an adapter around the service method that serves the route
	ID, Summary  string
	Tags         []string
	Public       bool
	MaxBody      int64
	Status       int
	// Allow lists the restricted sessions (screen locked, password to
	// change) this route still answers; most routes answer none.
	Allow access.Restriction
	// Read marks a route that reads patient data (audited per call).
	Read *Read
}

// register adds a typed handler for r; domains declare routes in tables (API.Mount).
func register[I, O any](a *API, r Route, h func(context.Context, *I) (*O, error)) {
	op := huma.Operation{
		OperationID:   r.ID,
		Method:        r.Method,
		Path:          r.Path,
		Summary:       r.Summary,
		Tags:          r.Tags,
		MaxBodyBytes:  r.MaxBody,
		DefaultStatus: r.Status,
		Metadata:      map[string]any{allowKey: r.Allow},
	}
	if r.Public {
		op.Metadata[rolesKey] = []string{"public"}
	} else if len(r.Roles) > 0 {
		op.Metadata[rolesKey] = r.Roles
		op.Security = []map[string][]string{{"bearer": {}}}
		op.Description = "Roles: " + strings.Join(r.Roles, ", ")
	}
	if r.Read != nil {
		op.Metadata[readMeta] = r.Read
	}
	a.table = append(a.table, r)
	huma.Register(a.API, op, func(ctx context.Context, in *I) (*O, error) {
		var read *ReadEvent
		if r.Read != nil && a.reads != nil {
			read = startRead(r.Read, in)
			ctx = access.WithRead(ctx, read)
		}
		err := checkForm(ctx, in)
		var out *O
		if err == nil {
			out, err = h(ctx, in)
		}
		if read != nil {
			read.Err = err
			a.reads.RecordRead(ctx, *read)
		}
		if err != nil {
			// Refusals decided by a service are audited like the route's own
			// (a read's refusal already is, in its read record).
			if apperr.CodeOf(err) == apperr.Forbidden && a.denied != nil && read == nil {
				a.denied.RecordDenied(ctx, access.FromContext(ctx), r.Method, r.Path, http.StatusForbidden)
			}
			return nil, Localize(ctx, langFrom(ctx), err)
		}
		return out, nil
	})
}

// ReadOf returns the read of patient data an operation declares, or nil.
func ReadOf(op *huma.Operation) *Read {
	r, _ := op.Metadata[readMeta].(*Read)
	return r
}

// RolesOf returns the roles declared for an operation, nil when undeclared.
func RolesOf(op *huma.Operation) []string {
	r, _ := op.Metadata[rolesKey].([]string)
	return r
}

func (a *API) authenticate(ctx huma.Context, next func(huma.Context)) {
	lang := i18n.Parse(ctx.Header("user-language"))
	meta := metaOf(ctx)
	ctx = huma.WithContext(ctx, i18n.WithLang(ctx.Context(), lang))
	ctx = huma.WithContext(ctx, clock.With(clock.WithZone(access.WithMeta(ctx.Context(), meta), a.zone), a.clock))
	roles := RolesOf(ctx.Operation())
	if len(roles) == 1 && roles[0] == "public" {
		next(ctx)
		return
	}
	fail := func(p *access.Principal, status int, key string) {
		if r := ReadOf(ctx.Operation()); r != nil && p != nil && a.reads != nil {
			// A read refused to the caller's role is a read record too, so
			// that the case's history shows the attempt.
			a.reads.RecordRead(access.WithPrincipal(ctx.Context(), p), refusedRead(r, ctx.Param("id")))
		} else if a.denied != nil {
			a.denied.RecordDenied(ctx.Context(), p, ctx.Method(), ctx.URL().Path, status)
		}
		huma.WriteErr(a.API, ctx, status, "") //nolint:errcheck
		_ = key
	}
	token := bearer(ctx.Header("Authorization"))
	if token == "" {
		fail(nil, http.StatusUnauthorized, "")
		return
	}
	allow, _ := ctx.Operation().Metadata[allowKey].(access.Restriction)
	p, err := a.auth.Authenticate(access.WithAllowed(ctx.Context(), allow), token, meta)
	if err != nil {
		if apperr.CodeOf(err) != apperr.Unauthorized {
			writeErr(ctx, Localize(ctx.Context(), lang, err))
			return
		}
		fail(nil, http.StatusUnauthorized, "")
		return
	}
	if !p.HasAny(roles) {
		fail(p, http.StatusForbidden, "")
		return
	}
	next(huma.WithContext(ctx, access.WithPrincipal(ctx.Context(), p)))
}

func bearer(h string) string {
	if len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

func langFrom(ctx context.Context) i18n.Lang { return i18n.From(ctx) }

// Lang returns the language of the request ctx belongs to (i18n.From).
func Lang(ctx context.Context) i18n.Lang { return i18n.From(ctx) }
