package user

import (
	"strings"
	"unicode"
	"unicode/utf8"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
)

// The search box of the user list matches any part of the user name, the
// name, the phone or the work number (LIKE '%text%', case folded for
// ASCII). searchIndex reads the same users from the indexes of migrations
// 0065, 0076 and 0085; the list's Search columns are the LIKE it stands for.

// searchIndex is the search read by index where the index selects exactly
// the users of the LIKE: a text of three digits or more (a phone, a work
// number) as the start of a suffix in user_suffixes (both databases,
// migration 0085), a text of one or two characters with one beyond ASCII
// from user_grams (both databases), another text of three characters or
// more from SQLite's trigram index users_search. On PostgreSQL that other
// text keeps the LIKE, which reads the trigram index of 0065 for the count
// and lets the planner walk the sort's index for the page: as an id set
// from the trigram index (IN or = ANY(ARRAY(…))) a search of 10,000 users
// at 100,000 was slower under 8 clients (p50 175 → 219 ms, IN: 527). Texts whose
// letters have case beyond ASCII keep the LIKE, as the indexes fold case
// otherwise than LIKE does there; so do short ASCII texts, which most
// users hold anyway. nil: the LIKE.
func searchIndex(d db.Dialect, text string) sq.Sqlizer {
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
	case n >= 3 && digits(text):
		return idSet(d, "SELECT s.user_id FROM user_suffixes s WHERE s.suffix >= ? AND s.suffix < ?", text, digitsAfter(text))
	case n < 3 && !ascii:
		return idSet(d, "SELECT g.user_id FROM user_grams g WHERE g.gram = ?", strings.ToLower(text))
	case n < 3 || d == db.Postgres:
		return nil
	}
	phrase := `"` + strings.ReplaceAll(text, `"`, `""`) + `"`
	return sq.Expr("u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH ?)", phrase)
}

// idSet is u.id among the ids query selects. On PostgreSQL they go as an
// array, so the users are read by id: semi-joined, the planner hashed the
// ids and read all 100,000 users for the count (10,000 of a phone's
// digits, 2,300 of 张; at load, psql: 185-290 ms against 9-50 for 张's
// count, ~100 against ~15 for the phone's).
func idSet(d db.Dialect, query string, args ...any) sq.Sqlizer {
	if d == db.Postgres {
		return sq.Expr("u.id = ANY(ARRAY("+query+"))", args...)
	}
	return sq.Expr("u.id IN ("+query+")", args...)
}

// digits reports whether text is ASCII digits only.
func digits(text string) bool {
	return strings.Trim(text, "0123456789") == ""
}

// digitsAfter is the first string past every string that starts with
// text (digits), in byte order: its last digit plus one ('9' + 1 is ':').
func digitsAfter(text string) string {
	return text[:len(text)-1] + string(text[len(text)-1]+1)
}
