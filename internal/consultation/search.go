package consultation

import (
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
	if d == db.Postgres && utf8.RuneCountInString(text) >= 3 {
		return postgresSearch(text)
	}
	ascii := true
	for _, r := range text {
		if r >= utf8.RuneSelf {
			if unicode.ToLower(r) != r || unicode.ToUpper(r) != r {
				return postgresScan(d, text)
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
		return postgresScan(d, text)
	}
	named := listquery.Compare(d, "h.name", listquery.Like, []any{listquery.LikePattern(text)})
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
		hospitals, _ := hospitalNameColumn.Where(d, listquery.Like, []any{listquery.LikePattern(text)})
		return sq.And{sq.Or{sq.Expr("c.id IN (?)", cases), hospitals}, sq.Or{idIn(d, "c.id", cases), hospitals}}
	}
	if d == db.SQLite {
		// One id set: with an OR of two sets SQLite walks the whole sort
		// index, testing each case, even when the text matches a handful.
		return idIn(d, "c.id", sq.Expr("? UNION SELECT hc.id FROM consultations hc WHERE hc.hospital_id IN (SELECT h.id FROM hospitals h WHERE ?)", cases, named))
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
func postgresSearch(text string) sq.Sqlizer {
	pattern := []any{listquery.LikePattern(text)}
	var or sq.Or
	for _, expr := range []string{"s.consult_no", "s.pathology_number", "s.patient_name", "(s.case_data::jsonb ->> 'id_number')"} {
		or = append(or, listquery.Compare(db.Postgres, expr, listquery.Like, pattern))
	}
	named := listquery.Compare(db.Postgres, "h.name", listquery.Like, pattern)
	return idIn(db.Postgres, "c.id", sq.Expr("SELECT s.id FROM consultations s WHERE ? UNION SELECT hc.id FROM consultations hc WHERE hc.hospital_id = ANY(ARRAY(SELECT h.id FROM hospitals h WHERE ?))", or, named))
}

// postgresScan is, on PostgreSQL, the LIKE over the columns for a text no
// index serves (one or two ASCII characters, found in most cases): the
// search columns' own conditions, the cheap ones first, as PostgreSQL tests
// the terms of an OR in the order written and stops at the first true one;
// the ID number, parsed out of the registration's JSON for each case, comes
// last (a count of "B" over 1M cases took half the time). nil elsewhere:
// the list engine's OR of the search columns.
func postgresScan(d db.Dialect, text string) sq.Sqlizer {
	if d != db.Postgres {
		return nil
	}
	pattern := []any{listquery.LikePattern(text)}
	or := sq.Or{}
	for _, expr := range []string{"c.consult_no", "c.pathology_number", "c.patient_name"} {
		or = append(or, listquery.Compare(d, expr, listquery.Like, pattern))
	}
	for _, c := range []listquery.Column{hospitalNameColumn, idNumberColumn} {
		w, err := c.Where(d, listquery.Like, pattern)
		if err != nil {
			return nil
		}
		or = append(or, sq.Expr("(?)", w))
	}
	return or
}
