package httpx

import (
	"context"

	"telepath/internal/platform/listquery"
)

// Handler is a typed handler ready to serve a Route. Build one with an
// adapter around a service method: Value (any input), Result (none), ByID,
// WithBody, ByIDWithBody, Action, Do, ActionByID, ListOf, CountsOf, Paged; Raw
// for the few handlers that shape their response themselves (files, streams).
type Handler interface {
	register(a *API, r Route)
}

type typed[I, O any] func(context.Context, *I) (*O, error)

func (h typed[I, O]) register(a *API, r Route) { register(a, r, h) }

// Raw serves h as it is.
func Raw[I, O any](h func(context.Context, *I) (*O, error)) Handler { return typed[I, O](h) }

// Value serves f's result in the data envelope.
func Value[I, T any](f func(context.Context, *I) (T, error)) Handler {
	return typed[I, Data[T]](func(ctx context.Context, in *I) (*Data[T], error) {
		v, err := f(ctx, in)
		if err != nil {
			return nil, err
		}
		return OK(v), nil
	})
}

// Result serves f, which takes no input, in the data envelope.
func Result[T any](f func(context.Context) (T, error)) Handler {
	return Value(func(ctx context.Context, _ *struct{}) (T, error) { return f(ctx) })
}

// BodyIn is the input of a route that takes a JSON body.
type BodyIn[B any] struct {
	Body B
}

// IDBodyIn is the input of a route addressed by an id that takes a JSON body.
type IDBodyIn[B any] struct {
	IDPath
	Body B
}

// WithBody serves f, called with the request body, in the data envelope.
func WithBody[B, T any](f func(context.Context, B) (T, error)) Handler {
	return Value(func(ctx context.Context, in *BodyIn[B]) (T, error) { return f(ctx, in.Body) })
}

// ByIDWithBody serves f, called with the path's id and the request body, in
// the data envelope.
func ByIDWithBody[B, T any](f func(context.Context, int64, B) (T, error)) Handler {
	return Value(func(ctx context.Context, in *IDBodyIn[B]) (T, error) { return f(ctx, in.ID, in.Body) })
}

// ByID serves f, called with the path's id, in the data envelope.
func ByID[T any](f func(context.Context, int64) (T, error)) Handler {
	return Value(func(ctx context.Context, in *IDPath) (T, error) { return f(ctx, in.ID) })
}

// Action serves f, which returns nothing but success.
func Action[I any](f func(context.Context, *I) error) Handler {
	return typed[I, Empty](func(ctx context.Context, in *I) (*Empty, error) {
		if err := f(ctx, in); err != nil {
			return nil, err
		}
		return Done(), nil
	})
}

// Do serves f, which takes no input and returns nothing but success.
func Do(f func(context.Context) error) Handler {
	return Action(func(ctx context.Context, _ *struct{}) error { return f(ctx) })
}

// ActionByID serves f, called with the path's id, which returns nothing but success.
func ActionByID(f func(context.Context, int64) error) Handler {
	return Action(func(ctx context.Context, in *IDPath) error { return f(ctx, in.ID) })
}

// ActionWithBody serves f, called with the request body, which returns
// nothing but success.
func ActionWithBody[B any](f func(context.Context, B) error) Handler {
	return Action(func(ctx context.Context, in *BodyIn[B]) error { return f(ctx, in.Body) })
}

// ActionByIDWithBody serves f, called with the path's id and the request
// body, which returns nothing but success.
func ActionByIDWithBody[B any](f func(context.Context, int64, B) error) Handler {
	return Action(func(ctx context.Context, in *IDBodyIn[B]) error { return f(ctx, in.ID, in.Body) })
}

// Paged serves a page of a list with its pagination.
func Paged[I, T any](f func(context.Context, *I) ([]T, listquery.Pagination, error)) Handler {
	return typed[I, List[T]](func(ctx context.Context, in *I) (*List[T], error) {
		rows, p, err := f(ctx, in)
		if err != nil {
			return nil, err
		}
		return Page(rows, p), nil
	})
}

// ListOf serves a list of the list engine: f gets the parsed request.
func ListOf[T any](f func(context.Context, listquery.Request) ([]T, listquery.Pagination, error)) Handler {
	return Paged(func(ctx context.Context, in *listquery.Input) ([]T, listquery.Pagination, error) {
		return f(ctx, in.Request())
	})
}

// CountsOf serves the tab counts of a list of the list engine.
func CountsOf(f func(context.Context, listquery.Request) (map[string]int64, error)) Handler {
	return Value(func(ctx context.Context, in *listquery.Input) (map[string]int64, error) {
		return f(ctx, in.Request())
	})
}

// Mount registers a domain's route table; tag names the group of the
// routes in the API document where a line does not name its own.
func (a *API) Mount(tag string, table []Route) {
	for _, r := range table {
		if len(r.Tags) == 0 {
			r.Tags = []string{tag}
		}
		r.Handler.register(a, r)
	}
}

// Table returns every route registered, in order: the route tables of all
// domains as the server serves them.
func (a *API) Table() []Route { return a.table }
