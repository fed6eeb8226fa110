// Package dbtest opens fresh, migrated test databases: always SQLite, and
// PostgreSQL too when TELEPATH_TEST_POSTGRES_URL is set.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"telepath/internal/platform/db"
)

// Each runs fn once per available dialect, each with a fresh database.
func Each(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	for _, dialect := range Dialects() {
		t.Run(string(dialect), func(t *testing.T) { fn(t, Open(t, dialect)) })
	}
}

// Dialects lists the dialects this test run covers.
func Dialects() []db.Dialect {
	if os.Getenv("TELEPATH_TEST_POSTGRES_URL") != "" {
		return []db.Dialect{db.SQLite, db.Postgres}
	}
	return []db.Dialect{db.SQLite}
}

// Open returns a fresh migrated database of the dialect, dropped at cleanup.
func Open(t testing.TB, dialect db.Dialect) *db.DB {
	t.Helper()
	ctx := context.Background()
	if dialect == db.SQLite {
		d, err := db.Open(ctx, "", filepath.Join(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	return OpenPostgres(t, URL(t))
}

// URL returns a PostgreSQL URL on a new, empty schema that is dropped at cleanup.
var extensions sync.Once

func URL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("TELEPATH_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("TELEPATH_TEST_POSTGRES_URL not set")
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	// Extensions live in public, outside the schemas the tests drop; the
	// migrations create them there too (IF NOT EXISTS), so make them once
	// here rather than from concurrent migrations.
	extensions.Do(func() { admin.Exec("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public") })
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// OpenPostgres opens and migrates the database at rawURL, closed at cleanup.
func OpenPostgres(t testing.TB, rawURL string) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), rawURL, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
