package consultation

import (
	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// postgresGrams is, on PostgreSQL, the search of a text of one or two
// characters read from consultation_grams (cases), with the hospitals whose
// name matches.
//
// The same set twice. As = ANY(ARRAY(…)) the planner reads it by index (a
// BitmapOr with the hospitals) where nothing narrower drives the read: the
// admin's count of a rare name. But wherever another condition drives (the
// sort's index, a hospital's or an expert's cases), that array is a filter
// PostgreSQL searches linearly for each row: 25,800 cases of an expert's
// completed tab each tested against the 9,860 cases of "王" took 1.4 s at
// 1M. So the set is also written IN (SELECT …), a hash built once and probed
// per row, which the planner tests first, being cheaper: the array is then
// searched only for the cases that match.
//
// Where no hospital matches, the hospitals' subquery stays: with nothing
// OR'd to it the planner, guessing ten cases for the array, reads them all
// by id and sorts them (an admin's page of "王", 9,860 cases, 70 ms against
// 9 ms walking the sort index).
func postgresGrams(cases sq.Sqlizer, text string, named hospitalIDs) sq.Sqlizer {
	if len(named) == 0 {
		named = nil
	}
	hospitals := named.byName(db.Postgres, text)
	return sq.And{sq.Or{sq.Expr("c.id IN (?)", cases), hospitals}, sq.Or{idIn(db.Postgres, "c.id", cases), hospitals}}
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
