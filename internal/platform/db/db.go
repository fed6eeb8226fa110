// Package db opens the database (embedded SQLite or PostgreSQL), runs the
// migrations and provides transactions and a dialect-aware query builder.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite" // registers "sqlite"
	sqlite3 "modernc.org/sqlite/lib"
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
	// writer lets one write (transaction or statement) at a time into
	// SQLite, in arrival order; nil on PostgreSQL. SQLite allows one writer
	// anyway, and its busy handler polls unfairly: under load some writers
	// waited out busy_timeout and failed with "database is locked".
	writer chan struct{}
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

// postgresDefaults are the session settings of the server's connections
// unless the URL names them (pgx sends a URL's other parameters as run-time
// parameters). Parallel query is off: the server answers many short
// requests at once, and one request's workers take the cores the others
// wait for. At 1M cases, 8 clients on 2 cores (BenchmarkLists1M), the
// heavy searches' p99 halved (an expert's search of 人民医院 815 -> 423 ms,
// of 王 760 -> 291, the admin's of 王 247 -> 152) and 74-76 of the 102
// lists answered under 50 ms against 69-73.
var postgresDefaults = map[string]string{"max_parallel_workers_per_gather": "0"}

// withPostgresDefaults adds postgresDefaults to a postgres:// URL.
func withPostgresDefaults(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", errors.New("db: the PostgreSQL URL cannot be parsed") // err would print the password
	}
	q := u.Query()
	for k, v := range postgresDefaults {
		if !q.Has(k) {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

func open(rawURL, dataDir string) (*DB, error) {
	if strings.HasPrefix(rawURL, "postgres://") || strings.HasPrefix(rawURL, "postgresql://") {
		rawURL, err := withPostgresDefaults(rawURL)
		if err != nil {
			return nil, err
		}
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
	path, extra, _ := strings.Cut(strings.TrimPrefix(path, "sqlite://"), "?")
	if err := privateFile(path); err != nil {
		return nil, err
	}
	// busy_timeout first so the other pragmas wait for locks; immediate
	// transactions take the write lock up front instead of failing on
	// upgrade. The URL's own query may set other options and pragmas.
	own, err := url.ParseQuery(extra)
	if err != nil {
		return nil, fmt.Errorf("db: sqlite options: %w", err)
	}
	// mmap_size lets every connection read the file through the shared page
	// cache of the system instead of copying pages into its own; cache_size
	// keeps the hot index pages of the lists (16 MB a connection);
	// temp_store keeps sorts in memory. WAL checkpoints stay automatic
	// (every 1000 pages). The map covers up to 2 GB, SQLite's own limit
	// (SQLITE_MAX_MMAP_SIZE): at 1M cases the cases' table lies within the
	// first 2.6 GB of a 6 GB file, and a search of 王 read 9,860 of its rows
	// by id, each read past 256 MB a copy into the connection's cache (the
	// count 23 ms, 13 mapped).
	pragmas := []string{"busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(ON)", "synchronous(NORMAL)",
		"mmap_size(2147418112)", "cache_size(-16384)", "temp_store(MEMORY)"}
	for _, p := range own["_pragma"] {
		name, _, _ := strings.Cut(p, "(")
		pragmas = slices.DeleteFunc(pragmas, func(q string) bool { return strings.HasPrefix(q, name+"(") })
		pragmas = append(pragmas, p)
	}
	delete(own, "_pragma")
	q := url.Values{"_pragma": pragmas, "_txlock": {"immediate"}, "_time_format": {"sqlite"}}
	for k, vs := range own {
		q[k] = vs
	}
	x, err := sqlx.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("db: open sqlite: %w", err)
	}
	x.SetMaxOpenConns(8)
	x.SetMaxIdleConns(8)
	x.SetConnMaxIdleTime(0)
	x.Mapper = mapper()
	return &DB{DB: x, Dialect: SQLite, writer: make(chan struct{}, 1)}, nil
}

// privateFile creates the SQLite file readable by its owner only, or
// makes an existing one so. SQLite gives its -wal and -shm files the
// database file's permissions.
func privateFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("db: create sqlite file: %w", err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("db: sqlite file mode: %w", err)
		}
	}
	return nil
}

// maxWriteWait bounds the wait for the write turn: a guard against a
// write that waits on itself (a write through the DB inside InTx), far
// beyond any real queue.
const maxWriteWait = 2 * time.Minute

// writeTurn waits for this process's turn to write to SQLite (immediately
// on PostgreSQL) and returns the function that ends it.
func (d *DB) writeTurn(ctx context.Context) (func(), error) {
	if d.writer == nil {
		return func() {}, nil
	}
	t := time.NewTimer(maxWriteWait)
	defer t.Stop()
	select {
	case d.writer <- struct{}{}:
		return func() { <-d.writer }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("db: waiting to write: %w", ctx.Err())
	case <-t.C:
		return nil, errors.New("db: waited too long for the write lock")
	}
}

