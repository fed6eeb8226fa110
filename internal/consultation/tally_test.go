package consultation_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// TestTalliesFollowEveryWrite makes 2,000 random writes to cases (new
// cases, state changes of every tallied column, soft and hard deletes,
// rolled-back transactions), 50 to a transaction, and checks after every
// transaction that the tallies the triggers keep equal COUNT(*) of the
// rows, group by group: 40 comparisons, where a wrong count is seen before
// later writes to its group can hide it.
func TestTalliesFollowEveryWrite(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		ins := func(q string, args ...any) int64 {
			var id int64
			if err := d.GetContext(ctx, &id, d.Rebind(q+" RETURNING id"), args...); err != nil {
				t.Fatal(err)
			}
			return id
		}
		var hospitals, centers, users []int64
		for i := range 3 {
			hospitals = append(hospitals, ins("INSERT INTO hospitals (name, created_at, updated_at) VALUES (?, ?, ?)", fmt.Sprint("H", i), now, now))
			centers = append(centers, ins("INSERT INTO centers (name, created_at, updated_at) VALUES (?, ?, ?)", fmt.Sprint("C", i), now, now))
			users = append(users, ins("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES (?, 'x', ?, ?)", fmt.Sprint("u", i), now, now))
		}
		r := rand.New(rand.NewPCG(1, 2))
		pick := func(l []int64) any {
			if r.IntN(4) == 0 {
				return nil
			}
			return l[r.IntN(len(l))]
		}
		check := func(ops int) {
			t.Helper()
			type group struct {
				Key string `db:"k"`
				N   int64  `db:"n"`
			}
			load := func(q string) map[string]int64 {
				var gs []group
				if err := d.SelectContext(ctx, &gs, q); err != nil {
					t.Fatal(err)
				}
				m := map[string]int64{}
				for _, g := range gs {
					if g.N != 0 {
						m[g.Key] = g.N
					}
				}
				return m
			}
			concat := "CAST(hospital_id AS TEXT) || '/' || CAST(COALESCE(center_id, 0) AS TEXT) || '/' || CAST(COALESCE(expert_id, 0) AS TEXT) || '/' || CAST(status AS TEXT) || '/' || CAST(is_draft AS TEXT) || '/' || CAST(is_recall AS TEXT) || '/' || CAST(is_return AS TEXT) || '/' || CAST(is_lock AS TEXT) || '/' || CAST(supplement_review AS TEXT) || '/' || CAST(print_deliver_status AS TEXT) || '/' || CASE WHEN deleted_at IS NULL THEN '0' ELSE '1' END"
			rows := load("SELECT " + concat + " AS k, COUNT(*) AS n FROM consultations GROUP BY 1")
			tallies := load("SELECT " + concat + " AS k, SUM(n) AS n FROM consultation_tallies GROUP BY 1")
			if len(rows) == 0 {
				t.Fatal("no cases")
			}
			if fmt.Sprint(rows) != fmt.Sprint(tallies) {
				t.Fatalf("after %d writes, tallies differ from the rows:\nrows    %v\ntallies %v", ops, rows, tallies)
			}
		}
		var ids []int64
		ops := 0
		for ops < 2_000 {
			tx, err := d.BeginTxx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			for range 50 {
				ops++
				switch k := r.IntN(10); {
				case k < 3 || len(ids) == 0:
					var id int64
					err = tx.GetContext(ctx, &id, d.Rebind(`INSERT INTO consultations (hospital_id, center_id, user_id, expert_id, status, is_draft, created_at, updated_at)
						VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), hospitals[r.IntN(3)], pick(centers), users[0], pick(users), r.IntN(5), r.IntN(2), now, now)
					ids = append(ids, id)
				case k < 8:
					col := []string{"hospital_id", "center_id", "expert_id", "status", "is_draft", "is_recall", "is_return", "is_lock",
						"supplement_review", "print_deliver_status", "deleted_at", "patient_name"}[r.IntN(12)]
					var v any
					switch col {
					case "hospital_id":
						v = hospitals[r.IntN(3)]
					case "center_id":
						v = pick(centers)
					case "expert_id":
						v = pick(users)
					case "deleted_at":
						if r.IntN(2) == 0 {
							v = now
						}
					case "patient_name":
						v = "王"
					default:
						v = r.IntN(4) - 1
					}
					_, err = tx.ExecContext(ctx, d.Rebind("UPDATE consultations SET "+col+" = ? WHERE id = ?"), v, ids[r.IntN(len(ids))])
				default:
					i := r.IntN(len(ids))
					_, err = tx.ExecContext(ctx, d.Rebind("DELETE FROM consultations WHERE id = ?"), ids[i])
					ids = append(ids[:i], ids[i+1:]...)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if ops%1000 == 500 {
				tx.Rollback() // a transaction that fails changes no tally
				var have []int64
				if err := d.SelectContext(ctx, &have, "SELECT id FROM consultations ORDER BY id"); err != nil {
					t.Fatal(err)
				}
				ids = have
				continue
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			check(ops)
		}
	})
}

// TestTalliesDoNotDeadlock moves cases between the same two tallies in
// opposite directions from two connections at once; the triggers lock the
// tally rows in key order, so no transaction is chosen as a deadlock victim.
func TestTalliesDoNotDeadlock(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		var hospital, user int64
		if err := d.GetContext(ctx, &hospital, d.Rebind("INSERT INTO hospitals (name, created_at, updated_at) VALUES ('H', ?, ?) RETURNING id"), now, now); err != nil {
			t.Fatal(err)
		}
		if err := d.GetContext(ctx, &user, d.Rebind("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('u', 'x', ?, ?) RETURNING id"), now, now); err != nil {
			t.Fatal(err)
		}
		var cases [2]int64
		for i := range cases {
			if err := d.GetContext(ctx, &cases[i], d.Rebind(`INSERT INTO consultations (hospital_id, user_id, status, is_lock, created_at, updated_at)
				VALUES (?, ?, 1, ?, ?, ?) RETURNING id`), hospital, user, i, now, now); err != nil {
				t.Fatal(err)
			}
		}
		errs := make(chan error, 2)
		for i, id := range cases {
			go func() {
				for n := range 300 {
					// Case 0 goes 0→1→0…, case 1 goes 1→0→1…: always opposite.
					lock := (i + n + 1) % 2
					if err := d.InTx(ctx, func(tx *db.Tx) error {
						_, err := tx.ExecContext(ctx, tx.Rebind("UPDATE consultations SET is_lock = ? WHERE id = ?"), lock, id)
						return err
					}); err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		for range cases {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		var total int64
		if err := d.GetContext(ctx, &total, "SELECT SUM(n) FROM consultation_tallies"); err != nil || total != 2 {
			t.Fatalf("tallies sum to %d (%v), want 2", total, err)
		}
	})
}
