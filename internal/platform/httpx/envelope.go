package httpx

import (
	"encoding/json"

	"telepath/internal/platform/listquery"
)

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// Data is the {"data": …} envelope of a single result.
type Data[T any] struct {
	Body struct {
		Data T `json:"data"`
	}
}

// OK wraps v in the data envelope.
func OK[T any](v T) *Data[T] {
	out := &Data[T]{}
	out.Body.Data = v
	return out
}

// Meta holds the pagination of a list.
type Meta struct {
	Pagination listquery.Pagination `json:"pagination"`
}

// List is the envelope of a page of a list.
type List[T any] struct {
	Body struct {
		Data []T  `json:"data"`
		Meta Meta `json:"meta"`
	}
}

// Page wraps rows and their pagination.
func Page[T any](rows []T, p listquery.Pagination) *List[T] {
	out := &List[T]{}
	if rows == nil {
		rows = []T{}
	}
	out.Body.Data = rows
	out.Body.Meta.Pagination = p
	return out
}

// Empty is the response of an action that returns nothing but success.
type Empty struct {
	Body struct {
		Data struct {
			OK bool `json:"ok"`
		} `json:"data"`
	}
}

// Done returns the success envelope of an action.
func Done() *Empty {
	out := &Empty{}
	out.Body.Data.OK = true
	return out
}

// IDPath is the input of routes addressed by a numeric id.
type IDPath struct {
	ID int64 `path:"id" minimum:"1" doc:"Record id"`
}

// PathID is the id, for the audit record of a read.
func (p IDPath) PathID() int64 { return p.ID }
