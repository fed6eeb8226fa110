package user

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
	"telepath/internal/platform/listquery"
)

// TestPagesEqualOffset checks, on each database and after random writes,
// that every page of the user list (readPage: pages past the middle read
// from the end) holds exactly the users of the plain LIMIT/OFFSET page, in
// its order, and that the total is the users' own count: per sort (text,
// time, a column with nulls, ties), tab, search and page size, every page
// up to one past the last.
func TestPagesEqualOffset(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		r := rand.New(rand.NewPCG(3, 4))
		names := []string{"王", "李", "张伟", "Ab", "ab", "", "刘"}
		at := func() any {
			if r.IntN(3) == 0 {
				return nil
			}
			return now.Add(-time.Duration(r.IntN(5)) * time.Hour)
		}
		var ids []int64
		for i := range 90 {
			var id int64
			if err := d.GetContext(ctx, &id, d.Rebind(`INSERT INTO users (username, name, password_hash, phone, work_no, status, locked_until, last_login_at, created_at, updated_at)
				VALUES (?, ?, 'x', ?, ?, ?, ?, ?, ?, ?) RETURNING id`), fmt.Sprintf("p%03d", r.IntN(1000)*1000+i), names[r.IntN(len(names))],
				fmt.Sprintf("139%04d", r.IntN(50)), fmt.Sprintf("W%d", r.IntN(4)), r.IntN(2), []any{nil, now.Add(time.Hour)}[r.IntN(2)], at(),
				now.Add(-time.Duration(r.IntN(6))*time.Minute), now); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		for _, id := range ids[:15] {
			if _, err := d.ExecContext(ctx, d.Rebind("UPDATE users SET deleted_at = ? WHERE id = ?"), now, id); err != nil {
				t.Fatal(err)
			}
		}
		sorts := []string{"", `{"name":"asc"}`, `{"name":"desc"}`, `{"created_at":"desc"}`, `{"last_login_at":"asc"}`,
			`{"last_login_at":"desc","name":"asc"}`, `{"work_no":"asc","status":"desc"}`, `{"id":"asc"}`}
		for _, sort := range sorts {
			for _, tab := range []string{"all", "enabled", "locked"} {
				for _, search := range []string{"", "W1", "139001"} {
					size := 1 + r.IntN(9)
					var total int64
					for page := 1; ; page++ {
						req := listquery.Request{Page: strconv.Itoa(page), PageSize: strconv.Itoa(size), SortBy: sort, Search: search}
						q, err := list.Parse(d.Dialect, req)
						if err != nil {
							t.Fatal(err)
						}
						cond := tabs(now)[tab]
						base := d.Builder().Select(columns).From("users u").Where(cond).Where("u.deleted_at IS NULL")
						count := d.Builder().Select("COUNT(*)").From("users u").Where(cond).Where("u.deleted_at IS NULL")
						got, pg, err := readPage(ctx, d, q, base, count)
						if err != nil {
							t.Fatal(err)
						}
						var want []User
						if err := db.Select(ctx, d, &want, q.Apply(base)); err != nil {
							t.Fatal(err)
						}
						if page == 1 {
							if err := db.Get(ctx, d, &total, q.ApplyCount(count)); err != nil {
								t.Fatal(err)
							}
						}
						if !slices.Equal(userIDs(got), userIDs(want)) || pg.Total != total {
							t.Fatalf("sort %s, tab %s, search %q, page %d of %d: %v of %d, want %v of %d",
								sort, tab, search, page, size, userIDs(got), pg.Total, userIDs(want), total)
						}
						if int64(q.Offset()) >= total {
							break
						}
					}
				}
			}
		}
	})
}

func userIDs(rows []User) []int64 {
	out := make([]int64, len(rows))
	for i, u := range rows {
		out[i] = u.ID
	}
	return out
}

// TestReversed checks the reversed ORDER BY terms.
func TestReversed(t *testing.T) {
	got := reversed([]string{`u.name COLLATE "C" ASC`, "u.last_login_at DESC NULLS LAST", "u.last_login_at ASC NULLS FIRST", "u.id DESC", "u.id"})
	want := []string{`u.name COLLATE "C" DESC`, "u.last_login_at ASC NULLS FIRST", "u.last_login_at DESC NULLS LAST", "u.id ASC", "u.id DESC"}
	if !slices.Equal(got, want) {
		t.Fatalf("%q, want %q", got, want)
	}
}
