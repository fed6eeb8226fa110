package consultation

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
	"telepath/internal/platform/listquery"
)

// TestSQLiteSearchNamed checks the SQLite search with the matching cases
// named as constants and as the index's subquery (sqliteParse), against a
// plain LIKE, after rounds of random writes: the rows of a page under a
// scope and a tab, and the exact total listquery.Run gives, which the case
// tallies answer when only hospitals match (texts of hospitals alone, of
// hospitals and cases, of cases alone, of nothing).
func TestSQLiteSearchNamed(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := rand.New(rand.NewPCG(7, 8))
	var hospitals []int64
	for _, n := range []string{"明州人民医院", "青山人民医院", "临江中心医院"} {
		var id int64
		if err := d.GetContext(ctx, &id, "INSERT INTO hospitals (name, created_at, updated_at) VALUES (?, ?, ?) RETURNING id", n, now, now); err != nil {
			t.Fatal(err)
		}
		hospitals = append(hospitals, id)
	}
	var user int64
	if err := d.GetContext(ctx, &user, "INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('u', 'x', ?, ?) RETURNING id", now, now); err != nil {
		t.Fatal(err)
	}
	chars := []rune("王李伟明州")
	name := func() string {
		n := make([]rune, 1+r.IntN(3))
		for i := range n {
			n[i] = chars[r.IntN(len(chars))]
		}
		return string(n)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	defaultCap := sqliteCap
	defer func() { sqliteCap = defaultCap }()
	var ids []int64
	type row struct {
		ID int64 `db:"id"`
	}
	for round := range 4 {
		for range 40 {
			switch k := r.IntN(10); {
			case k < 5 || len(ids) == 0:
				var id int64
				if err := d.GetContext(ctx, &id, `INSERT INTO consultations (hospital_id, user_id, consult_no, pathology_number, patient_name, status, case_data, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, hospitals[r.IntN(len(hospitals))], user, fmt.Sprintf("TP%05d", r.IntN(100000)),
					fmt.Sprintf("BL%05d", r.IntN(100000)), name(), []int{0, 1, 2, 4}[r.IntN(4)], fmt.Sprintf(`{"id_number":"3302%06d"}`, r.IntN(1000000)), now, now); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			case k < 7:
				exec("UPDATE consultations SET patient_name = ?, status = ? WHERE id = ?", name(), []int{0, 1, 2, 4}[r.IntN(4)], ids[r.IntN(len(ids))])
			case k < 8:
				exec("UPDATE consultations SET deleted_at = ? WHERE id = ?", now, ids[r.IntN(len(ids))])
			default:
				i := r.IntN(len(ids))
				exec("DELETE FROM consultations WHERE id = ?", ids[i])
				ids = slices.Delete(ids, i, i+1)
			}
		}
		for _, text := range []string{"青山", "人民医院", "明州", "州", "王", "王伟", "TP0", "3302", "3023302", "30212", "无此", "XYZ", "B", "30", "p", "临"} {
			p := listquery.LikePattern(text)
			for _, cap := range []int{defaultCap, 0} {
				sqliteCap = cap
				q, err := parseList(ctx, d, listquery.Request{Search: text, PageSize: "1"})
				if err != nil {
					t.Fatal(err)
				}
				for _, scope := range []string{"c.deleted_at IS NULL", fmt.Sprintf("c.deleted_at IS NULL AND c.hospital_id = %d AND c.status = 4", hospitals[1])} {
					var want []int64
					if err := d.SelectContext(ctx, &want, `SELECT c.id FROM consultations c JOIN hospitals h ON h.id = c.hospital_id
						WHERE `+scope+` AND (c.consult_no LIKE ? OR c.pathology_number LIKE ? OR c.patient_name LIKE ?
						OR json_extract(c.case_data, '$.id_number') LIKE ? OR h.name LIKE ?) ORDER BY c.id DESC`, p, p, p, p, p); err != nil {
						t.Fatal(err)
					}
					b := d.Builder()
					got, page, err := listquery.Run[row](ctx, d, q, b.Select("c.id").From("consultations c").Where(scope),
						b.Select("COUNT(*)").From("consultations c").Where(scope))
					if err != nil {
						t.Fatal(err)
					}
					if page.Total != int64(len(want)) || (len(want) > 0 && got[0].ID != want[0]) {
						t.Fatalf("round %d, %q, cap %d, %s: LIKE finds %v, the search %v of %d", round, text, cap, scope, want, got, page.Total)
					}
				}
			}
		}
	}
}
