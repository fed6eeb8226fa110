package consultation_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// TestSearchIndexFollowsEveryWrite changes cases at random (new cases,
// changed numbers and names, state changes, deletes) and checks after each
// round that the SQLite trigram index finds exactly the cases LIKE finds.
func TestSearchIndexFollowsEveryWrite(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var hospital, user int64
	if err := d.GetContext(ctx, &hospital, "INSERT INTO hospitals (name, created_at, updated_at) VALUES ('H', ?, ?) RETURNING id", now, now); err != nil {
		t.Fatal(err)
	}
	if err := d.GetContext(ctx, &user, "INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('u', 'x', ?, ?) RETURNING id", now, now); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	names := []rune("王李张刘陈杨黄赵吴周伟芳娜敏静")
	name := func() string {
		n := make([]rune, 2+r.IntN(2))
		for i := range n {
			n[i] = names[r.IntN(len(names))]
		}
		return string(n)
	}
	number := func(p string) string { return fmt.Sprintf("%s%04d-%03d", p, 2020+r.IntN(7), r.IntN(1000)) }
	var ids []int64
	queries := []string{"王李张", "2024-1", "TP2025", "bl2023", "020-", "伟芳娜", "0-0", "李王张", "敏静王"}
	for round := range 6 {
		for range 50 {
			switch k := r.IntN(10); {
			case k < 4 || len(ids) == 0:
				var id int64
				if err := d.GetContext(ctx, &id, `INSERT INTO consultations (hospital_id, user_id, consult_no, pathology_number, patient_name, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, hospital, user, number("TP"), number("BL"), name(), now, now); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			case k < 6:
				col, v := []string{"consult_no", "pathology_number", "patient_name"}[r.IntN(3)], name()
				if col != "patient_name" {
					v = number("BL")
				}
				if _, err := d.ExecContext(ctx, "UPDATE consultations SET "+col+" = ? WHERE id = ?", v, ids[r.IntN(len(ids))]); err != nil {
					t.Fatal(err)
				}
			case k < 8: // a transition: state columns only
				if _, err := d.ExecContext(ctx, "UPDATE consultations SET status = ?, is_recall = ? WHERE id = ?", r.IntN(5), r.IntN(3), ids[r.IntN(len(ids))]); err != nil {
					t.Fatal(err)
				}
			default:
				i := r.IntN(len(ids))
				if _, err := d.ExecContext(ctx, "DELETE FROM consultations WHERE id = ?", ids[i]); err != nil {
					t.Fatal(err)
				}
				ids = slices.Delete(ids, i, i+1)
			}
		}
		for _, q := range queries {
			var like, fts []int64
			p := "%" + q + "%"
			if err := d.SelectContext(ctx, &like, "SELECT id FROM consultations WHERE consult_no LIKE ? OR pathology_number LIKE ? OR patient_name LIKE ? ORDER BY id", p, p, p); err != nil {
				t.Fatal(err)
			}
			if err := d.SelectContext(ctx, &fts, "SELECT rowid FROM consultations_search WHERE consultations_search MATCH ? ORDER BY rowid", `"`+q+`"`); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(like, fts) {
				t.Fatalf("round %d, %q: LIKE finds %v, the index %v", round, q, like, fts)
			}
		}
	}
}
