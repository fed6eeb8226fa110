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

// sqliteSearch is, on SQLite, the search read from the indexes (cases: the
// case ids of consultation_grams or of the FTS5 tables), with the hospitals
// whose name matches.
//
// With the hospitals looked up, the columns' set alone when no hospital
// matches; else that set OR c.hospital_id IN (…), the hospitals' term kept
// off the index (+) so that SQLite walks the sort's (or the scope's) index
// testing each case, the hospitals' cases being many, instead of gathering
// and sorting them all. Not looked up: one id set with the hospitals'
// cases, which SQLite builds whole for each request: at 1M an expert's
// completed tab searched for 人民医院 (520,000 cases) took 108 s, 0.4 s now.
func sqliteSearch(cases sq.Sqlizer, text string, named hospitalIDs) sq.Sqlizer {
	switch {
	case named == nil:
		byName := listquery.Compare(db.SQLite, "h.name", listquery.Like, []any{listquery.LikePattern(text)})
		return idIn(db.SQLite, "c.id", sq.Expr("? UNION SELECT hc.id FROM consultations hc WHERE hc.hospital_id IN (SELECT h.id FROM hospitals h WHERE ?)", cases, byName))
	case len(named) == 0:
		return idIn(db.SQLite, "c.id", cases)
	}
	return sq.Or{idIn(db.SQLite, "c.id", cases), sqliteHospitals(named)}
}

// sqliteHospitals is "the case's hospital is one of named", off the index
// (see sqliteSearch); the case tallies count it.
func sqliteHospitals(named hospitalIDs) sq.Sqlizer {
	return sq.Eq{"+c.hospital_id": []int64(named)}
}

// sqliteCap is the most cases sqliteParse names one by one; past it the
// set stays a subquery: at 1M an allocator's assigned tab searched for 王
// (9,860 cases) probed its index ~20 ms with the subquery's list, ~50 ms
// with as many constants. A variable for the tests, which check both forms.
var sqliteCap = 2000

// sqliteParse parses a case list request on SQLite with the hospitals
// whose name matches the search text looked up (named). The cases whose
// searched columns match are read first from the index that serves the
// text, and when they are few the search names them as constants. SQLite
// then knows how many they are: behind a subquery it guessed, and an ID
// number matching one case walked the sort's index over every case to
// find it. And when no case's columns match (a hospital's name), the
// search is the hospitals' term alone, which the case tallies count: the
// exact total of an admin's search of 明州 was a scan of the million cases.
func sqliteParse(ctx context.Context, d *db.DB, req listquery.Request, text string, named hospitalIDs) (*listquery.Query, error) {
	r := *list
	r.SearchIndex = func(dl db.Dialect, text string) sq.Sqlizer { return searchIndexOf(dl, text, named) }
	cases := sqliteCases(text)
	if cases == nil {
		r.SearchIndex = func(_ db.Dialect, text string) sq.Sqlizer { return sqliteScan(text, named) }
		return r.Parse(d.Dialect, req)
	}
	ids, err := sqliteMatched(ctx, d, cases)
	if err != nil {
		return nil, err
	}
	if ids != nil {
		r.SearchIndex = func(db.Dialect, string) sq.Sqlizer { return sqliteNamed(*ids, named) }
	}
	return r.Parse(d.Dialect, req)
}

// sqliteScan is the LIKE over the columns for a text no index serves (one
// or two ASCII characters, found in most cases; a letter with a case
// beyond ASCII): the cheap columns first, then the hospitals named, and
// the ID number, parsed out of the registration's JSON for each case,
// last, as SQLite tests the terms of an OR in the order written and stops
// at the first true one (the list engine's OR, by column name, parsed the
// JSON second).
func sqliteScan(text string, named hospitalIDs) sq.Sqlizer {
	pattern := []any{listquery.LikePattern(text)}
	or := sq.Or{}
	for _, expr := range []string{"c.consult_no", "c.pathology_number", "c.patient_name"} {
		or = append(or, listquery.Compare(db.SQLite, expr, listquery.Like, pattern))
	}
	if len(named) > 0 {
		or = append(or, sqliteHospitals(named))
	}
	return append(or, listquery.Compare(db.SQLite, idNumberExpr(db.SQLite), listquery.Like, pattern))
}

// sqliteCases is the subquery of the ids of the cases whose searched
// columns match text, from the index that serves it (see searchIndex); nil
// when none does.
func sqliteCases(text string) sq.Sqlizer {
	ascii := true
	for _, r := range text {
		if r >= utf8.RuneSelf {
			if unicode.ToLower(r) != r || unicode.ToUpper(r) != r {
				return nil
			}
			ascii = false
		}
	}
	switch n := utf8.RuneCountInString(text); {
	case n < 3 && !ascii:
		return sq.Expr("SELECT case_id FROM consultation_grams WHERE gram = ?", strings.ToLower(text))
	case n >= 3:
		return sq.Expr(`SELECT rowid FROM consultations_search WHERE consultations_search MATCH ? UNION ALL
			SELECT c.id FROM consultations_id_search CROSS JOIN consultations c ON c.id = consultations_id_search.rowid
			WHERE consultations_id_search MATCH ? AND ?`, ftsPhrase(text), trigramCover(text),
			listquery.Compare(db.SQLite, idNumberExpr(db.SQLite), listquery.Like, []any{listquery.LikePattern(text)}))
	}
	return nil
}

// ftsPhrase is text as an FTS5 phrase.
func ftsPhrase(text string) string { return `"` + strings.ReplaceAll(text, `"`, `""`) + `"` }

// trigramCover is an FTS5 query of up to three trigrams covering the end
// of text (its last nine characters), which every ID number holding text
// holds, for the LIKE to confirm. A number's start is what many share (a
// region's digits, a year's 19…): the phrase of all the trigrams of an
// 18-digit number read those in full, 205 ms at 1M; its end ~5 ms.
func trigramCover(text string) string {
	r := []rune(text)
	var terms []string
	for i := len(r) - 3; len(terms) < 3; i -= 3 {
		i = max(i, 0)
		terms = append(terms, ftsPhrase(string(r[i:i+3])))
		if i == 0 {
			break
		}
	}
	return strings.Join(terms, " AND ")
}

// sqliteMatched returns the ids of the cases cases selects, comma
// separated, when they are at most sqliteCap; nil otherwise.
func sqliteMatched(ctx context.Context, d *db.DB, cases sq.Sqlizer) (*string, error) {
	query, args, err := sq.Expr("WITH m(id) AS (?) SELECT group_concat(id) FROM (SELECT DISTINCT id FROM m LIMIT ?)", cases, sqliteCap+1).ToSql()
	if err != nil {
		return nil, err
	}
	var ids sql.NullString
	if err := d.GetContext(ctx, &ids, query, args...); err != nil {
		return nil, err
	}
	if strings.Count(ids.String, ",") >= sqliteCap {
		return nil, nil
	}
	return &ids.String, nil
}

// sqliteNamed is the search with the matching cases named (ids, comma
// separated, see sqliteMatched) and the matching hospitals.
func sqliteNamed(ids string, named hospitalIDs) sq.Sqlizer {
	switch {
	case ids == "" && len(named) == 0:
		return sq.Expr("FALSE")
	case ids == "":
		return sqliteHospitals(named)
	}
	cases := sq.Expr("c.id IN (" + ids + ")")
	if len(named) == 0 {
		return cases
	}
	return sq.Or{cases, sqliteHospitals(named)}
}
