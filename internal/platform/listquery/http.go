package listquery

import (
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/clock"
)

// Input holds the list parameters of a GET request; embed it in a huma
// input struct. Its errors come from Parse, in the list.* catalogue.
type Input struct {
	Page        int    `query:"page" doc:"Page number, from 1 (default 1)"`
	PageSize    int    `query:"page_size" doc:"Rows per page, 1 to 10000 (default 20)"`
	SortBy      string `query:"sort_by" doc:"JSON object of column to asc or desc, in priority order, e.g. {\"created_at\":\"desc\"}"`
	Search      string `query:"search" doc:"Free text matched against the searchable columns"`
	Params      string `query:"params" doc:"JSON object of column to value: a value is =, an array is in (a two-element array on a time column is a range); empty values are ignored"`
	Constraints string `query:"constraints" doc:"JSON {\"constraints\":[{\"condition\":\"and|or|except\",\"constraint\":[{\"condition\",\"operator\",\"column\",\"value\",\"child\"}]}]}"`

	zone *time.Location
}

// Resolve takes the operator's time zone from the request (huma calls it
// after reading the parameters).
func (in *Input) Resolve(ctx huma.Context) []error {
	in.zone = clock.ZoneFrom(ctx.Context())
	return nil
}

// Request returns the raw request of the input.
func (in Input) Request() Request {
	return Request{Page: itoa(in.Page), PageSize: itoa(in.PageSize), SortBy: in.SortBy,
		Search: in.Search, Params: in.Params, Constraints: in.Constraints, Location: in.zone}
}

// Body holds the list parameters of a POST request body; sort_by, params
// and constraints may be JSON values or JSON text in a string.
type Body struct {
	Page        int             `json:"page,omitempty" doc:"Page number, from 1 (default 1)"`
	PageSize    int             `json:"page_size,omitempty" doc:"Rows per page, 1 to 10000 (default 20)"`
	SortBy      json.RawMessage `json:"sort_by,omitempty" doc:"Object of column to asc or desc, in priority order"`
	Search      string          `json:"search,omitempty" doc:"Free text matched against the searchable columns"`
	Params      json.RawMessage `json:"params,omitempty" doc:"Object of column to value (see the GET form)"`
	Constraints json.RawMessage `json:"constraints,omitempty" doc:"{\"constraints\":[…]} or the array of groups"`
}

// Request returns the raw request of the body.
func (b Body) Request() Request {
	return Request{Page: itoa(b.Page), PageSize: itoa(b.PageSize), SortBy: text(b.SortBy),
		Search: b.Search, Params: text(b.Params), Constraints: text(b.Constraints)}
}

// text unwraps a JSON string holding JSON text; other values pass as they are.
func text(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// FromURL reads the list parameters from a query string. params, sort_by
// and constraints are JSON text; params may also come in the bracket form
// params[status]=1&params[ids][0]=1&params[ids][1]=2 (values stay strings,
// which typed columns accept). A bracket-form sort_by loses its key order,
// so columns are then sorted by name.
func FromURL(v url.Values) Request {
	return Request{
		Page:        v.Get("page"),
		PageSize:    v.Get("page_size"),
		SortBy:      field(v, "sort_by"),
		Search:      v.Get("search"),
		Params:      field(v, "params"),
		Constraints: field(v, "constraints"),
	}
}

// field returns the JSON text of name, building it from bracket keys when
// the plain key is absent.
func field(v url.Values, name string) string {
	if s, ok := v[name]; ok && len(s) > 0 {
		return s[0]
	}
	var root map[string]any
	keys := make([]string, 0)
	for k := range v {
		if strings.HasPrefix(k, name+"[") {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	sort.Strings(keys)
	root = map[string]any{}
	for _, k := range keys {
		path, ok := brackets(k[len(name):])
		if !ok || len(path) > MaxDepth*3 {
			continue
		}
		for _, val := range v[k] {
			put(root, path, val)
		}
	}
	b, err := json.Marshal(arrays(root))
	if err != nil {
		return ""
	}
	return string(b)
}

// brackets splits "[a][0][]" into {"a","0",""}.
func brackets(s string) ([]string, bool) {
	var path []string
	for s != "" {
		if s[0] != '[' {
			return nil, false
		}
		i := strings.IndexByte(s, ']')
		if i < 0 {
			return nil, false
		}
		path = append(path, s[1:i])
		s = s[i+1:]
	}
	return path, len(path) > 0
}

// put stores val at path; an empty segment appends at the next index.
func put(m map[string]any, path []string, val string) {
	for i, seg := range path {
		if seg == "" {
			seg = strconv.Itoa(len(m))
		}
		if i == len(path)-1 {
			m[seg] = val
			return
		}
		next, ok := m[seg].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[seg] = next
		}
		m = next
	}
}

// arrays turns maps whose keys are all indices into arrays, in index order.
func arrays(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	idx := make([]int, 0, len(m))
	for k, e := range m {
		m[k] = arrays(e)
		if n, err := strconv.Atoi(k); err == nil && n >= 0 && strconv.Itoa(n) == k {
			idx = append(idx, n)
		}
	}
	if len(idx) == 0 || len(idx) != len(m) {
		return m
	}
	sort.Ints(idx)
	out := make([]any, len(idx))
	for i, n := range idx {
		out[i] = m[strconv.Itoa(n)]
	}
	return out
}
