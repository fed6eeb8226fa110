package library

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/listquery"
)

// ListInput is the library list request; tree=1 returns every matching
// library nested under its parent (for selects) instead of a page.
type ListInput struct {
	listquery.Input
	Tree bool `query:"tree" doc:"1: all matching libraries as a tree with children, paging ignored"`
}

// NextNumberInput asks for the next pathology number of a library.
type NextNumberInput struct {
	httpx.IDPath
	Middle string `query:"middle" maxLength:"10" doc:"Middle digits, e.g. the year; default today's"`
}

// NextNumberOutput is a suggested pathology number.
type NextNumberOutput struct {
	Number string `json:"number" doc:"Suggested number; not reserved"`
}

// Routes registers the library endpoints (spec 2 §7 config/library).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Libraries", []httpx.Route{
		{Method: "GET", Path: "/api/config/library", Roles: access.Any, Handler: httpx.Paged(s.list), ID: "library-list", Summary: "List pathology libraries (tree=1: nested)"},
		{Method: "GET", Path: "/api/config/library/count", Roles: access.Any, Handler: httpx.CountsOf(s.Count), ID: "library-count", Summary: "Library tab counts (all, enabled, disabled)"},
		{Method: "GET", Path: "/api/config/library/{id}", Roles: access.Any, Handler: httpx.ByID(s.Get), ID: "library-get", Summary: "Get a pathology library"},
		{Method: "GET", Path: "/api/config/library/{id}/next_number", Roles: access.Any, Handler: httpx.Value(s.nextNumber), ID: "library-next-number", Summary: "Suggest the next free pathology number of a library"},
		{Method: "POST", Path: "/api/config/library", Roles: access.Admins, Handler: httpx.WithBody(s.Create), ID: "library-create", Summary: "Create a pathology library or sub-library", MaxBody: 16 << 10},
		{Method: "POST", Path: "/api/config/library/{id}", Roles: access.Admins, Handler: httpx.ByIDWithBody(s.Update), ID: "library-update", Summary: "Update a pathology library", MaxBody: 16 << 10},
		{Method: "DELETE", Path: "/api/config/library/{id}", Roles: access.Admins, Handler: httpx.ActionByID(s.Delete), ID: "library-delete", Summary: "Delete a pathology library without sub-libraries"},
	})
}

// list returns a page of libraries or, with tree=1, every matching one nested.
func (s *Service) list(ctx context.Context, in *ListInput) ([]Library, listquery.Pagination, error) {
	if !in.Tree {
		return s.List(ctx, in.Request())
	}
	tree, err := s.Tree(ctx, in.Request())
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	return tree, listquery.Pagination{Total: int64(len(tree)), CurrentPage: 1, PerPage: max(len(tree), 1), TotalPage: 1}, nil
}

func (s *Service) nextNumber(ctx context.Context, in *NextNumberInput) (NextNumberOutput, error) {
	n, err := s.NextNumber(ctx, in.ID, in.Middle)
	return NextNumberOutput{Number: n}, err
}
