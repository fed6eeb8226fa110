package httpx

import (
	"context"

	"telepath/internal/platform/listquery"
)

// Handler is a typed handler ready to serve a Route. Build one with an
// adapter: Value, ByID, Action, ActionByID, Paged, or Raw for the few
// handlers that shape their response themselves (files, streams).
type Handler interface {
	register(a *API, r Route)
}

type typed[I, O any] func(context.Context, *I) (*O, error)

func (h typed[I, O]) register(a *API, r Route) { Register(a, r, h) }

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

// ActionByID serves f, called with the path's id, which returns nothing but success.
func ActionByID(f func(context.Context, int64) error) Handler {
	return Action(func(ctx context.Context, in *IDPath) error { return f(ctx, in.ID) })
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
