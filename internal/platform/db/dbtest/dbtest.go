// Package dbtest opens fresh, migrated test databases: always SQLite, and
// PostgreSQL too when TELEPATH_TEST_POSTGRES_URL is set.
package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"telepath/internal/platform/db"
	"telepath/migrations"
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
		d, err := db.Open(ctx, "", SQLiteDir(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	return OpenPostgres(t, URL(t))
}

// SQLiteDir returns a new data directory, removed at cleanup, that holds an
// already migrated SQLite database: a copy of a template migrated once per
// schema. Running the migrations took a fifth of the CPU of the app's tests.
func SQLiteDir(t testing.TB) string {
	t.Helper()
	tmpl, err := sqliteTemplate()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := copyFile(tmpl, filepath.Join(dir, "telepath.db")); err != nil {
		t.Fatal(err)
	}
	return dir
}

var (
	sqliteOnce sync.Once
	sqliteName string
	sqliteErr  error
)

// sqliteTemplate returns the path of a migrated database file, named by the
// migrations' content and shared, like the PostgreSQL template, by test
// processes and later runs.
func sqliteTemplate() (string, error) {
	sqliteOnce.Do(func() { sqliteName, sqliteErr = makeSQLiteTemplate() })
	return sqliteName, sqliteErr
}

func makeSQLiteTemplate() (string, error) {
	sum, err := migrationsSum()
	if err != nil {
		return "", err
	}
	name := filepath.Join(os.TempDir(), "telepath-test-"+sum+".db")
	if _, err := os.Stat(name); err == nil {
		return name, nil
	}
	draft, err := os.MkdirTemp("", "telepath-test-draft-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(draft)
	d, err := db.Open(context.Background(), "", draft)
	if err != nil {
		return "", err
	}
	// Everything into the main file, so that the file alone is the database.
	_, err = d.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	// Published by a rename: a process never copies a half-written template.
	return name, os.Rename(filepath.Join(draft, "telepath.db"), name)
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}

// URL returns the URL of a new PostgreSQL database, already migrated and
// dropped at cleanup. Each is a copy of a migrated template: copying takes a
// quarter of the time of running the migrations again.
func URL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("TELEPATH_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("TELEPATH_TEST_POSTGRES_URL not set")
	}
	tmpl, err := migratedTemplate(base)
	if err != nil {
		t.Fatal(err)
	}
	name := "t_" + randomHex()
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("CREATE DATABASE " + name + " TEMPLATE " + tmpl); err != nil {
		admin.Close()
		t.Fatal(err)
	}
	// A test database is thrown away, never recovered after a crash: its
	// commits need not wait for the WAL to reach the disk. What a
	// transaction sees, locks and rolls back is unchanged.
	if _, err := admin.Exec("ALTER DATABASE " + name + " SET synchronous_commit = off"); err != nil {
		admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		admin.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		admin.Close()
	})
	return withDatabase(t, base, name)
}

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// migratedTemplate returns a database with every migration applied and no
// open connection, to copy from. It is named by the migrations' content, so
// test processes and later runs share it until a migration changes.
func migratedTemplate(base string) (string, error) {
	templateOnce.Do(func() { templateName, templateErr = makeTemplate(base) })
	return templateName, templateErr
}

func makeTemplate(base string) (string, error) {
	sum, err := migrationsSum()
	if err != nil {
		return "", err
	}
	name := "tmpl_" + sum
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	var exists bool
	if err := admin.Get(&exists, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name); err != nil || exists {
		return name, err
	}
	// Migrated under a name of its own, then renamed: a process that loses
	// the race to publish it drops its copy and uses the winner's.
	draft := "draft_" + randomHex()
	if _, err := admin.Exec("CREATE DATABASE " + draft); err != nil {
		return "", err
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u.Path = "/" + draft
	d, err := db.Open(context.Background(), u.String(), "")
	if err != nil {
		admin.Exec("DROP DATABASE IF EXISTS " + draft + " WITH (FORCE)")
		return "", err
	}
	d.Close()
	if _, err := admin.Exec("ALTER DATABASE " + draft + " RENAME TO " + name); err != nil {
		admin.Exec("DROP DATABASE IF EXISTS " + draft + " WITH (FORCE)")
		if err := admin.Get(&exists, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name); err != nil || !exists {
			return "", fmt.Errorf("dbtest: publish template: %w", err)
		}
	}
	return name, nil
}

// migrationsSum names the schema the migrations make.
func migrationsSum() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, p)
		h.Write([]byte(p))
		h.Write(b)
		return err
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

func withDatabase(t testing.TB, base, name string) string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

func randomHex() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
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
