package settings

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// Other domains keep their keys in the settings table through Value,
// Create and Swap.
func TestStoredKeys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
		if _, err := Value(ctx, d, "k"); !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("missing key: %v, want sql.ErrNoRows", err)
		}
		if err := Create(ctx, d, "k", `"first"`, now); err != nil {
			t.Fatal(err)
		}
		if err := Create(ctx, d, "k", `"second"`, now); err != nil {
			t.Fatal(err)
		}
		if v, err := Value(ctx, d, "k"); err != nil || v != `"first"` {
			t.Fatalf("after two creates: %q, %v; the first stays", v, err)
		}
		if ok, err := Swap(ctx, d, "k", `"stale"`, `"next"`, now); err != nil || ok {
			t.Fatalf("swap from a stale value: %v, %v; want refused", ok, err)
		}
		err := d.InTx(ctx, func(tx *db.Tx) error {
			ok, err := Swap(ctx, tx, "k", `"first"`, `"next"`, now)
			if err == nil && !ok {
				t.Error("swap from the current value refused")
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := Value(ctx, d, "k"); v != `"next"` {
			t.Fatalf("after the swap: %q", v)
		}
	})
}
