package consultation

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// TestTimeoutTabAtTheBound: the timeout tab holds the open cases whose
// time limit is strictly past, whatever form the dialect writes it in
// (timedOut): not a limit at now, not an unset one, not a closed or
// recalled case's.
func TestTimeoutTabAtTheBound(t *testing.T) {
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
		var want []int64
		limits := []*time.Time{nil, ptr(now.Add(-time.Hour)), ptr(now.Add(-time.Microsecond)), ptr(now), ptr(now.Add(time.Microsecond)), ptr(now.Add(time.Hour))}
		for i, limit := range limits {
			for _, c := range []struct{ status, recall int }{{1, 0}, {2, 0}, {4, 0}, {0, 0}, {1, 1}, {2, 2}} {
				var id int64
				if err := d.GetContext(ctx, &id, d.Rebind(`INSERT INTO consultations (hospital_id, user_id, consult_no, patient_name, status, is_recall, timeout_at, created_at, updated_at)
					VALUES (?, ?, ?, 'P', ?, ?, ?, ?, ?) RETURNING id`), hospital, user, fmt.Sprintf("TP%d-%d-%d", i, c.status, c.recall), c.status, c.recall, limit, now, now); err != nil {
					t.Fatal(err)
				}
				if limit != nil && limit.Before(now) && (c.status == 1 || c.status == 2) && c.recall == 0 {
					want = append(want, id)
				}
			}
		}
		var got []int64
		b := d.Builder().Select("c.id").From("consultations c").Where(tabsOn(now, "c", d.Dialect)["timeout"]).OrderBy("c.id")
		if err := db.Select(ctx, d, &got, b); err != nil {
			t.Fatal(err)
		}
		if len(want) != 4 || !slices.Equal(want, got) {
			t.Fatalf("%s: timeout tab %v, want %v", d.Dialect, got, want)
		}
	})
}

func ptr[T any](v T) *T { return &v }
