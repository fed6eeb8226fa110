package benchdata

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/statistics"
	"telepath/migrations"
)

// triggersOff stops the triggers from running in tx until the returned
// function is called. PostgreSQL skips them for the transaction
// (session_replication_role, which also skips foreign key checks: the
// loader's rows are consistent by construction). SQLite has no such switch:
// the triggers are dropped and created again from their own stored text,
// in the same transaction, so a load that fails keeps them.
func triggersOff(ctx context.Context, tx *db.Tx) (func() error, error) {
	if tx.Dialect == db.Postgres {
		if _, err := tx.ExecContext(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
			return nil, err
		}
		return func() error {
			_, err := tx.ExecContext(ctx, "SET LOCAL session_replication_role = origin")
			return err
		}, nil
	}
	var triggers []struct{ Name, SQL string }
	if err := tx.SelectContext(ctx, &triggers, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"); err != nil {
		return nil, err
	}
	for _, t := range triggers {
		if _, err := tx.ExecContext(ctx, `DROP TRIGGER "`+t.Name+`"`); err != nil {
			return nil, err
		}
	}
	return func() error {
		for _, t := range triggers {
			if _, err := tx.ExecContext(ctx, t.SQL); err != nil {
				return fmt.Errorf("trigger %s: %w", t.Name, err)
			}
		}
		return nil
	}, nil
}

// rebuild counts again, from the rows, everything the triggers keep: the
// case tallies (migration 0029), SQLite's search index (0030; PostgreSQL's
// is a plain index) and the statistics rollups (0046 to 0049), each with
// its migration's own backfill. TestFastLoad compares every table the
// triggers write with a load that ran them.
func rebuild(ctx context.Context, tx *db.Tx, log *slog.Logger) error {
	tally, err := backfill(tx.Dialect, "0029_case_tallies", "INSERT INTO consultation_tallies")
	if err != nil {
		return err
	}
	steps := []struct{ name, sql string }{{"tallies", "DELETE FROM consultation_tallies"}, {"tallies", tally}}
	if tx.Dialect == db.SQLite {
		search, err := backfill(tx.Dialect, "0030_case_search", "INSERT INTO consultations_search(consultations_search) VALUES ('rebuild')")
		if err != nil {
			return err
		}
		steps = append(steps, struct{ name, sql string }{"search", search})
	}
	for _, s := range steps {
		t0 := time.Now()
		if _, err := tx.ExecContext(ctx, s.sql); err != nil {
			return fmt.Errorf("rebuild %s: %w", s.name, err)
		}
		log.Info("rebuilt", "what", s.name, "took", time.Since(t0).Round(time.Millisecond))
	}
	t0 := time.Now()
	var offset int
	if err := tx.GetContext(ctx, &offset, "SELECT offset_minutes FROM stat_zone WHERE id = 1"); err != nil {
		return err
	}
	if err := statistics.RebuildRollups(ctx, tx, offset); err != nil {
		return err
	}
	log.Info("rebuilt", "what", "statistics rollups", "took", time.Since(t0).Round(time.Millisecond))
	return nil
}

// backfill is the statement of migration name (the dialect's file, or the
// shared one) that starts a line with prefix, up to its semicolon.
func backfill(dialect db.Dialect, name, prefix string) (string, error) {
	body, err := fs.ReadFile(migrations.FS, name+"."+string(dialect)+".sql")
	if err != nil {
		if body, err = fs.ReadFile(migrations.FS, name+".sql"); err != nil {
			return "", err
		}
	}
	text := "\n" + string(body)
	i := strings.Index(text, "\n"+prefix)
	if i < 0 {
		return "", fmt.Errorf("migration %s has no %q", name, prefix)
	}
	stmt, _, ok := strings.Cut(text[i+1:], ";\n")
	if !ok || strings.Contains(stmt, "{{") {
		return "", fmt.Errorf("migration %s: cannot take %q", name, prefix)
	}
	return stmt, nil
}
