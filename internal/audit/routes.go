package audit

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/i18n"
)

// Routes registers the read-only operation log (admin only).
func (l *Log) Routes(api *httpx.API) {
	api.Mount("Audit", []httpx.Route{
		{Method: "GET", Path: "/api/log/operation", Roles: access.Admins, Handler: httpx.ListOf(l.List), ID: "audit-list", Summary: "Operation log"},
		{Method: "GET", Path: "/api/log/operation/count", Roles: access.Admins, Handler: httpx.CountsOf(l.Count), ID: "audit-count", Summary: "Operation log tab counts"},
		{Method: "GET", Path: "/api/audit/verify", Roles: access.Admins, Handler: httpx.Result(l.verify), ID: "audit-verify", Summary: "Check the operation log's hash chain: whether any record was changed or removed, and the first that was"},
	})
}

// verify checks the hash chain and words its finding in the caller's language.
func (l *Log) verify(ctx context.Context) (*Report, error) {
	rep, err := Verify(ctx, l.DB)
	if err != nil {
		return nil, err
	}
	rep.Localize(i18n.From(ctx))
	return rep, nil
}
