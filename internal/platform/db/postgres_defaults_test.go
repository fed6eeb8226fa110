package db_test

import (
	"context"
	"testing"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// The server's PostgreSQL sessions run without parallel query unless the
// URL says otherwise (see postgresDefaults).
func TestPostgresSessionDefaults(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		if d.Dialect != db.Postgres {
			t.Skip("PostgreSQL only")
		}
		var workers string
		if err := d.GetContext(context.Background(), &workers, "SHOW max_parallel_workers_per_gather"); err != nil {
			t.Fatal(err)
		}
		if workers != "0" {
			t.Errorf("max_parallel_workers_per_gather = %s, want 0", workers)
		}
	})
}
