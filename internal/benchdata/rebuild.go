package benchdata

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"regexp"
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

// kept is what the triggers keep besides the statistics rollups, each
// emptied by clear (if needed) and filled again by the statement of its
// migration that starts with backfill, on the dialect that has it (both
// when only is empty): the case tallies (0029), SQLite's search indexes
// (0030, 0058; PostgreSQL's are plain indexes) and the one- and
// two-character pieces of the searched texts (0058), the cases each expert
// is named on (0056) and the columns of their cases it copies (0069, 0077, 0083);
// the user tallies, search index and pieces (0076) and number suffixes
// (0085); the experts' tallies
// of those copies (0080, by hospital since 0091); the case tallies by one-character piece (0084,
// PostgreSQL's only since 0088 dropped them from SQLite).
var kept = []struct {
	what, migration, clear, backfill string
	only                             db.Dialect
}{
	{"tallies", "0029_case_tallies", "DELETE FROM consultation_tallies", "INSERT INTO consultation_tallies", ""},
	{"search", "0030_case_search", "", "INSERT INTO consultations_search(consultations_search) VALUES ('rebuild')", db.SQLite},
	{"ID number search", "0058_case_search_more", "INSERT INTO consultations_id_search(consultations_id_search) VALUES ('delete-all')",
		"INSERT INTO consultations_id_search(rowid, id_number)", db.SQLite},
	{"search pieces", "0058_case_search_more", "DELETE FROM consultation_grams", "INSERT OR IGNORE INTO consultation_grams", db.SQLite},
	{"search pieces", "0058_case_search_more", "DELETE FROM consultation_grams", "INSERT INTO consultation_grams", db.Postgres},
	{"expert cases", "0056_case_experts", "DELETE FROM case_experts", "INSERT INTO case_experts", ""},
	{"expert cases' columns", "0069_case_expert_tabs", "", "UPDATE case_experts", ""},
	{"user tallies", "0076_user_list_more", "DELETE FROM user_tallies", "INSERT INTO user_tallies", ""},
	{"user search", "0076_user_list_more", "", "INSERT INTO users_search(users_search) VALUES ('rebuild')", db.SQLite},
	{"user search pieces", "0076_user_list_more", "DELETE FROM user_grams", "INSERT OR IGNORE INTO user_grams", db.SQLite},
	{"user search pieces", "0076_user_list_more", "DELETE FROM user_grams", "INSERT INTO user_grams", db.Postgres},
	{"user number suffixes", "0085_user_number_search", "DELETE FROM user_suffixes", "INSERT OR IGNORE INTO user_suffixes", db.SQLite},
	{"user number suffixes", "0085_user_number_search", "DELETE FROM user_suffixes", "INSERT INTO user_suffixes", db.Postgres},
	{"expert cases' pathology numbers", "0077_case_expert_pathology", "", "UPDATE case_experts", ""},
	{"expert cases' hospitals", "0083_case_expert_hospital", "", "UPDATE case_experts", ""},
	{"expert tallies", "0091_case_expert_hospital_tallies", "DELETE FROM case_expert_tallies", "INSERT INTO case_expert_tallies", ""},
	{"search piece tallies", "0084_case_gram_tallies", "DELETE FROM consultation_gram_tallies", "INSERT INTO consultation_gram_tallies", db.Postgres},
}

var nextTable = regexp.MustCompile(`^INSERT INTO ([a-z_]+)_next `)

// rebuild counts again, from the rows, everything the triggers keep (kept,
// then the statistics rollups of migrations 0046 to 0049), with the
// migrations' own backfills. TestFastLoad compares every table the
// triggers write with a load that ran them.
func rebuild(ctx context.Context, tx *db.Tx, log *slog.Logger) error {
	for _, k := range kept {
		if k.only != "" && k.only != tx.Dialect {
			continue
		}
		t0 := time.Now()
		fill, err := backfill(tx.Dialect, k.migration, k.backfill)
		if err != nil {
			return err
		}
		// A migration that builds a table anew under the name T_next and
		// puts it in T's place fills T_next (0091): the loader fills T.
		fill = nextTable.ReplaceAllString(fill, "INSERT INTO $1 ")
		for _, q := range []string{k.clear, fill} {
			if q == "" {
				continue
			}
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("rebuild %s: %w", k.what, err)
			}
		}
		log.Info("rebuilt", "what", k.what, "took", time.Since(t0).Round(time.Millisecond))
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
