package consultation

import (
	"context"
	"database/sql"
	"strings"
	"unicode"
	"unicode/utf8"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// postgresGrams is, on PostgreSQL, the search of a text of one or two
// characters by the GIN index of each case's grams (migration 0079), with
// the hospitals whose name matches. The index is a bitmap the planner ANDs
// with the scope's and the tab's, and its statistics say how many cases a
// gram stands for. Read from consultation_grams alone (cases) it guessed
// and walked the sort's index whatever the text: a site's completed cases
// of "李" by patient name, 375,000 buffers before the 20 of the page; its
// count of "王", 9,860 cases read by id for 196.
//
// The same set also as IN (SELECT …) from consultation_grams, a hash
// built once and probed per row, which the planner tests first, being
// cheaper: where it walks the sort's index, the array of each row's grams
// is computed only for the rows that match (an admin's page of "王" 75 ms
// → 8 ms). Both under an OR with the hospitals, so that the IN stays a
// hashed filter; where no hospital matches, the hospitals' subquery (an
// empty set the planner cannot fold away).
func postgresGrams(cases sq.Sqlizer, text string, named hospitalIDs) sq.Sqlizer {
	if len(named) == 0 {
		named = nil
	}
	hospitals := named.byName(db.Postgres, text)
	grams := sq.Expr(gramArray+" @> ARRAY[?::text]", strings.ToLower(text))
	return sq.And{sq.Or{grams, hospitals}, sq.Or{sq.Expr("c.id IN (?)", cases), hospitals}}
}

// postgresSearch is the search of a text of three characters or more on
// PostgreSQL: the very LIKE of the search columns, read by the trigram
// indexes of migrations 0030 and 0058 as one BitmapOr, with the cases of
// the hospitals whose name matches, as one id set. Written as an OR of the
// columns and the hospitals in the list's own WHERE, the planner cannot
// tell how many cases the hospitals' ids stand for, guesses a fifth of the
// table and walks the sort index testing every case (a consultation
// number that matches two cases took 8 s at 1M, one that matches none 15 s).
// With the hospitals looked up (named, see parseList) their branch is
// c.hospital_id IN (…) OR'd with the columns' set, or nothing.
func postgresSearch(text string, named hospitalIDs) sq.Sqlizer {
	pattern := []any{listquery.LikePattern(text)}
	or := postgresColumns(text)
	if named != nil {
		cols := idIn(db.Postgres, "c.id", sq.Expr("SELECT s.id FROM consultations s WHERE ?", or))
		if len(named) == 0 {
			return cols
		}
		return sq.Or{cols, named.byName(db.Postgres, text)}
	}
	hospitals := listquery.Compare(db.Postgres, "h.name", listquery.Like, pattern)
	return idIn(db.Postgres, "c.id", sq.Expr("SELECT s.id FROM consultations s WHERE ? UNION SELECT hc.id FROM consultations hc WHERE hc.hospital_id = ANY(ARRAY(SELECT h.id FROM hospitals h WHERE ?))", or, hospitals))
}

// postgresColumns is the LIKE of the search columns of cases s, which the
// trigram indexes read as one BitmapOr.
func postgresColumns(text string) sq.Or {
	pattern := []any{listquery.LikePattern(text)}
	var or sq.Or
	for _, expr := range []string{"s.consult_no", "s.pathology_number", "s.patient_name", "(s.case_data::jsonb ->> 'id_number')"} {
		or = append(or, listquery.Compare(db.Postgres, expr, listquery.Like, pattern))
	}
	return or
}

// postgresScan is, on PostgreSQL, the LIKE over the columns for a text no
// index serves (one or two ASCII characters, found in most cases): the
// search columns' own conditions, the cheap ones first, as PostgreSQL tests
// the terms of an OR in the order written and stops at the first true one;
// the ID number, parsed out of the registration's JSON for each case, comes
// last (a count of "B" over 1M cases took half the time). nil elsewhere:
// the list engine's OR of the search columns.
func postgresScan(d db.Dialect, text string, named hospitalIDs) sq.Sqlizer {
	if d != db.Postgres {
		return nil
	}
	pattern := []any{listquery.LikePattern(text)}
	or := sq.Or{}
	for _, expr := range []string{"c.consult_no", "c.pathology_number", "c.patient_name"} {
		or = append(or, listquery.Compare(d, expr, listquery.Like, pattern))
	}
	id, _ := idNumberColumn.Where(d, listquery.Like, pattern)
	return append(or, sq.Expr("(?)", named.byName(d, text)), sq.Expr("(?)", id))
}

// matchedCap is the most cases parseList names one by one. Past it the
// search reads its index (postgresGrams, postgresSearch): a surname's
// character, found in 9,000–10,000 cases at 1M, named as constants took
// 20–60 ms to plan, and read by id 9,860 random case rows (1.3 s on the
// loaded machine). A variable for the tests, which check both forms.
var matchedCap = 1000

// postgresParse parses a case list request on PostgreSQL with the
// hospitals whose name matches the search text looked up (named). The
// cases whose searched columns match the text are read first, from the
// same indexes the search reads (consultation_grams, the trigram indexes),
// and when they are few the search names them as a constant array, as it
// names the hospitals: the planner then knows how many rows the search
// keeps and chooses between walking the sort's index and reading the
// matches by id then sorting them. Behind a subquery it guessed, and
// walked the sort's index whatever the text: an admin's page of "王伟"
// (about 200 cases at 1M) walked the cases by creation time until it had
// 20, p50 268 ms under 8 clients, 30 ms named. When no case's columns match, the
// search is the hospitals' ids alone, which the case tallies count. A
// text of three characters or more that names no hospital keeps its
// subquery, which the planner reads first anyway (its ten-row guess).
func postgresParse(ctx context.Context, d *db.DB, req listquery.Request, text string, named hospitalIDs) (*listquery.Query, error) {
	var matched *string
	if len(named) > 0 || utf8.RuneCountInString(text) < 3 {
		var err error
		if matched, err = postgresMatched(ctx, d, text); err != nil {
			return nil, err
		}
	}
	r := *list
	r.SearchIndex = func(dl db.Dialect, text string) sq.Sqlizer {
		if matched == nil {
			return searchIndexOf(dl, text, named)
		}
		return postgresNamed(*matched, named, text)
	}
	q, err := r.Parse(d.Dialect, req)
	if err != nil || matched != nil || !gramText(text) || !sortedBySearched(q) {
		return q, err
	}
	r.SearchIndex = func(db.Dialect, string) sq.Sqlizer { return postgresGramIndex(text, named) }
	return r.Parse(d.Dialect, req)
}

// sortedBySearched reports whether the list is sorted first by a column
// the search reads. The cases matching a text then lie together in that
// order (the names starting with "李" sort together), and a walk of the
// sort's index meets them only after every case sorting before.
func sortedBySearched(q *listquery.Query) bool {
	for _, col := range []string{"c.patient_name ", "c.consult_no ", "c.pathology_number "} {
		if len(q.OrderBy) > 0 && strings.HasPrefix(q.OrderBy[0], col) {
			return true
		}
	}
	return false
}

// postgresGramIndex is the search of a text of one or two characters by
// the GIN index of the grams alone (see postgresGrams), with the matching
// hospitals, for a list sorted by a searched column: without the hashed
// set, which the planner reckons cheap to test on each row, it reads the
// matches from the index and sorts them rather than walking the sort's
// index (a site's completed cases of "李" by patient name at 1M, 8 clients,
// p50 7.2 s with the hashed set, 96 ms without).
func postgresGramIndex(text string, named hospitalIDs) sq.Sqlizer {
	grams := sq.Expr(gramArray+" @> ARRAY[?::text]", strings.ToLower(text))
	if len(named) == 0 {
		return grams
	}
	return sq.Or{grams, named.byName(db.Postgres, text)}
}

// gramArray is the expression of the GIN index of migration 0079.
const gramArray = "consultation_gram_array(c.patient_name, c.consult_no, c.pathology_number, c.case_data::jsonb ->> 'id_number')"

// postgresMatched returns the ids of the cases whose searched columns
// match text, comma separated, when an index serves the text and they are
// at most matchedCap; nil otherwise.
func postgresMatched(ctx context.Context, d *db.DB, text string) (*string, error) {
	var cases sq.Sqlizer
	switch {
	case utf8.RuneCountInString(text) >= 3:
		cases = sq.Expr("SELECT s.id FROM consultations s WHERE ?", postgresColumns(text))
	case gramText(text):
		cases = sq.Expr("SELECT case_id FROM consultation_grams WHERE gram = ?", strings.ToLower(text))
	default:
		return nil, nil
	}
	query, args, err := sq.Expr("SELECT string_agg(m.id::text, ',') FROM (? LIMIT ?) m(id)", cases, matchedCap+1).ToSql()
	if err != nil {
		return nil, err
	}
	var ids sql.NullString
	if err := d.GetContext(ctx, &ids, d.Rebind(query), args...); err != nil {
		return nil, err
	}
	if strings.Count(ids.String, ",") >= matchedCap {
		return nil, nil
	}
	return &ids.String, nil
}

// gramText reports whether consultation_grams serves text: one or two
// characters, one beyond ASCII, none with a case.
func gramText(text string) bool {
	ascii := true
	for _, r := range text {
		if r >= utf8.RuneSelf {
			if unicode.ToLower(r) != r || unicode.ToUpper(r) != r {
				return false
			}
			ascii = false
		}
	}
	return !ascii && utf8.RuneCountInString(text) < 3
}

// postgresNamed is the search of text with the matching cases named (ids,
// comma separated, see postgresMatched) and the matching hospitals.
func postgresNamed(ids string, named hospitalIDs, text string) sq.Sqlizer {
	if ids == "" {
		return named.byName(db.Postgres, text)
	}
	cases := sq.Expr("c.id = ANY('{" + ids + "}'::bigint[])")
	if len(named) == 0 {
		return cases
	}
	return sq.Or{cases, named.byName(db.Postgres, text)}
}