// ExecContext runs a statement outside a transaction, in its write turn.
func (d *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	done, err := d.writeTurn(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	return d.DB.ExecContext(ctx, query, args...)
}

// Exec is ExecContext without a context.
func (d *DB) Exec(query string, args ...any) (sql.Result, error) {
	return d.ExecContext(context.Background(), query, args...)
}

// Builder returns a squirrel builder with the dialect's placeholders.
func (d *DB) Builder() sq.StatementBuilderType {
	if d.Dialect == Postgres {
		return sq.StatementBuilder.PlaceholderFormat(sq.Dollar)
	}
	return sq.StatementBuilder.PlaceholderFormat(sq.Question)
}

// InTx runs fn in one transaction, committing when fn returns nil. On
// SQLite, transactions (and statements outside them) write one at a time
// in arrival order, so fn must not write through d itself.
//
// On PostgreSQL, transactions run side by side, and two that lock the same
// rows in other orders deadlock: the server aborts one of them (SQLSTATE
// 40P01; 40001, a serialization failure, likewise). The triggers that keep
// the tallies and rollups lock their rows in key order within a statement,
// but a transaction's several statements (and triggers) may still take
// them in another order than a concurrent one's. InTx then runs fn again
// in a new transaction, up to maxAttempts times in all, after a short
// random pause, so the user's action is made rather than failed.
//
// So fn may run more than once, and must do nothing outside the
// transaction that a second run would repeat wrongly: no file left written
// (register its removal with tx.OnRollback, which runs after every failed
// attempt), no event, message or cache change (register it with
// tx.AfterCommit, which runs once, after the commit that counts; those of
// a failed attempt never run), no stream read that a second run could not
// read again (read it before InTx), and no variable of the caller it adds
// to rather than sets (reset it at the start of fn).
func (d *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	done, err := d.writeTurn(ctx)
	if err != nil {
		return err
	}
	defer done()
	for attempt := 1; ; attempt++ {
		err := d.inTx(ctx, fn)
		if err == nil || d.Dialect != Postgres || attempt == maxAttempts || !Retryable(err) {
			return err
		}
		txRetries.Add(1)
		// A pause of 5-20 ms, longer at each attempt: the winner of the
		// deadlock commits meanwhile.
		pause := time.Duration(attempt) * (5*time.Millisecond + rand.N(15*time.Millisecond))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// maxAttempts bounds how often InTx runs fn on PostgreSQL when the server
// aborts its transaction as a deadlock victim or serialization failure.
const maxAttempts = 5

// txRetries counts the transactions InTx ran again (for tests and logs).
var txRetries atomic.Int64

// Retries reports how many transactions InTx has run again since the
// process started, after a deadlock or serialization failure.
func Retries() int64 { return txRetries.Load() }

// Retryable reports whether err is PostgreSQL aborting a transaction that
// may succeed when run again: a deadlock victim (40P01) or a serialization
// failure (40001).
func Retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// inTx is one attempt of InTx.
func (d *DB) inTx(ctx context.Context, fn func(tx *Tx) error) error {
	x, err := d.begin(ctx)
	if err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	defer x.Rollback() //nolint:errcheck // no-op after commit
	tx := &Tx{Tx: x, Dialect: d.Dialect}
	if err := fn(tx); err != nil {
		tx.rolledBack()
		return err
	}
	if err := x.Commit(); err != nil {
		tx.rolledBack()
		return fmt.Errorf("db: commit: %w", err)
	}
	for _, f := range tx.after {
		f()
	}
	return nil
}

// begin starts a transaction, retrying while SQLite reports the database
// busy: another process (a backup, a second server on the same file)
// may hold the write lock beyond busy_timeout.
func (d *DB) begin(ctx context.Context) (*sqlx.Tx, error) {
	deadline := time.Now().Add(maxWriteWait)
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		x, err := d.BeginTxx(ctx, nil)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return x, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// Tx is a transaction that knows its dialect.
type Tx struct {
	*sqlx.Tx
	Dialect Dialect
	after   []func()
	undo    []func()
}

// AfterCommit runs f once the transaction has committed (never when it
// rolls back): news of a change leaves the process only when it is true.
func (t *Tx) AfterCommit(f func()) { t.after = append(t.after, f) }

// OnRollback runs f if the transaction does not commit (fn failed or the
// commit did): what it did outside the database, such as a file written
// for a row of this transaction, is undone with it.
func (t *Tx) OnRollback(f func()) { t.undo = append(t.undo, f) }

func (t *Tx) rolledBack() {
	for i := len(t.undo) - 1; i >= 0; i-- {
		t.undo[i]()
	}
}

// Builder returns a squirrel builder with the dialect's placeholders.
func (t *Tx) Builder() sq.StatementBuilderType {
	return (&DB{Dialect: t.Dialect}).Builder()
}

// Runner is a database or a transaction with its statement builder: what
// a domain's functions take when another domain calls them in its own
// transaction or on the database.
type Runner interface {
	Querier
	Builder() sq.StatementBuilderType
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
