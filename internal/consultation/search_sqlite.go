package consultation

import (
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
	return sq.Or{idIn(db.SQLite, "c.id", cases), sq.Eq{"+c.hospital_id": []int64(named)}}
}
