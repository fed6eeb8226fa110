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

// TestListSearchEqualsLike writes cases at random (new cases, changed
// numbers, names and ID numbers, state changes, deletes, renamed
// hospitals) and checks after each round, on each database, that the case
// lists' search (the indexes of migrations 0030 and 0058, or its LIKE)
// finds exactly the cases a plain LIKE '%text%' over the base columns
// finds, alone and with a tab's condition, and that its count is theirs:
// texts of one, two and more characters, Chinese and Latin, ID numbers and
// hospital names.
func TestListSearchEqualsLike(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		r := rand.New(rand.NewPCG(5, 6))
		hospitalNames := []string{"明州人民医院", "临江中心医院", "Hospital of Qingshan", "东湖 hospital", "王家医院"}
		var hospitals []int64
		for _, n := range hospitalNames {
			var id int64
			if err := d.GetContext(ctx, &id, d.Rebind("INSERT INTO hospitals (name, created_at, updated_at) VALUES (?, ?, ?) RETURNING id"), n, now, now); err != nil {
				t.Fatal(err)
			}
			hospitals = append(hospitals, id)
		}
		var user int64
		if err := d.GetContext(ctx, &user, d.Rebind("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('u', 'x', ?, ?) RETURNING id"), now, now); err != nil {
			t.Fatal(err)
		}
		chars := []rune("王李张刘陈杨伟芳娜敏静明州abAB")
		name := func() string {
			n := make([]rune, 1+r.IntN(3))
			for i := range n {
				n[i] = chars[r.IntN(len(chars))]
			}
			return string(n)
		}
		number := func(p string) string { return fmt.Sprintf("%s%04d-%03d", p, 2020+r.IntN(7), r.IntN(1000)) }
		idNumber := func() string {
			switch r.IntN(4) {
			case 0:
				return `{}`
			case 1:
				return fmt.Sprintf(`{"id_number":"33021219%02d0115%03dx"}`, 70+r.IntN(30), r.IntN(1000))
			case 2:
				return fmt.Sprintf(`{"id_number":"E%07d","name":"x"}`, r.IntN(10000000))
			}
			return fmt.Sprintf(`{"id_number":"港%d王"}`, r.IntN(100))
		}
		var ids []int64
		queries := []string{"王", "伟", "a", "B", "1", "王伟", "明州", "李王", "ab", "-0", "州人", "王李张", "TP2025", "bl2023", "020-",
			"3302", "0115", "x", "E12", "港1", "1王", "人民医院", "hospital", "HOSP", "东湖 h", "Q", "É", "_", "%"}
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := d.ExecContext(ctx, d.Rebind(q), args...); err != nil {
				t.Fatal(err)
			}
		}
		defaultCap := matchedCap
		defer func() { matchedCap = defaultCap }()
		like := "LIKE"
		idExpr := "json_extract(c.case_data, '$.id_number')"
		if d.Dialect == db.Postgres {
			like, idExpr = "ILIKE", "(c.case_data::jsonb ->> 'id_number')"
		}
		for round := range 5 {
			for range 60 {
				switch k := r.IntN(12); {
				case k < 4 || len(ids) == 0:
					var id int64
					if err := d.GetContext(ctx, &id, d.Rebind(`INSERT INTO consultations (hospital_id, user_id, consult_no, pathology_number, patient_name, case_data, created_at, updated_at)
						VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), hospitals[r.IntN(len(hospitals))], user, number("TP"), number("BL"), name(), idNumber(), now, now); err != nil {
						t.Fatal(err)
					}
					ids = append(ids, id)
				case k < 6:
					id := ids[r.IntN(len(ids))]
					switch r.IntN(4) {
					case 0:
						exec("UPDATE consultations SET patient_name = ? WHERE id = ?", name(), id)
					case 1:
						exec("UPDATE consultations SET consult_no = ?, pathology_number = ? WHERE id = ?", number("TP"), number(string(chars[r.IntN(len(chars))])), id)
					default:
						exec("UPDATE consultations SET case_data = ? WHERE id = ?", idNumber(), id)
					}
				case k < 9: // a transition: state columns only
					exec("UPDATE consultations SET status = ?, is_recall = ?, expert_id = ? WHERE id = ?", []int{0, 1, 2, 4}[r.IntN(4)], r.IntN(3), []any{nil, user}[r.IntN(2)], ids[r.IntN(len(ids))])
				case k < 10:
					exec("UPDATE hospitals SET name = ? WHERE id = ?", hospitalNames[r.IntN(len(hospitalNames))]+name(), hospitals[r.IntN(len(hospitals))])
				default:
					i := r.IntN(len(ids))
					exec("DELETE FROM consultations WHERE id = ?", ids[i])
					ids = slices.Delete(ids, i, i+1)
				}
			}
			for _, text := range queries {
				p := listquery.LikePattern(text)
				base := fmt.Sprintf(`SELECT c.id FROM consultations c JOIN hospitals h ON h.id = c.hospital_id
					WHERE (c.consult_no %[1]s ? ESCAPE '\' OR c.pathology_number %[1]s ? ESCAPE '\' OR c.patient_name %[1]s ? ESCAPE '\'
					OR %[2]s %[1]s ? ESCAPE '\' OR h.name %[1]s ? ESCAPE '\')`, like, idExpr)
				// On PostgreSQL with the matching cases named and as subqueries,
				// sorted by a searched column or not (see postgresParse).
				for _, v := range []struct {
					cap  int
					sort string
				}{{defaultCap, ""}, {0, ""}, {0, `{"patient_name":"asc"}`}} {
					cap := v.cap
					if cap == 0 && d.Dialect != db.Postgres {
						continue
					}
					matchedCap = cap
					q, err := parseList(ctx, d, listquery.Request{Search: text, SortBy: v.sort})
					if err != nil {
						t.Fatal(err)
					}
					for _, tab := range []string{"1=1", "c.status = 4", "c.status = 1 AND c.expert_id IS NOT NULL AND c.is_recall = 0"} {
						var want, got []int64
						if err := d.SelectContext(ctx, &want, d.Rebind(base+" AND "+tab+" ORDER BY c.id"), p, p, p, p, p); err != nil {
							t.Fatal(err)
						}
						if err := db.Select(ctx, d, &got, d.Builder().Select("c.id").From("consultations c").Where(q.Where).Where(tab).OrderBy("c.id")); err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(want, got) {
							t.Fatalf("round %d, %q, %s, %v: LIKE finds %v, the search %v", round, text, tab, v, want, got)
						}
						var n int
						if err := db.Get(ctx, d, &n, q.ApplyCount(d.Builder().Select("COUNT(*)").From("consultations c")).Where(tab)); err != nil {
							t.Fatal(err)
						}
						if n != len(want) {
							t.Fatalf("round %d, %q, %s, %v: count %d, LIKE finds %d", round, text, tab, v, n, len(want))
						}
					}
				}
			}
		}
		// The indexes serve these texts: not a LIKE over the table (on
		// PostgreSQL a text of three characters or more is one id set read
		// by the trigram indexes, not an OR in the list's WHERE).
		for _, text := range []string{"王", "王伟", "3302", "hospital"} {
			if c := searchIndex(d.Dialect, text); c == nil {
				t.Errorf("%s %q: index condition %v", d.Dialect, text, c)
			}
		}
	})
}
