package user

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
	"telepath/internal/platform/listquery"
)

// TestListSearchEqualsLike writes users at random (new users, changed
// user names, names, phones and work numbers, enabled, disabled, deleted
// and removed) and checks after each round, on each database, that the
// user list's search (the indexes of migrations 0065 and 0076, or its
// LIKE) finds exactly the users a plain LIKE '%text%' over the columns
// finds, alone and with a tab's condition, and that the tab counts (read
// from user_tallies) are the users' own.
func TestListSearchEqualsLike(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		r := rand.New(rand.NewPCG(7, 8))
		chars := []rune("王李张刘陈伟芳娜aAbB1É_")
		text := func(n int) string {
			s := make([]rune, n)
			for i := range s {
				s[i] = chars[r.IntN(len(chars))]
			}
			return string(s)
		}
		phone := func() string { return fmt.Sprintf("139%04d", r.IntN(3000)) }
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := d.ExecContext(ctx, d.Rebind(q), args...); err != nil {
				t.Fatal(err)
			}
		}
		like := "LIKE"
		if d.Dialect == db.Postgres {
			like = "ILIKE"
		}
		queries := []string{"张", "伟", "张伟", "王李", "a张", "B", "13", "1390", "139", "user", "USER1", "W00", "张a1", "李张刘", "É", "_", "%", " 张 ",
			"1390012", "3900", "0012", "009", "1399", "999", "00", "1", " 139001 ", "13900123", "12a"}
		tabs := tabs(now)
		var ids []int64
		for round := range 5 {
			for range 60 {
				switch k := r.IntN(12); {
				case k < 4 || len(ids) == 0:
					var id int64
					if err := d.GetContext(ctx, &id, d.Rebind(`INSERT INTO users (username, name, password_hash, phone, work_no, status, locked_until, created_at, updated_at)
						VALUES (?, ?, 'x', ?, ?, ?, ?, ?, ?) RETURNING id`), fmt.Sprintf("User%d%s", r.IntN(1000), text(r.IntN(2))), text(1+r.IntN(3)), phone(),
						fmt.Sprintf("W%03d%s", r.IntN(100), text(r.IntN(2))), r.IntN(2), []any{nil, now.Add(time.Hour), now.Add(-time.Hour)}[r.IntN(3)], now, now); err != nil {
						t.Fatal(err)
					}
					ids = append(ids, id)
				case k < 7:
					id := ids[r.IntN(len(ids))]
					switch r.IntN(4) {
					case 0:
						exec("UPDATE users SET name = ? WHERE id = ?", text(1+r.IntN(3)), id)
					case 1:
						exec("UPDATE users SET phone = ?, work_no = ? WHERE id = ?", phone(), text(r.IntN(4)), id)
					case 2:
						exec("UPDATE users SET username = ? WHERE id = ?", fmt.Sprintf("u%d%s", id, text(2)), id)
					default:
						exec("UPDATE users SET updated_at = ?, locked_until = ? WHERE id = ?", now, []any{nil, now.Add(time.Hour)}[r.IntN(2)], id)
					}
				case k < 9:
					exec("UPDATE users SET status = ? WHERE id = ?", r.IntN(2), ids[r.IntN(len(ids))])
				case k < 10:
					exec("UPDATE users SET deleted_at = ?, status = 0 WHERE id = ?", now, ids[r.IntN(len(ids))])
				default:
					i := r.IntN(len(ids))
					exec("DELETE FROM users WHERE id = ?", ids[i])
					ids = slices.Delete(ids, i, i+1)
				}
			}
			for _, text := range queries {
				p := listquery.LikePattern(listquery.SearchText(text))
				q, err := list.Parse(d.Dialect, listquery.Request{Search: text})
				if err != nil {
					t.Fatal(err)
				}
				if raw := rawIndex(d.Dialect, text); raw != "" {
					var want, got []int64
					if err := d.SelectContext(ctx, &want, d.Rebind(fmt.Sprintf(`SELECT u.id FROM users u WHERE u.username %[1]s ? ESCAPE '\' OR u.name %[1]s ? ESCAPE '\'
						OR u.phone %[1]s ? ESCAPE '\' OR u.work_no %[1]s ? ESCAPE '\' ORDER BY u.id`, like)), p, p, p, p); err != nil {
						t.Fatal(err)
					}
					if err := d.SelectContext(ctx, &got, d.Rebind(raw), indexKeys(listquery.SearchText(text))...); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(want, got) {
						t.Fatalf("round %d, %q: LIKE finds %v, the index holds %v", round, text, want, got)
					}
				}
				for _, tab := range []string{"u.deleted_at IS NULL", "u.status = 1 AND u.deleted_at IS NULL", "1=1"} {
					var want, got []int64
					if err := d.SelectContext(ctx, &want, d.Rebind(fmt.Sprintf(`SELECT u.id FROM users u WHERE (u.username %[1]s ? ESCAPE '\' OR u.name %[1]s ? ESCAPE '\'
						OR u.phone %[1]s ? ESCAPE '\' OR u.work_no %[1]s ? ESCAPE '\') AND %[2]s ORDER BY u.id`, like, tab)), p, p, p, p); err != nil {
						t.Fatal(err)
					}
					if err := db.Select(ctx, d, &got, q.ApplyCount(d.Builder().Select("u.id").From("users u")).Where(tab).OrderBy("u.id")); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(want, got) {
						t.Fatalf("round %d, %q, %s: LIKE finds %v, the search %v", round, text, tab, want, got)
					}
				}
			}
			q, err := list.Parse(d.Dialect, listquery.Request{})
			if err != nil {
				t.Fatal(err)
			}
			counts, err := listquery.Counts(ctx, d, q, d.Builder().Select().From("users u").Where("u.deleted_at IS NULL"), tabs)
			if err != nil {
				t.Fatal(err)
			}
			for name, cond := range tabs {
				var n int64
				if err := db.Get(ctx, d, &n, d.Builder().Select("COUNT(*)").From("users u").Where("u.deleted_at IS NULL").Where(cond)); err != nil {
					t.Fatal(err)
				}
				if counts[name] != n {
					t.Fatalf("round %d: tab %s counts %d, the users %d", round, name, counts[name], n)
				}
			}
		}
		// The indexes serve these texts: not a LIKE over the users (on
		// PostgreSQL the LIKE of three characters or more reads 0065's).
		for _, text := range []string{"张", "张伟", "1390", "user", "139", "1390004"} {
			if searchIndex(d.Dialect, text) == nil && (d.Dialect == db.SQLite || utf8.RuneCountInString(text) < 3 || digits(text)) {
				t.Errorf("%q is searched by LIKE", text)
			}
		}
	})
}

// rawIndex reads the index that serves text without the users table (which
// would hide the entries of users removed): "" for a text read by LIKE or,
// on PostgreSQL, by the LIKE's own trigram index.
func rawIndex(d db.Dialect, text string) string {
	text = listquery.SearchText(text)
	switch n := utf8.RuneCountInString(text); {
	case searchIndex(d, text) == nil:
		return ""
	case n >= 3 && digits(text):
		return "SELECT DISTINCT user_id FROM user_suffixes WHERE suffix >= ? AND suffix < ? ORDER BY user_id"
	case n < 3:
		return "SELECT user_id FROM user_grams WHERE gram = ? ORDER BY user_id"
	case d == db.SQLite:
		return "SELECT rowid FROM users_search WHERE users_search MATCH ? ORDER BY rowid"
	}
	return ""
}

// indexKeys are what rawIndex's statement looks for.
func indexKeys(text string) []any {
	switch n := utf8.RuneCountInString(text); {
	case n >= 3 && digits(text):
		return []any{text, digitsAfter(text)}
	case n < 3:
		return []any{strings.ToLower(text)}
	}
	return []any{`"` + strings.ReplaceAll(text, `"`, `""`) + `"`}
}
