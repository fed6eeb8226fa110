package settings

import (
	"context"
	"fmt"
	"time"

	"telepath/internal/platform/db"
)

// The settings domain owns the settings table. Other domains keep their own
// keys in it (shared secrets, signing keys) through the functions below.

// Value returns the stored value of key; the error wraps sql.ErrNoRows when
// there is none.
func Value(ctx context.Context, q db.Runner, key string) (string, error) {
	var v string
	if err := db.Get(ctx, q, &v, q.Builder().Select("value").From("settings").Where("key = ?", key)); err != nil {
		return "", fmt.Errorf("setting %s: %w", key, err)
	}
	return v, nil
}

// Create stores the first value of key; a value already there (another
// process came first) stays.
func Create(ctx context.Context, q db.Runner, key, value string, now time.Time) error {
	_, err := db.Exec(ctx, q, q.Builder().Insert("settings").Columns("key", "value", "updated_at").
		Values(key, value, now).Suffix("ON CONFLICT (key) DO NOTHING"))
	return err
}

// Swap replaces the value of key when it is still old (compare-and-set); it
// reports whether it did.
func Swap(ctx context.Context, q db.Runner, key, old, value string, now time.Time) (bool, error) {
	res, err := db.Exec(ctx, q, q.Builder().Update("settings").Set("value", value).Set("updated_at", now).
		Where("key = ? AND value = ?", key, old))
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
