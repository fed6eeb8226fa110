package db

import (
	"context"
	"log/slog"
	"time"
)

// RefreshStatistics brings SQLite's query planner statistics up to date:
// every table whose number of rows has changed a great deal since it was
// last analyzed (the migrations analyze a new, nearly empty database) is
// analyzed again, within SQLite's own analysis limit; the others are left
// as they are. A plan chosen from the statistics of a few hundred cases
// can read a whole status of a million to show one page (a tab that takes
// 3 ms takes 13 s without them). PostgreSQL's autovacuum keeps its own.
func (d *DB) RefreshStatistics(ctx context.Context) error {
	if d.Dialect != SQLite {
		return nil
	}
	// 0x10000: consider every table, not only those this connection has
	// queried; 0x02: analyze where needed (SQLite's default).
	_, err := d.ExecContext(ctx, "PRAGMA optimize=0x10002")
	return err
}

// KeepStatistics refreshes the statistics now and then every interval
// until ctx ends.
func (d *DB) KeepStatistics(ctx context.Context, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		start := time.Now()
		if err := d.RefreshStatistics(ctx); err != nil && ctx.Err() == nil {
			log.Warn("db: refresh planner statistics", "err", err)
		} else if took := time.Since(start); took > time.Second {
			log.Info("db: planner statistics refreshed", "took", took.Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
