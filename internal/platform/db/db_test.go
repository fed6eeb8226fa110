package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

func TestMigrateAndTx(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		// Migrating twice is a no-op.
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC()
		t.Run("RollbackOnError", func(t *testing.T) {
			boom := errors.New("boom")
			err := d.InTx(ctx, func(tx *db.Tx) error {
				_, err := db.Exec(ctx, tx, tx.Builder().Insert("centers").Columns("name", "created_at", "updated_at").Values("A", now, now))
				if err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v", err)
			}
			var n int
			if err := d.Get(&n, "SELECT COUNT(*) FROM centers"); err != nil || n != 0 {
				t.Fatalf("rows after rollback = %d, %v", n, err)
			}
		})
		t.Run("OnRollback", func(t *testing.T) {
			var undone []string
			d.InTx(ctx, func(tx *db.Tx) error {
				tx.OnRollback(func() { undone = append(undone, "first") })
				tx.OnRollback(func() { undone = append(undone, "second") })
				return errors.New("boom")
			})
			if len(undone) != 2 || undone[0] != "second" {
				t.Fatalf("undone on rollback: %v", undone)
			}
			undone = nil
			if err := d.InTx(ctx, func(tx *db.Tx) error {
				tx.OnRollback(func() { undone = append(undone, "committed") })
				return nil
			}); err != nil || len(undone) != 0 {
				t.Fatalf("undone after a commit: %v %v", undone, err)
			}
		})
		t.Run("InsertIDAndTime", func(t *testing.T) {
			var id int64
			err := d.InTx(ctx, func(tx *db.Tx) error {
				var err error
				id, err = db.InsertID(ctx, tx, tx.Builder().Insert("centers").Columns("name", "created_at", "updated_at").Values("B", now, now))
				return err
			})
			if err != nil || id == 0 {
				t.Fatalf("id=%d err=%v", id, err)
			}
			var got time.Time
			if err := db.Get(ctx, d, &got, d.Builder().Select("created_at").From("centers").Where("id = ?", id)); err != nil {
				t.Fatal(err)
			}
			if !got.Equal(now.Truncate(time.Microsecond)) && !got.Equal(now) {
				t.Fatalf("time round trip: %v != %v", got, now)
			}
		})
	})
}
