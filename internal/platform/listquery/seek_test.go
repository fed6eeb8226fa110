package listquery

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// TestPagesByKey checks that every page after the first, and a searched
// first page (KeysFirst), read by key (applyPage), holds exactly the rows of the plain LIMIT/OFFSET query and
// of the same slice of the whole list, for sorts with ties and NULLs,
// filters and searches, on both dialects; a seek off by one row fails.
func TestPagesByKey(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		setup(t, d)
		cols := []string{"i.id", "i.name", "i.n", "i.score", "i.flag", "i.kind", "i.at"}
		// The scope has its own bound values and the rows an inner join the
		// count does without, as the services' lists do, so that
		// placeholders are numbered across the outer query and the key
		// subquery.
		base := d.Builder().Select(cols...).From("lq_items i").
			Join("lq_items j ON j.id = i.id AND j.score >= ?", 0).Where("i.n <> ?", 99)
		count := d.Builder().Select("COUNT(*)").From("lq_items i").Where("i.n <> ?", 99)
		reqs := []Request{
			{},                          // default sort: at desc, NULLs last, ties by id
			{SortBy: `{"at":"asc"}`},    // NULLs first
			{SortBy: `{"at":"desc"}`},   // NULLs last
			{SortBy: `{"name":"asc"}`},  // text with repeated names
			{SortBy: `{"name":"desc"}`}, // text descending, ties by id desc
			{SortBy: `{"n":"asc"}`},     // 7 values, many ties
			{SortBy: `{"id":"asc"}`},    // the key itself, ascending
			{SortBy: `{"kind":"asc","at":"desc","n":"asc"}`},
			{SortBy: `{"n":"desc"}`, Params: `{"kind":"a"}`},
			{SortBy: `{"at":"asc"}`, Search: "a"},
			{SortBy: `{"score":"desc"}`, Search: "blu"}, // a virtual column's EXISTS
			{SortBy: `{"name":"asc"}`, Constraints: one("and", "n", ">=", 2), Params: `{"flag":1}`},
			{SortBy: `{"at":"desc"}`, Params: `{"at":["2026-01-01",""]}`},
		}
		for _, req := range reqs {
			for _, size := range []int{1, 3, 7, 20} {
				name := fmt.Sprintf("%s/%s/%s/%d", req.SortBy, req.Params, req.Search+req.Constraints, size)
				t.Run(name, func(t *testing.T) {
					whole := req
					whole.PageSize = "100"
					all := pageOf(t, d, whole, base, count, false)
					for page := 1; page <= len(all)/size+2; page++ {
						r := req
						r.Page, r.PageSize = fmt.Sprint(page), fmt.Sprint(size)
						got := pageOf(t, d, r, base, count, true)
						plain := pageOf(t, d, r, base, count, false)
						lo, hi := min((page-1)*size, len(all)), min(page*size, len(all))
						if !reflect.DeepEqual(got, plain) || !reflect.DeepEqual(got, all[lo:hi]) {
							t.Fatalf("page %d:\nby key %v\nplain  %v\nslice  %v", page, ids(got, any1), ids(plain, any1), ids(all[lo:hi], any1))
						}
					}
				})
			}
		}
		t.Run("ReadsKeysFirst", func(t *testing.T) {
			q, err := items.Parse(d.Dialect, Request{Page: "2"})
			if err != nil {
				t.Fatal(err)
			}
			text, _, err := q.applyPage(base, count).ToSql()
			if err != nil || !strings.Contains(text, "i.id IN (SELECT i.id FROM") {
				t.Errorf("page 2 is not read by key: %s %v", text, err)
			}
			q.Page = 1
			if text, _, _ := q.applyPage(base, count).ToSql(); strings.Contains(text, " IN (SELECT") {
				t.Errorf("page 1 reads keys first: %s", text)
			}
			// KeysFirst: a searched first page reads its keys first, an
			// unsearched one is read as it is.
			q.KeysFirst()
			if text, _, _ := q.applyPage(base, count).ToSql(); strings.Contains(text, " IN (SELECT") {
				t.Errorf("unsearched page 1 reads keys first: %s", text)
			}
			q, err = items.Parse(d.Dialect, Request{Search: "a"})
			if err != nil {
				t.Fatal(err)
			}
			q.KeysFirst()
			if text, _, _ := q.applyPage(base, count).ToSql(); !strings.Contains(text, "i.id IN (SELECT i.id FROM") {
				t.Errorf("searched page 1 is not read by key: %s", text)
			}
		})
		t.Run("RunTotals", func(t *testing.T) {
			q, err := items.Parse(d.Dialect, Request{Page: "3", PageSize: "7", Params: `{"kind":"a"}`})
			if err != nil {
				t.Fatal(err)
			}
			got, p, err := Run[row](ctx, d, q, base, count)
			if err != nil {
				t.Fatal(err)
			}
			want := pageOf(t, d, Request{Page: "3", PageSize: "7", Params: `{"kind":"a"}`}, base, count, false)
			n := len(pageOf(t, d, Request{PageSize: "100", Params: `{"kind":"a"}`}, base, count, false))
			if !reflect.DeepEqual(got, want) || p.Total != int64(n) || p.TotalPage != (n+6)/7 {
				t.Errorf("Run page 3: %v %+v, want %v", ids(got, any1), p, ids(want, any1))
			}
		})
	})
}

func any1(row) bool { return true }

// pageOf reads one page of items, by key or with the plain LIMIT/OFFSET.
func pageOf(t *testing.T, d *db.DB, req Request, base, count sq.SelectBuilder, byKey bool) []row {
	t.Helper()
	q, err := items.Parse(d.Dialect, req)
	if err != nil {
		t.Fatal(err)
	}
	b := q.Apply(base)
	if byKey {
		q.KeysFirst() // a searched first page too
		b = q.applyPage(base, count)
	}
	out := []row{}
	if err := db.Select(context.Background(), d, &out, b); err != nil {
		t.Fatal(err)
	}
	return out
}
