// Package db opens the database (embedded SQLite or PostgreSQL), runs the
// migrations and provides transactions and a dialect-aware query builder.
package db

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite" // registers "sqlite"
)

// Dialect names the SQL flavour in use.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DB is the application's database handle.
type DB struct {
	*sqlx.DB
	Dialect Dialect
}

// Open connects to url (empty: SQLite file in dataDir) and runs the migrations.
func Open(ctx context.Context, rawURL, dataDir string) (*DB, error) {
	d, err := open(rawURL, dataDir)
	if err != nil {
		return nil, err
	}
	if err := d.PingContext(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("db: connect: %w", err)
	}
	if err := d.Migrate(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func open(rawURL, dataDir string) (*DB, error) {
	if strings.HasPrefix(rawURL, "postgres://") || strings.HasPrefix(rawURL, "postgresql://") {
		x, err := sqlx.Open("pgx", rawURL)
		if err != nil {
			return nil, fmt.Errorf("db: open postgres: %w", err)
		}
		x.SetMaxOpenConns(20)
		x.SetMaxIdleConns(10)
		x.SetConnMaxIdleTime(5 * time.Minute)
		x.Mapper = mapper()
		return &DB{DB: x, Dialect: Postgres}, nil
	}
	path := rawURL
	if path == "" {
		if err := os.MkdirAll(dataDir, 0o750); err != nil {
			return nil, fmt.Errorf("db: data dir: %w", err)
		}
		path = filepath.Join(dataDir, "telepath.db")
	}
	path = strings.TrimPrefix(path, "sqlite://")
	// busy_timeout first so the other pragmas wait for locks; immediate
	// transactions serialise writers up front instead of failing on upgrade.
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(ON)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	x, err := sqlx.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("db: open sqlite: %w", err)
	}
	x.SetMaxOpenConns(8)
	x.SetMaxIdleConns(8)
	x.SetConnMaxIdleTime(0)
	x.Mapper = mapper()
	return &DB{DB: x, Dialect: SQLite}, nil
}

// Builder returns a squirrel builder with the dialect's placeholders.
func (d *DB) Builder() sq.StatementBuilderType {
	if d.Dialect == Postgres {
		return sq.StatementBuilder.PlaceholderFormat(sq.Dollar)
	}
	return sq.StatementBuilder.PlaceholderFormat(sq.Question)
}

// InTx runs fn in one transaction, committing when fn returns nil.
func (d *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	x, err := d.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	defer x.Rollback() //nolint:errcheck // no-op after commit
	if err := fn(&Tx{Tx: x, Dialect: d.Dialect}); err != nil {
		return err
	}
	if err := x.Commit(); err != nil {
		return fmt.Errorf("db: commit: %w", err)
	}
	return nil
}

// Tx is a transaction that knows its dialect.
type Tx struct {
	*sqlx.Tx
	Dialect Dialect
}

// Builder returns a squirrel builder with the dialect's placeholders.
func (t *Tx) Builder() sq.StatementBuilderType {
	return (&DB{Dialect: t.Dialect}).Builder()
}

// Querier is what both *DB and *Tx offer for reads and writes.
type Querier interface {
	sqlx.ExtContext
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
}

// Get runs a squirrel query and scans one row into dest.
func Get(ctx context.Context, q Querier, dest any, b sq.Sqlizer) error {
	s, args, err := b.ToSql()
	if err != nil {
		return fmt.Errorf("db: build: %w", err)
	}
	return q.GetContext(ctx, dest, s, args...)
}

// Select runs a squirrel query and scans all rows into dest.
func Select(ctx context.Context, q Querier, dest any, b sq.Sqlizer) error {
	s, args, err := b.ToSql()
	if err != nil {
		return fmt.Errorf("db: build: %w", err)
	}
	return q.SelectContext(ctx, dest, s, args...)
}

// Exec runs a squirrel statement.
func Exec(ctx context.Context, q Querier, b sq.Sqlizer) (sql.Result, error) {
	s, args, err := b.ToSql()
	if err != nil {
		return nil, fmt.Errorf("db: build: %w", err)
	}
	return q.ExecContext(ctx, s, args...)
}

// InsertID runs an INSERT … RETURNING id and returns the new id.
func InsertID(ctx context.Context, q Querier, b sq.InsertBuilder) (int64, error) {
	var id int64
	err := Get(ctx, q, &id, b.Suffix("RETURNING id"))
	return id, err
}

// Like returns the case-insensitive LIKE operator of the dialect.
func (d Dialect) Like() string {
	if d == Postgres {
		return "ILIKE"
	}
	return "LIKE"
}
