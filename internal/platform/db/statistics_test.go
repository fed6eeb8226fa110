package db_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// Statistics taken when a table was small are taken again once it has
// grown: the planner then sees the table's real size.
func TestRefreshStatisticsAfterGrowth(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE grow (id INTEGER PRIMARY KEY, k INTEGER)",
		"CREATE INDEX grow_k ON grow(k)",
		"INSERT INTO grow(k) VALUES (1), (2), (3)",
		"ANALYZE grow",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO grow(k) SELECT i % 50 FROM n",
	} {
		if _, err := d.ExecContext(ctx, q); err != nil {
			t.Fatal(q, err)
		}
	}
	rows := func() int {
		var stat string
		if err := d.GetContext(ctx, &stat, "SELECT stat FROM sqlite_stat1 WHERE idx = 'grow_k'"); err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(strings.Fields(stat)[0])
		if err != nil {
			t.Fatal(stat, err)
		}
		return n
	}
	if n := rows(); n != 3 {
		t.Fatalf("statistics before growth say %d rows, want 3", n)
	}
	if err := d.RefreshStatistics(ctx); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n < 1000 {
		t.Fatalf("statistics after refresh say %d rows of 20,003", n)
	}
}
