package borrow

import (
	"context"
	"fmt"
	"net/url"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers /borrow/manage's calls (spec 1 §2): loans of glass
// slides and blocks, and the archive of the center.
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Borrow and archive", []httpx.Route{
		{Method: "POST", Path: "/api/borrow", Roles: access.BorrowReaders, Handler: httpx.WithBody(s.Request), ID: "borrow-request", Summary: "Ask to borrow a case's slides and blocks (who, type, purpose, due date): checking", MaxBody: 8 << 10},
		{Method: "GET", Path: "/api/borrow/lists", Roles: access.BorrowReaders, Handler: httpx.ListOf(s.Loans), ID: "borrow-list", Summary: "Loans the caller sees (tabs: all, checking, passed, not_passed, borrowing, overdue, returned)"},
		{Method: "GET", Path: "/api/borrow/count", Roles: access.BorrowReaders, Handler: httpx.CountsOf(s.CountLoans), ID: "borrow-count", Summary: "Tab counts of the loans"},
		{Method: "GET", Path: "/api/borrow/{id}", Roles: access.BorrowReaders, Handler: httpx.ByID(s.Loan), ID: "borrow-get", Summary: "Get a loan with the caller's actions"},
		{Method: "GET", Path: "/api/borrow/{id}/slip", Roles: access.BorrowReaders, Handler: httpx.Raw(s.slip), ID: "borrow-slip", Summary: "The loan slip as PDF, to print and sign"},
		{Method: "POST", Path: "/api/borrow/{id}/approve", Roles: access.BorrowKeepers, Handler: httpx.ByID(s.Approve), ID: "borrow-approve", Summary: "Pass a request (checking → passed)"},
		{Method: "POST", Path: "/api/borrow/{id}/reject", Roles: access.BorrowKeepers, Handler: httpx.ByIDWithBody(s.Reject), ID: "borrow-reject", Summary: "Refuse a request with a reason (checking → not passed)", MaxBody: 4 << 10},
		{Method: "POST", Path: "/api/borrow/{id}/lend", Roles: access.BorrowKeepers, Handler: httpx.ByIDWithBody(s.Lend), ID: "borrow-lend", Summary: "Hand the material out with a deposit (passed → borrowing)", MaxBody: 4 << 10},
		{Method: "POST", Path: "/api/borrow/{id}/extend", Roles: access.BorrowKeepers, Handler: httpx.ByIDWithBody(s.Extend), ID: "borrow-extend", Summary: "Change the due date of a loan that is checking, passed or lent out (today or later), with a reason", MaxBody: 4 << 10},
		{Method: "POST", Path: "/api/borrow/{id}/return", Roles: access.BorrowKeepers, Handler: httpx.ByIDWithBody(s.Return), ID: "borrow-return", Summary: "Take the material back, with any damage (borrowing → returned)", MaxBody: 4 << 10},
		{Method: "GET", Path: "/api/archive/lists", Roles: access.BorrowKeepers, Handler: httpx.ListOf(s.Archives), ID: "archive-list", Summary: "The center's cases with their archive state and storage location (tabs: all, to_receive, not_archived, archived)"},
		{Method: "GET", Path: "/api/archive/count", Roles: access.BorrowKeepers, Handler: httpx.CountsOf(s.CountArchives), ID: "archive-count", Summary: "Tab counts of the archive"},
		{Method: "GET", Path: "/api/archive/{id}", Roles: access.BorrowKeepers, Handler: httpx.ByID(s.ArchiveOf), ID: "archive-get", Summary: "A case's archive record (id is the case's)"},
		{Method: "POST", Path: "/api/archive/{id}/receive", Roles: access.BorrowKeepers, Handler: httpx.ByIDWithBody(s.Receive), ID: "archive-receive", Summary: "Record that the case's material was received (not archived)", MaxBody: 4 << 10},
		{Method: "POST", Path: "/api/archive/{id}/store", Roles: access.BorrowKeepers, Handler: httpx.ByIDWithBody(s.Store), ID: "archive-store", Summary: "Store the material at a room, box and locker (archived: the case shows Filed)", MaxBody: 4 << 10},
		{Method: "POST", Path: "/api/archive/{id}/undo", Roles: access.BorrowKeepers, Handler: httpx.ByIDWithBody(s.Undo), ID: "archive-undo", Summary: "Undo archive: take the material out of storage, with a reason", MaxBody: 4 << 10},
		{Method: "POST", Path: "/api/archive/{id}/rearchive", Roles: access.BorrowKeepers, Handler: httpx.ByIDWithBody(s.Rearchive), ID: "archive-rearchive", Summary: "Re-archive material taken out", MaxBody: 4 << 10},
	})
}

func (s *Service) slip(ctx context.Context, in *struct {
	ID int64 `path:"id"`
}) (*huma.StreamResponse, error) {
	pdf, l, err := s.Slip(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	name := l.BorrowNo + ".pdf"
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", "application/pdf")
		hc.SetHeader("Content-Disposition", fmt.Sprintf("inline; filename*=UTF-8''%s", url.PathEscape(name)))
		hc.SetHeader("Cache-Control", "private, no-store")
		hc.BodyWriter().Write(pdf) //nolint:errcheck
	}}, nil
}
