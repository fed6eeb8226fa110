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
	r := *list
	r.SearchIndex = func(d db.Dialect, text string) sq.Sqlizer { return searchIndexOf(d, text, ids) }
	return r.Parse(d.Dialect, req)
}

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
		// The same set twice. As = ANY(ARRAY(…)) the planner reads it by
		// index (a BitmapOr with the hospitals) where nothing narrower
		// drives the read: the admin's count of a rare name. But wherever
		// another condition drives (the sort's index, a hospital's or an
		// expert's cases), that array is a filter PostgreSQL searches
		// linearly for each row: 25,800 cases of an expert's completed tab
		// each tested against the 9,860 cases of "王" took 1.4 s at 1M. So
		// the set is also written IN (SELECT …), a hash built once and
		// probed per row, which the planner tests first, being cheaper: the
		// array is then searched only for the cases that match.
		//
		// Where no hospital matches, the hospitals' subquery stays: with
		// nothing OR'd to it the planner, guessing ten cases for the
		// array, reads them all by id and sorts them (an admin's page of
		// "王", 9,860 cases, 70 ms against 9 ms walking the sort index).
		if len(named) == 0 {
			named = nil
		}
		hospitals := named.byName(d, text)
		return sq.And{sq.Or{sq.Expr("c.id IN (?)", cases), hospitals}, sq.Or{idIn(d, "c.id", cases), hospitals}}
	}
	if d == db.SQLite {
		// With the hospitals looked up, the columns' set alone when no
		// hospital matches; else that set OR c.hospital_id IN (…), the
		// hospitals' term kept off the index (+) so that SQLite walks the
		// sort's (or the scope's) index testing each case, the hospitals'
		// cases being many, instead of gathering and sorting them all. Not
		// looked up: one id set with the hospitals' cases, which SQLite
		// builds whole for each request: at 1M an expert's completed tab
		// searched for 人民医院 (520,000 cases) took 108 s, 0.4 s now.
		switch {
		case named == nil:
			byName := listquery.Compare(d, "h.name", listquery.Like, []any{listquery.LikePattern(text)})
			return idIn(d, "c.id", sq.Expr("? UNION SELECT hc.id FROM consultations hc WHERE hc.hospital_id IN (SELECT h.id FROM hospitals h WHERE ?)", cases, byName))
		case len(named) == 0:
			return idIn(d, "c.id", cases)
		}
		return sq.Or{idIn(d, "c.id", cases), sq.Eq{"+c.hospital_id": []int64(named)}}
	}
	return nil
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
	var or sq.Or
	for _, expr := range []string{"s.consult_no", "s.pathology_number", "s.patient_name", "(s.case_data::jsonb ->> 'id_number')"} {
		or = append(or, listquery.Compare(db.Postgres, expr, listquery.Like, pattern))
	}
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
