package library

import (
	"context"
	"net/http"

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
	tags := []string{"Libraries"}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/config/library", ID: "library-list", Summary: "List pathology libraries (tree=1: nested)", Tags: tags, Roles: access.Any},
		func(ctx context.Context, in *ListInput) (*httpx.List[Library], error) {
			if in.Tree {
				tree, err := s.Tree(ctx, in.Request())
				if err != nil {
					return nil, err
				}
				n := int64(len(tree))
				return httpx.Page(tree, listquery.Pagination{Total: n, CurrentPage: 1, PerPage: max(len(tree), 1), TotalPage: 1}), nil
			}
			rows, page, err := s.List(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/config/library/count", ID: "library-count", Summary: "Library tab counts (all, enabled, disabled)", Tags: tags, Roles: access.Any},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			c, err := s.Count(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/config/library/{id}", ID: "library-get", Summary: "Get a pathology library", Tags: tags, Roles: access.Any},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[*Library], error) {
			l, err := s.Get(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/config/library/{id}/next_number", ID: "library-next-number", Summary: "Suggest the next free pathology number of a library", Tags: tags, Roles: access.Any},
		func(ctx context.Context, in *NextNumberInput) (*httpx.Data[NextNumberOutput], error) {
			n, err := s.NextNumber(ctx, in.ID, in.Middle)
			if err != nil {
				return nil, err
			}
			return httpx.OK(NextNumberOutput{Number: n}), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/config/library", ID: "library-create", Summary: "Create a pathology library or sub-library", Tags: tags, Roles: access.Admins, MaxBody: 16 << 10},
		func(ctx context.Context, in *struct{ Body LibraryInput }) (*httpx.Data[*Library], error) {
			l, err := s.Create(ctx, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/config/library/{id}", ID: "library-update", Summary: "Update a pathology library", Tags: tags, Roles: access.Admins, MaxBody: 16 << 10},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body LibraryInput
		}) (*httpx.Data[*Library], error) {
			l, err := s.Update(ctx, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/config/library/{id}", ID: "library-delete", Summary: "Delete a pathology library without sub-libraries", Tags: tags, Roles: access.Admins},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.Delete(ctx, in.ID)
		})
}
