package consultation

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// The search box of the case lists matches any part of the consultation
// number, the pathology number, the patient's name, the ID number and the
// hospital's name (LIKE '%text%', case folded for ASCII). searchIndex reads
// the same rows from indexes; the columns below are the LIKE it stands for
// (and the fallback where no index serves the text).

// idNumberExpr is the case's ID number, kept in the registration; the
// PostgreSQL trigram index of migration 0058 is on this very expression.
func idNumberExpr(d db.Dialect) string {
	if d == db.Postgres {
		return "(c.case_data::jsonb ->> 'id_number')"
	}
	return "json_extract(c.case_data, '$.id_number')"
}

// idNumberColumn searches the ID number.
var idNumberColumn = listquery.Column{Type: listquery.String, Search: true,
	Where: func(d db.Dialect, op listquery.Operator, values []any) (sq.Sqlizer, error) {
		return listquery.Compare(d, idNumberExpr(d), op, values), nil
	}}

// hospitalNameColumn searches the name of the case's hospital: the
// hospitals whose name matches are found first (a few dozen rows), then the
// cases by hospital id.
var hospitalNameColumn = listquery.Column{Type: listquery.String, Search: true,
	Where: func(d db.Dialect, op listquery.Operator, values []any) (sq.Sqlizer, error) {
		return idIn(d, "c.hospital_id", sq.Expr("SELECT h.id FROM hospitals h WHERE ?", listquery.Compare(d, "h.name", op, values))), nil
	}}

// idIn is "col is one of the ids sub selects"; on PostgreSQL = ANY(ARRAY(…)),
// which the planner reads by index as one branch of an OR.
func idIn(d db.Dialect, col string, sub sq.Sqlizer) sq.Sqlizer {
	if d == db.Postgres {
		return sq.Expr(col+" = ANY(ARRAY(?))", sub)
	}
	return sq.Expr(col+" IN (?)", sub)
}

// searchIndex reads the search from the indexes of migrations 0030 and
// 0058 where they select exactly the rows of the LIKE: a text of three
// characters or more from the trigram indexes (on PostgreSQL the LIKE
// itself reads them, see postgresSearch), a text of one or two characters with one beyond
// ASCII from consultation_grams, the hospitals by name. It keeps to texts
// whose letters have no case beyond ASCII, where the indexes fold case
// exactly as LIKE does. nil: the LIKE over the columns (short ASCII texts
// scan, as most cases hold such a piece anyway).
func searchIndex(d db.Dialect, text string) sq.Sqlizer {
	return searchIndexOf(d, text, nil)
}

// parseList parses a request of the case lists. The hospitals whose name
// matches the search text are found first (the hospitals are a small
// table) and the search names them as constants, c.hospital_id IN (…): the
// planner then reads from its statistics how many cases they stand for.
// Behind a subquery PostgreSQL guessed ten rows for every text, and an
// expert's completed tab searched for 人民医院 (26 hospitals, 520,000 cases
// at 1M) read all those cases by id, checking each against the expert's,
// 34.6 s; SQLite built the set of those cases for each request.
func parseList(ctx context.Context, d *db.DB, req listquery.Request) (*listquery.Query, error) {
	text := listquery.SearchText(req.Search)
	if text == "" {
		return list.Parse(d.Dialect, req)
	}
	ids := hospitalIDs{}
	if err := db.Select(ctx, d, &ids, d.Builder().Select("h.id").From("hospitals h").
		Where(listquery.Compare(d.Dialect, "h.name", listquery.Like, []any{listquery.LikePattern(text)})).OrderBy("h.id")); err != nil {
		return nil, err
	}
	var q *listquery.Query
	var err error
	switch d.Dialect {
	case db.Postgres:
		q, err = postgresParse(ctx, d, req, text, ids)
	case db.SQLite:
		q, err = sqliteParse(ctx, d, req, text, ids)
	default:
		r := *list
		r.SearchIndex = func(d db.Dialect, text string) sq.Sqlizer { return searchIndexOf(d, text, ids) }
		return r.Parse(d.Dialect, req)
	}
	if err == nil && len(ids) == 0 && utf8.RuneCountInString(text) == 1 && gramText(text) {
		switch d.Dialect {
		case db.Postgres:
			q.CountSearchBy(gramTally, sq.Eq{"c.gram": strings.ToLower(text)})
		case db.SQLite:
			q.CountSearchBy(gramCases, sq.Eq{"c.gram": strings.ToLower(text)})
		}
	}
	return q, err
}

