package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"telepath/internal/app"
)

// Every page of the case and user lists, past the first read by key (the
// list engine's deferred join), is byte for byte the same slice of the
// whole list read as one page: sorts with NULLs and ties, tabs, filters and
// searches, on both databases. A page off by one row fails.
func TestListPagesMatchWholeList(t *testing.T) {
	eachDB(t, func(c *app.Config) { c.DemoCases = true }, func(t *testing.T, e *env) {
		admin, site := e.login("admin"), e.login("site")
		type list struct {
			path, token string
			q           url.Values
		}
		cases := func(token, sort, params, search string) list {
			q := url.Values{"sort_by": {sort}, "params": {params}}
			if search != "" {
				q.Set("search", search)
			}
			return list{"/api/consultation/list", token, q}
		}
		lists := []list{
			cases(admin, "", `{"tab":"all"}`, ""),
			cases(admin, `{"age":"asc"}`, `{"tab":"all"}`, ""),             // nullable, ties
			cases(admin, `{"submitted_at":"desc"}`, `{"tab":"all"}`, ""),   // nullable, NULLs last
			cases(admin, `{"timeout_at":"asc"}`, `{"tab":"all"}`, ""),      // mostly NULL
			cases(admin, `{"status":"asc","patient_name":"desc"}`, "", ""), // ties within ties
			cases(admin, `{"patient_name":"asc"}`, `{"tab":"submitted"}`, ""),
			cases(admin, `{"slide_count":"desc"}`, `{"status":[0,1,2]}`, ""),
			cases(site, `{"inspection_date":"asc"}`, `{"tab":"all"}`, ""),
			cases(admin, `{"consult_no":"asc"}`, "", "王芳"),
			{"/api/user", admin, url.Values{"sort_by": {`{"name":"asc"}`}, "params": {`{"tab":"all"}`}}},
			{"/api/user", admin, url.Values{"sort_by": {`{"last_login_at":"asc"}`}}},
			{"/api/user", admin, url.Values{"sort_by": {`{"status":"desc"}`}, "search": {"a"}}},
		}
		page := func(l list, page, size int) ([]json.RawMessage, int64) {
			t.Helper()
			q := url.Values{}
			for k, v := range l.q {
				q[k] = v
			}
			q.Set("page", fmt.Sprint(page))
			q.Set("page_size", fmt.Sprint(size))
			var out struct {
				Data []json.RawMessage `json:"data"`
				Meta struct {
					Pagination struct {
						Total int64 `json:"total"`
					} `json:"pagination"`
				} `json:"meta"`
			}
			e.decode(e.expect(e.do("GET", l.path+"?"+q.Encode(), l.token, nil), 200), &out)
			return out.Data, out.Meta.Pagination.Total
		}
		for _, l := range lists {
			t.Run(l.path+"?"+l.q.Encode(), func(t *testing.T) {
				whole, total := page(l, 1, 1000)
				if len(whole) < 2 || int64(len(whole)) != total {
					t.Fatalf("%d rows of %d: too few to page through", len(whole), total)
				}
				for _, size := range []int{1, 3} {
					for p := 1; (p-1)*size <= len(whole); p++ {
						got, n := page(l, p, size)
						want := whole[min((p-1)*size, len(whole)):min(p*size, len(whole))]
						if n != total || !sameRows(got, want) {
							t.Fatalf("page %d of size %d (total %d of %d):\ngot  %s\nwant %s", p, size, n, total, got, want)
						}
					}
				}
			})
		}
	})
}

func sameRows(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
