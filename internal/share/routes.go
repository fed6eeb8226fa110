package share

import (
	"context"
	"fmt"
	"net/url"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
	"telepath/internal/slideserver"
)

// Routes registers the owner's share calls (spec 2 §7 POST /share, PATCH
// /share/cancel/{id}, spec 1 §2 /share/list) and the visitor's public ones.
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Shares", []httpx.Route{
		{Method: "POST", Path: "/api/share", Roles: access.Sharers, Handler: httpx.WithBody(s.Create), ID: "share-create", Summary: "Share a case by link: public or secret (code), expiry, included parts, de-identification; the token and code are shown once", MaxBody: 4 << 10},
		{Method: "PATCH", Path: "/api/share/cancel/{id}", Roles: access.Sharers, Handler: httpx.ByID(s.Cancel), ID: "share-cancel", Summary: "Cancel a share at once (owner or administrator)"},
		{Method: "GET", Path: "/api/share/list", Roles: access.Sharers, Handler: httpx.ListOf(s.List), ID: "share-list", Summary: "The caller's shares with state, visits and last visit (tabs: all, sharing, permanent, expired, cancelled)"},
		{Method: "GET", Path: "/api/share/count", Roles: access.Sharers, Handler: httpx.CountsOf(s.Count), ID: "share-count", Summary: "Tab counts of the caller's shares"},
		{Method: "POST", Path: "/api/share/open", Public: true, Handler: httpx.WithBody(s.Open), ID: "share-open", Summary: "Open a shared case by its link (and code): what the share includes, with share-signed slide URLs", MaxBody: 4 << 10},
		{Method: "GET", Path: "/api/share/v/{ticket}/report", Public: true, Handler: httpx.Raw(s.report), ID: "share-report", Summary: "The shared case's report as PDF, de-identified and watermarked as the share says"},
		{Method: "GET", Path: "/api/share/v/{ticket}/file/{id}", Public: true, Handler: httpx.Raw(s.file), ID: "share-file", Summary: "An attachment of the shared case"},
		{Method: "GET", Path: "/api/share/v/{ticket}/slides/{id}/annotations", Public: true, Handler: httpx.Value(s.annotations), ID: "share-annotations", Summary: "A shared slide's annotations, read-only, when the share includes them"},
	})
}

type ticketPath struct {
	Ticket string `path:"ticket" maxLength:"64"`
}

func (s *Service) report(ctx context.Context, in *ticketPath) (*huma.StreamResponse, error) {
	pdf, err := s.Report(ctx, in.Ticket)
	if err != nil {
		return nil, err
	}
	return stream(pdf, "application/pdf", "report.pdf", "inline"), nil
}

// Path parameters are named fields: huma does not read them from an embedded struct.
func (s *Service) file(ctx context.Context, in *struct {
	Ticket string `path:"ticket" maxLength:"64"`
	ID     int64  `path:"id"`
}) (*huma.StreamResponse, error) {
	b, _, name, err := s.Attachment(ctx, in.Ticket, in.ID)
	if err != nil {
		return nil, err
	}
	// Always downloaded: a visitor's browser never renders it as a page of this site.
	return stream(b, "application/octet-stream", name, "attachment"), nil
}

func (s *Service) annotations(ctx context.Context, in *struct {
	Ticket string `path:"ticket" maxLength:"64"`
	ID     int64  `path:"id"`
}) ([]slideserver.AnnotationSet, error) {
	return s.Annotations(ctx, in.Ticket, in.ID)
}

func stream(b []byte, ct, name, disposition string) *huma.StreamResponse {
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", ct)
		hc.SetHeader("Content-Disposition", fmt.Sprintf("%s; filename*=UTF-8''%s", disposition, url.PathEscape(name)))
		hc.SetHeader("Cache-Control", "private, no-store")
		hc.SetHeader("X-Content-Type-Options", "nosniff")
		hc.SetHeader("Content-Security-Policy", "sandbox")
		hc.BodyWriter().Write(b) //nolint:errcheck
	}}
}