// gramCases are, on SQLite, the cases of each one-character gram of their
// searched texts with copies of the columns the scopes, the tabs (their
// times too), the common filters and the default sorts name (migration
// 0089), and those the case screens offer to filter and sort by besides
// (0092). A search of one such character that names no hospital matches
// exactly the gram's cases, so its counts, and the keys of its pages when
// the sort names copied columns only, are read from the gram's range of
// the table's key: at 1M the ~10,000 cases of 王 were each read by id
// from the cases (an admin's list searched for 王, 8 clients: p99 ~300 ms).
var gramCases = &listquery.Tally{From: "consultations c", Table: "consultation_gram_cases c", Count: "1", Rows: true,
	Columns: []string{"c.gram", "c.id", "c.hospital_id", "c.center_id", "c.expert_id", "c.user_id", "c.staff_id", "c.status",
		"c.is_draft", "c.is_recall", "c.is_return", "c.is_lock", "c.supplement_review", "c.print_deliver_status", "c.expedite",
		"c.charge_status", "c.deleted_at", "c.created_at", "c.submitted_at", "c.timeout_at", "c.remind_at", "c.release_at",
		"c.gender", "c.age", "c.slide_count", "c.patient_name", "c.consult_no", "c.pathology_number", "c.inspection_date", "c.assigned_at"}}

// gramTally counts the cases by each one-character gram of their searched
// texts (consultation_grams' own) and the case tallies' columns
// (migration 0084). A search of one such character that names no
// hospital matches exactly the cases of the gram, so its counts sum the
// gram's tally rows (listquery.Query.CountSearchBy): at 1M the ~10,000
// cases of a surname's character lie scattered over the table, their
// tally rows together in its index. On PostgreSQL only: on SQLite the
// admin's tab counts of 王 took longer with it (p99 1,525 ms without,
// 2,552–2,631 with, 8 clients at 1M), as the tabs that compare times
// still count the rows in a statement of their own; migration 0088
// dropped the table and its triggers from SQLite.
var gramTally = &listquery.Tally{From: "consultations c", Table: "consultation_gram_tallies c", Count: "c.n",
	Columns: append([]string{"c.gram"}, list.Tally.Columns...)}

// hospitalIDs are the hospitals whose name matches the search text (see
// parseList); nil: not looked up.
type hospitalIDs []int64

// byName is "the case's hospital's name matches text": c.hospital_id IN
// (ids) when they were looked up, FALSE when none matches, else the
// subquery over the hospitals.
func (ids hospitalIDs) byName(d db.Dialect, text string) sq.Sqlizer {
	switch {
	case ids == nil:
		w, _ := hospitalNameColumn.Where(d, listquery.Like, []any{listquery.LikePattern(text)})
		return w
	case len(ids) == 0:
		return sq.Expr("FALSE")
	}
	return sq.Eq{"c.hospital_id": []int64(ids)}
}

// searchIndexOf is searchIndex with the hospitals whose name matches the
// text looked up (nil: not looked up).
func searchIndexOf(d db.Dialect, text string, named hospitalIDs) sq.Sqlizer {
	if d == db.Postgres && utf8.RuneCountInString(text) >= 3 {
		return postgresSearch(text, named)
	}
	ascii := true
	for _, r := range text {
		if r >= utf8.RuneSelf {
			if unicode.ToLower(r) != r || unicode.ToUpper(r) != r {
				return postgresScan(d, text, named)
			}
			ascii = false
		}
	}
	var cases sq.Sqlizer
	switch n := utf8.RuneCountInString(text); {
	case n < 3 && !ascii:
		cases = sq.Expr("SELECT case_id FROM consultation_grams WHERE gram = ?", strings.ToLower(text))
	case n >= 3 && d == db.SQLite:
		phrase := `"` + strings.ReplaceAll(text, `"`, `""`) + `"`
		cases = sq.Expr("SELECT rowid FROM consultations_search WHERE consultations_search MATCH ? UNION ALL SELECT rowid FROM consultations_id_search WHERE consultations_id_search MATCH ?", phrase, phrase)
	default:
		return postgresScan(d, text, named)
	}
	if d == db.Postgres {
		return postgresGrams(cases, text, named)
	}
	return sqliteSearch(cases, text, named)
}
