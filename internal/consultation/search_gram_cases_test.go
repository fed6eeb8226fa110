package consultation

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
	"telepath/internal/platform/listquery"
)

// gramCasesDiff selects the rows by which consultation_gram_cases
// (migrations 0089, 0092) differs from the one-character pieces of
// consultation_grams joined to their cases' columns, both ways, over every
// column gramCases declares copied.
var gramCasesDiff = func() string {
	var copies, cases []string
	for _, col := range gramCases.Columns {
		copies = append(copies, strings.TrimPrefix(col, "c."))
		cases = append(cases, strings.Replace(col, "c.gram", "g.gram", 1))
	}
	copied := "SELECT " + strings.Join(copies, ", ") + " FROM consultation_gram_cases"
	pieces := "SELECT " + strings.Join(cases, ", ") + " FROM consultation_grams g JOIN consultations c ON c.id = g.case_id WHERE length(g.gram) = 1"
	return "SELECT COUNT(*) FROM (SELECT * FROM (" + copied + " EXCEPT " + pieces + ") UNION ALL SELECT * FROM (" + pieces + " EXCEPT " + copied + "))"
}()

// TestGramCases makes rounds of random writes to the cases on SQLite (new
// cases, renames, moves between hospitals, centers and experts, every
// column of the lists' states and times, soft and hard deletes) and checks
// after each write that consultation_gram_cases (migration 0089) holds
// exactly the one-character pieces of the cases with their columns (every
// column gramCases declares, each written at random); after each round,
// that a search of one character counts (the list's total and every tab's
// count) as COUNT(*) of the plain LIKE, and that its pages, whose keys are
// read from the copies, are those of the LIKE, under an admin's, a site's
// and a center's scope, also with the case screens' own filters and sorts.
// It then checks that these counts and keys do read the copies: with one
// copy changed, they change.
func TestGramCases(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := rand.New(rand.NewPCG(21, 22))
	insert := func(q string, args ...any) int64 {
		t.Helper()
		var id int64
		if err := d.GetContext(ctx, &id, q+" RETURNING id", args...); err != nil {
			t.Fatal(err)
		}
		return id
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	var hospitals, centers, users []any
	for _, n := range []string{"明州人民医院", "青山医院", "临江中心医院"} {
		hospitals = append(hospitals, insert("INSERT INTO hospitals (name, created_at, updated_at) VALUES (?, ?, ?)", n, now, now))
	}
	for _, n := range []string{"一中心", "二中心"} {
		centers = append(centers, insert("INSERT INTO centers (name, created_at, updated_at) VALUES (?, ?, ?)", n, now, now))
	}
	for _, n := range []string{"e1", "e2", "e3"} {
		users = append(users, insert("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES (?, 'x', ?, ?)", n, now, now))
	}
	chars := []rune("王李伟州a")
	name := func() string {
		n := make([]rune, 1+r.IntN(3))
		for i := range n {
			n[i] = chars[r.IntN(len(chars))]
		}
		return string(n)
	}
	pick := func(of []any) any {
		if r.IntN(3) == 0 {
			return nil
		}
		return of[r.IntN(len(of))]
	}
	at := func() any {
		if r.IntN(4) == 0 {
			return nil
		}
		return now.Add(time.Duration(r.IntN(96)-48) * time.Hour)
	}
	check := func(after string) {
		t.Helper()
		var off int
		if err := d.GetContext(ctx, &off, gramCasesDiff); err != nil {
			t.Fatal(err)
		}
		if off != 0 {
			t.Fatalf("after %s: %d rows of consultation_gram_cases differ from the cases' pieces and columns", after, off)
		}
	}
	// Each column the copies hold, with a random value of its kind.
	columns := map[string]func() any{
		"hospital_id": func() any { return hospitals[r.IntN(len(hospitals))] }, "center_id": func() any { return pick(centers) },
		"expert_id": func() any { return pick(users) }, "user_id": func() any { return users[r.IntN(len(users))] },
		"staff_id": func() any { return pick(users) }, "status": func() any { return []int{0, 1, 2, 4}[r.IntN(4)] },
		"is_draft": func() any { return r.IntN(2) }, "is_recall": func() any { return r.IntN(3) }, "is_return": func() any { return r.IntN(3) - 1 },
		"is_lock": func() any { return r.IntN(2) }, "supplement_review": func() any { return r.IntN(2) },
		"print_deliver_status": func() any { return r.IntN(4) }, "expedite": func() any { return r.IntN(2) },
		"charge_status": func() any { return 1 + r.IntN(2) }, "deleted_at": at, "created_at": func() any { return now.Add(time.Duration(r.IntN(1000)) * time.Minute) },
		"submitted_at": at, "timeout_at": at, "remind_at": at, "release_at": at,
		"gender": func() any { return []string{"male", "female", "unknown"}[r.IntN(3)] },
		"age": func() any {
			if r.IntN(4) == 0 {
				return nil
			}
			return r.IntN(90)
		},
		"slide_count": func() any { return r.IntN(5) }, "patient_name": func() any { return name() },
		"consult_no": func() any { return fmt.Sprintf("TP%05d", r.IntN(100000)) }, "pathology_number": func() any { return fmt.Sprintf("BL%s%03d", name(), r.IntN(1000)) },
		"inspection_date": at, "assigned_at": at,
	}
	for _, col := range gramCases.Columns {
		if col := strings.TrimPrefix(col, "c."); columns[col] == nil && col != "gram" && col != "id" {
			t.Fatalf("the copied column %s is never written", col)
		}
	}
	names := slices.Sorted(maps.Keys(columns))
	var ids []int64
	tabs := tabsOn(now, "c", d.Dialect)
	scopes := []string{"c.deleted_at IS NULL", fmt.Sprintf("c.deleted_at IS NULL AND c.hospital_id = %d", hospitals[1]),
		fmt.Sprintf("c.deleted_at IS NULL AND (c.status <> 0 OR c.is_return = -1) AND c.center_id IN (%d)", centers[0])}
	for round := range 4 {
		for i := range 80 {
			switch k := r.IntN(12); {
			case k < 4 || len(ids) == 0:
				ids = append(ids, insert(`INSERT INTO consultations (hospital_id, center_id, expert_id, user_id, consult_no, pathology_number, patient_name,
					status, is_lock, expedite, timeout_at, remind_at, release_at, submitted_at, case_data, created_at, updated_at,
					gender, age, slide_count, inspection_date, assigned_at)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, hospitals[r.IntN(len(hospitals))], pick(centers), pick(users), users[0],
					fmt.Sprintf("TP%05d", r.IntN(100000)), fmt.Sprintf("BL%05d", r.IntN(100000)), name(), []int{0, 1, 2, 4}[r.IntN(4)], r.IntN(2), r.IntN(2),
					at(), at(), at(), at(), fmt.Sprintf(`{"id_number":"3302%06d"}`, r.IntN(1000000)), now.Add(time.Duration(r.IntN(1000))*time.Minute), now,
					columns["gender"](), columns["age"](), columns["slide_count"](), at(), at()))
			case k < 6:
				exec("UPDATE consultations SET patient_name = ? WHERE id = ?", name(), ids[r.IntN(len(ids))])
			case k < 9:
				// One to three of the copied columns, sometimes with the name.
				set, args := "updated_at = ?", []any{now}
				for range 1 + r.IntN(3) {
					c := names[r.IntN(len(names))]
					set += ", " + c + " = ?"
					args = append(args, columns[c]())
				}
				if r.IntN(4) == 0 {
					set += ", patient_name = ?"
					args = append(args, name())
				}
				exec("UPDATE consultations SET "+set+" WHERE id = ?", append(args, ids[r.IntN(len(ids))])...)
			case k < 10:
				exec(`UPDATE consultations SET case_data = ? WHERE id = ?`, fmt.Sprintf(`{"id_number":"王%06d"}`, r.IntN(1000000)), ids[r.IntN(len(ids))])
			case k < 11:
				exec("UPDATE consultations SET deleted_at = ? WHERE id = ?", now, ids[r.IntN(len(ids))])
			default:
				i := r.IntN(len(ids))
				exec("DELETE FROM consultations WHERE id = ?", ids[i])
				ids = slices.Delete(ids, i, i+1)
			}
			check(fmt.Sprintf("round %d, write %d", round, i))
		}
		for _, text := range []string{"王", "李", "伟", "州"} {
			for _, scope := range scopes {
				want := likeCounts(t, d, scope, text, tabs)
				for _, tab := range []string{"all", "timeout", "completed", "to_print"} {
					if got := gramPage(t, d, scope, text, tabs[tab], 2, 1); !slices.Equal(got, likePage(t, d, scope, text, tabs[tab], 2, 1)) {
						t.Fatalf("round %d, %q, %s, tab %s: page 1 %v, the LIKE's %v", round, text, scope, tab, got, likePage(t, d, scope, text, tabs[tab], 2, 1))
					}
					if got := gramPage(t, d, scope, text, tabs[tab], 2, 3); !slices.Equal(got, likePage(t, d, scope, text, tabs[tab], 2, 3)) {
						t.Fatalf("round %d, %q, %s, tab %s: page 3 %v, the LIKE's %v", round, text, scope, tab, got, likePage(t, d, scope, text, tabs[tab], 2, 3))
					}
				}
				q, err := parseList(ctx, d, listquery.Request{Search: text, PageSize: "1"})
				if err != nil {
					t.Fatal(err)
				}
				b := d.Builder()
				_, page, err := listquery.Run[struct {
					ID int64 `db:"id"`
				}](ctx, d, q, b.Select("c.id").From("consultations c").Where(scope), b.Select("COUNT(*)").From("consultations c").Where(scope))
				if err != nil {
					t.Fatal(err)
				}
				got, err := listquery.Counts(ctx, d, q, b.Select().From("consultations c").Where(scope), tabs)
				if err != nil {
					t.Fatal(err)
				}
				if page.Total != want["all"] || !maps.Equal(got, want) {
					t.Fatalf("round %d, %q, %s: LIKE counts %v, the search's total %d, counts %v", round, text, scope, want, page.Total, got)
				}
				for _, req := range screenLists {
					for _, tab := range []string{"all", "completed"} {
						for _, n := range []int{1, 3} {
							got, gotTotal := gramPageOf(t, d, scope, text, req, tabs[tab], 2, n)
							want, wantTotal := likePageOf(t, d, scope, text, req, tabs[tab], 2, n)
							if !slices.Equal(got, want) || gotTotal != wantTotal {
								t.Fatalf("round %d, %q, %s, tab %s, %+v: page %d %v of %d, the LIKE's %v of %d", round, text, scope, tab, req, n, got, gotTotal, want, wantTotal)
							}
						}
					}
				}
			}
		}
	}
	// The counts and the keys read the copies: a copy that says deleted
	// drops its case from both, under each screen's filters and sorts too.
	for _, req := range screenLists {
		before, total := gramPageOf(t, d, scopes[0], "王", req, nil, 2, 1)
		if len(before) == 0 {
			t.Fatalf("%+v: no case of 王", req)
		}
		exec("UPDATE consultation_gram_cases SET deleted_at = ? WHERE id = ?", now, before[0])
		if after, n := gramPageOf(t, d, scopes[0], "王", req, nil, 2, 1); slices.Equal(after, before) || n != total-1 {
			t.Errorf("%+v: the first page of 王 is %v of %d with its case %d's copy deleted, %v of %d before", req, after, n, before[0], before, total)
		}
		exec("UPDATE consultation_gram_cases SET deleted_at = NULL WHERE id = ?", before[0])
	}
	before := gramPage(t, d, scopes[0], "王", nil, 1, 1)
	victim := before[0]
	exec("UPDATE consultation_gram_cases SET deleted_at = ? WHERE id = ?", now, victim)
	q, err := parseList(ctx, d, listquery.Request{Search: "王"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := listquery.Counts(ctx, d, q, d.Builder().Select().From("consultations c").Where(scopes[0]), map[string]sq.Sqlizer{"all": nil})
	if err != nil {
		t.Fatal(err)
	}
	if want := likeCounts(t, d, scopes[0], "王", map[string]sq.Sqlizer{"all": nil}); got["all"] != want["all"]-1 {
		t.Errorf("a search of 王 counted %d with a copy of the %d cases changed", got["all"], want["all"])
	}
	if after := gramPage(t, d, scopes[0], "王", nil, 1, 1); slices.Equal(after, before) {
		t.Errorf("the first page of 王 (created_at, id DESC) is %v with its case %d's copy deleted, as before", after, victim)
	}
}

// screenLists are filters and sorts the case screens offer besides the
// scopes' and tabs' columns (web/src/features/consultation: the search
// forms' fields, the columns' filters and sorts), with the site's list of
// the 1M benchmark first (completed, expedite 0, female, by name).
var screenLists = []listquery.Request{
	{SortBy: `{"patient_name":"asc"}`, Params: `{"expedite":0,"gender":"female"}`},
	{SortBy: `{"age":"asc"}`, Params: `{"gender":["male","unknown"]}`},
	{SortBy: `{"slide_count":"desc"}`, Params: `{"charge_status":1}`},
	{SortBy: `{"inspection_date":"desc"}`, Params: `{"inspection_date":["2026-01-01","2026-01-02"]}`},
	{SortBy: `{"consult_no":"asc"}`, Params: `{"status":[1,2,4]}`},
	{SortBy: `{"pathology_number":"desc"}`, Constraints: `[{"condition":"and","constraint":[{"condition":"and","operator":"like","column":"patient_name","value":"李"}]}]`},
	{SortBy: `{"assigned_at":"asc"}`, Params: `{"age":[30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45]}`},
	{SortBy: `{"timeout_at":"asc"}`, Params: `{"slide_count":[1,2]}`},
}

// gramPage is the ids of a page of the cases of scope and tab searched for
// text, newest first, as the lists read it (keys first).
func gramPage(t *testing.T, d *db.DB, scope, text string, tab sq.Sqlizer, size, page int) []int64 {
	t.Helper()
	ids, _ := gramPageOf(t, d, scope, text, listquery.Request{SortBy: `{"created_at":"desc"}`}, tab, size, page)
	return ids
}

// gramPageOf is the ids of a page of the list req of the cases of scope
// and tab searched for text, as the lists read it (keys first), and its
// total.
func gramPageOf(t *testing.T, d *db.DB, scope, text string, req listquery.Request, tab sq.Sqlizer, size, page int) ([]int64, int64) {
	t.Helper()
	req.Search, req.PageSize, req.Page = text, fmt.Sprint(size), fmt.Sprint(page)
	q, err := parseList(context.Background(), d, req)
	if err != nil {
		t.Fatal(err)
	}
	q.KeysFirst()
	return pageOf(t, d, q, sq.And{sq.Expr(scope)}, tab)
}

// likePageOf is gramPageOf read with a plain LIKE.
func likePageOf(t *testing.T, d *db.DB, scope, text string, req listquery.Request, tab sq.Sqlizer, size, page int) ([]int64, int64) {
	t.Helper()
	req.PageSize, req.Page = fmt.Sprint(size), fmt.Sprint(page)
	q, err := list.Parse(d.Dialect, req)
	if err != nil {
		t.Fatal(err)
	}
	p := []any{listquery.LikePattern(text)}
	var like sq.Or
	for _, col := range []string{"c.consult_no", "c.pathology_number", "c.patient_name", idNumberExpr(d.Dialect)} {
		like = append(like, listquery.Compare(d.Dialect, col, listquery.Like, p))
	}
	like = append(like, sq.Expr("c.hospital_id IN (SELECT h.id FROM hospitals h WHERE ?)", listquery.Compare(d.Dialect, "h.name", listquery.Like, p)))
	return pageOf(t, d, q, sq.And{sq.Expr(scope), like}, tab)
}

// pageOf runs q over the cases of where and tab: the page's ids and the
// total.
func pageOf(t *testing.T, d *db.DB, q *listquery.Query, where sq.And, tab sq.Sqlizer) ([]int64, int64) {
	t.Helper()
	if tab != nil {
		where = append(where, tab)
	}
	b := d.Builder()
	rows, page, err := listquery.Run[struct {
		ID int64 `db:"id"`
	}](context.Background(), d, q, b.Select("c.id").From("consultations c").Where(where), b.Select("COUNT(*)").From("consultations c").Where(where))
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	return ids, page.Total
}

// likePage is gramPage read with a plain LIKE.
func likePage(t *testing.T, d *db.DB, scope, text string, tab sq.Sqlizer, size, page int) []int64 {
	t.Helper()
	p := listquery.LikePattern(text)
	var like sq.Or
	for _, col := range []string{"c.consult_no", "c.pathology_number", "c.patient_name", idNumberExpr(d.Dialect), "h.name"} {
		like = append(like, listquery.Compare(d.Dialect, col, listquery.Like, []any{p}))
	}
	b := d.Builder().Select("c.id").From("consultations c").Join("hospitals h ON h.id = c.hospital_id").Where(scope).Where(like).
		OrderBy("c.created_at DESC", "c.id DESC").Limit(uint64(size)).Offset(uint64(size * (page - 1)))
	if tab != nil {
		b = b.Where(tab)
	}
	var ids []int64
	if err := db.Select(context.Background(), d, &ids, b); err != nil {
		t.Fatal(err)
	}
	return ids
}
