package db_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// 50 concurrent writers (each a transaction of several statements, and a
// plain statement besides) all succeed: writers queue rather than fail
// with "database is locked". SQLite's busy_timeout is cut to 100 ms here,
// so that writers left to SQLite's busy handler would fail at once, not
// after the production 10 s. The 99th percentile is logged.
func TestConcurrentWriters(t *testing.T) {
	for _, dialect := range dbtest.Dialects() {
		t.Run(string(dialect), func(t *testing.T) {
			d := dbtest.Open(t, dialect)
			if dialect == db.SQLite {
				var err error
				d, err = db.Open(context.Background(), filepath.Join(t.TempDir(), "w.db")+"?_pragma=busy_timeout(100)", "")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { d.Close() })
			}
			concurrentWriters(t, d)
		})
	}
}

func concurrentWriters(t *testing.T, d *db.DB) {
	{
		ctx := context.Background()
		const writers, rounds = 50, 4
		var wg sync.WaitGroup
		var mu sync.Mutex
		var lat []time.Duration
		var errs []error
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range rounds {
					start := time.Now()
					now := time.Now().UTC()
					err := d.InTx(ctx, func(tx *db.Tx) error {
						var n int
						if err := db.Get(ctx, tx, &n, tx.Builder().Select("COUNT(*)").From("centers")); err != nil {
							return err
						}
						for k := range 5 {
							if _, err := db.Exec(ctx, tx, tx.Builder().Insert("centers").Columns("name", "created_at", "updated_at").
								Values(fmt.Sprintf("w%d-r%d-%d", w, r, k), now, now)); err != nil {
								return err
							}
						}
						time.Sleep(5 * time.Millisecond) // work done inside the transaction
						return nil
					})
					if err == nil {
						_, err = db.Exec(ctx, d, d.Builder().Update("centers").Set("updated_at", now).Where("name = ?", fmt.Sprintf("w%d-r%d-0", w, r)))
					}
					mu.Lock()
					lat = append(lat, time.Since(start))
					if err != nil {
						errs = append(errs, err)
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(errs) > 0 {
			t.Fatalf("%d of %d writes failed, e.g. %v", len(errs), writers*rounds, errs[0])
		}
		var n int
		if err := d.Get(&n, "SELECT COUNT(*) FROM centers"); err != nil || n != writers*rounds*5 {
			t.Fatalf("%d rows, %v", n, err)
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		t.Logf("%d writers × %d: p50 %v, p99 %v, max %v", writers, rounds, lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1])
	}
}
