package listquery

import (
	"encoding/json"
	"net/url"
	"reflect"
	"testing"
)

func TestFromURL(t *testing.T) {
	tests := []struct {
		name, query string
		want        Request
	}{
		{"JSONText", `page=2&page_size=50&sort_by={"a":"desc","b":"asc"}&search=x&params={"n":1}&constraints=[]`,
			Request{Page: "2", PageSize: "50", SortBy: `{"a":"desc","b":"asc"}`, Search: "x", Params: `{"n":1}`, Constraints: "[]"}},
		{"Empty", ``, Request{}},
		{"BracketParams", `params[status]=1&params[ids][0]=3&params[ids][1]=4&params[at][]=2026-01-01&params[at][]=2026-01-02`,
			Request{Params: `{"at":["2026-01-01","2026-01-02"],"ids":["3","4"],"status":"1"}`}},
		{"BracketIndicesInOrder", `params[ids][10]=b&params[ids][2]=a`, Request{Params: `{"ids":["a","b"]}`}},
		{"BracketConstraints", `constraints[constraints][0][condition]=and&constraints[constraints][0][constraint][0][column]=n&constraints[constraints][0][constraint][0][operator]=in&constraints[constraints][0][constraint][0][value][0]=1`,
			Request{Constraints: `{"constraints":[{"condition":"and","constraint":[{"column":"n","operator":"in","value":["1"]}]}]}`}},
		{"PlainWinsOverBrackets", `params={"n":1}&params[n]=2`, Request{Params: `{"n":1}`}},
		{"MalformedBracketsIgnored", `params[a=1&params[b]x=2&params[c]=3`, Request{Params: `{"c":"3"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := url.ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if got := FromURL(v); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
	t.Run("BracketFormParses", func(t *testing.T) {
		v, _ := url.ParseQuery(`params[n][0]=1&params[n][1]=2&params[at][0]=2026-01-01&params[at][1]=`)
		s, args := where(t, FromURL(v))
		if s != "((i.at >= ?) AND i.n IN (?,?))" || len(args) != 3 {
			t.Errorf("got %s %v", s, args)
		}
	})
}

func TestInputAndBody(t *testing.T) {
	in := Input{Page: 2, SortBy: `{"a":"asc"}`, Params: `{"n":1}`}
	if got, want := in.Request(), (Request{Page: "2", SortBy: `{"a":"asc"}`, Params: `{"n":1}`}); !reflect.DeepEqual(got, want) {
		t.Errorf("input: %+v", got)
	}
	for name, body := range map[string]string{
		"Objects": `{"page":3,"page_size":100,"sort_by":{"n":"desc"},"params":{"n":[1,2]},"constraints":{"constraints":[]},"search":"s"}`,
		"Strings": `{"page":3,"page_size":100,"sort_by":"{\"n\":\"desc\"}","params":"{\"n\":[1,2]}","constraints":"{\"constraints\":[]}","search":"s"}`,
	} {
		t.Run(name, func(t *testing.T) {
			var b Body
			if err := json.Unmarshal([]byte(body), &b); err != nil {
				t.Fatal(err)
			}
			q, s, args := parse(t, b.Request())
			if q.Page != 3 || q.PageSize != 100 || q.OrderBy[0] != "i.n DESC" || len(args) != 4 {
				t.Errorf("got %+v %s %v", q, s, args)
			}
		})
	}
	var empty Body
	if got := empty.Request(); got != (Request{}) {
		t.Errorf("empty body: %+v", got)
	}
}
