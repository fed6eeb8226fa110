package db_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// Two transactions update the same two rows in opposite orders, each
// holding its first row until the other holds its own: PostgreSQL aborts
// one as a deadlock victim (40P01). InTx runs the victim's fn again in a
// new transaction, and both succeed: each fn ran to its commit once, each
// failed attempt's rollback work ran and its after-commit work did not,
// and each row has both changes, once.
func TestInTxRunsADeadlockVictimAgain(t *testing.T) {
	d := dbtest.Open(t, db.Postgres)
	ctx := context.Background()
	now := time.Now().UTC()
	var rows [2]int64
	for i, name := range []string{"A", "B"} {
		if err := d.GetContext(ctx, &rows[i], "INSERT INTO centers (name, created_at, updated_at) VALUES ($1, $2, $2) RETURNING id", name, now); err != nil {
			t.Fatal(err)
		}
	}
	retries := db.Retries()
	var holding sync.WaitGroup
	holding.Add(2)
	var attempts, committed, undone [2]atomic.Int32
	errs := make(chan error, 2)
	for i := range 2 {
		go func() {
			first, second := rows[i], rows[1-i]
			mark := []string{"0", "1"}[i]
			errs <- d.InTx(ctx, func(tx *db.Tx) error {
				n := attempts[i].Add(1)
				tx.AfterCommit(func() { committed[i].Add(1) })
				tx.OnRollback(func() { undone[i].Add(1) })
				if _, err := tx.ExecContext(ctx, "UPDATE centers SET name = name || $1 WHERE id = $2", mark, first); err != nil {
					return err
				}
				if n == 1 {
					holding.Done()
					holding.Wait()
				}
				_, err := tx.ExecContext(ctx, "UPDATE centers SET name = name || $1 WHERE id = $2", mark, second)
				return err
			})
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a transaction failed: %v (deadlock: %v)", err, db.Retryable(err))
		}
	}
	// The victim ran again at least once; on a loaded machine a retry may
	// meet the other transaction still holding its rows and be a victim
	// again. Each failed attempt's rollback work ran, no after-commit work
	// but the committed attempt's.
	a, b := attempts[0].Load(), attempts[1].Load()
	if a+b < 3 {
		t.Errorf("fn ran %d and %d times, want the victim at least twice", a, b)
	}
	if u, v := undone[0].Load(), undone[1].Load(); u != a-1 || v != b-1 {
		t.Errorf("rollback work ran %d and %d times for %d and %d attempts, want once per failed attempt", u, v, a, b)
	}
	if a, b := committed[0].Load(), committed[1].Load(); a != 1 || b != 1 {
		t.Errorf("after-commit work ran %d and %d times, want once each", a, b)
	}
	if n := db.Retries() - retries; n < int64(a+b-2) {
		t.Errorf("%d retries counted, want at least %d", n, a+b-2)
	}
	for i, id := range rows {
		var name string
		if err := d.GetContext(ctx, &name, "SELECT name FROM centers WHERE id = $1", id); err != nil {
			t.Fatal(err)
		}
		if len(name) != 3 || name[0] != "AB"[i] || name[1:] != "01" && name[1:] != "10" {
			t.Errorf("row %d is %q, want each transaction's mark once", i, name)
		}
	}
}

// Other errors are not retried: fn runs once.
func TestInTxDoesNotRetryOtherErrors(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		runs := 0
		boom := errors.New("boom")
		if err := d.InTx(ctx, func(tx *db.Tx) error { runs++; return boom }); !errors.Is(err, boom) || runs != 1 {
			t.Fatalf("err %v after %d runs", err, runs)
		}
		runs = 0
		err := d.InTx(ctx, func(tx *db.Tx) error {
			runs++
			_, err := tx.ExecContext(ctx, "INSERT INTO no_such_table VALUES (1)")
			return err
		})
		if err == nil || db.Retryable(err) || runs != 1 {
			t.Fatalf("err %v after %d runs", err, runs)
		}
	})
}
