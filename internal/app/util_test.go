package app_test

import (
	"encoding/json"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
)

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

func operations(item *huma.PathItem) map[string]*huma.Operation {
	out := map[string]*huma.Operation{}
	for m, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put, "PATCH": item.Patch, "DELETE": item.Delete} {
		if op != nil {
			out[m] = op
		}
	}
	return out
}

func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
