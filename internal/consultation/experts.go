package consultation

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// ForNewCases keeps the experts who take new cases (their role
// configuration); those bound to the library (a subspecialty, spec 2 §8:
// the library or one above it) come first and are marked. Without a
// library nobody is marked.
func (s *Service) ForNewCases(ctx context.Context, experts []PersonRef, libraryID *int64) ([]PersonRef, error) {
	var lineage []int64
	if libraryID != nil {
		lineage = []int64{*libraryID}
		if s.deps.Lineage != nil {
			l, err := s.deps.Lineage(ctx, *libraryID)
			if err != nil {
				return nil, err
			}
			lineage = l
		}
	}
	bound, other := []PersonRef{}, []PersonRef{}
	for _, e := range experts {
		if !e.TakesCases {
			continue
		}
		if slices.ContainsFunc(e.Subspecialties, func(id int64) bool { return slices.Contains(lineage, id) }) {
			e.Subspecialty = true
			bound = append(bound, e)
		} else {
			other = append(other, e)
		}
	}
	return append(bound, other...), nil
}

// checkExpert refuses to give r to expertID unless they are an enabled
// expert of its center who takes new cases; with nobody of the center
// taking cases: no expert on duty.
func (s *Service) checkExpert(ctx context.Context, r *Row, expertID int64) error {
	if r.CenterID == nil {
		return apperr.New(apperr.Invalid, "error.validation").Field("center_id", "field.required")
	}
	return s.checkAssignable(ctx, *r.CenterID, expertID, true)
}

// checkAssignable: expertID is an expert of the center who takes new
// cases. noneConflict: with nobody of the center taking cases, the refusal
// is case.no_expert_on_duty rather than a field error.
func (s *Service) checkAssignable(ctx context.Context, centerID, expertID int64, noneConflict bool) error {
	experts, err := s.deps.Members(ctx, centerID, access.Expert)
	if err != nil {
		return err
	}
	takers, err := s.ForNewCases(ctx, experts, nil)
	if err != nil {
		return err
	}
	if len(takers) == 0 && noneConflict {
		return apperr.New(apperr.Conflict, "case.no_expert_on_duty")
	}
	is := func(e PersonRef) bool { return e.ID == expertID }
	switch {
	case !slices.ContainsFunc(experts, is):
		return apperr.New(apperr.Invalid, "error.validation").Field("expert_id", "case.expert_unknown")
	case !slices.ContainsFunc(takers, is):
		return apperr.New(apperr.Invalid, "error.validation").Field("expert_id", "case.expert_not_taking")
	}
	return nil
}

// expertList is the case list of an expert-only caller (see parse): the
// filters on a column case_experts x holds a copy of name the copy, so
// that they keep the count on x alone.
var expertList = func() *listquery.Resource {
	r := *list
	r.Columns = maps.Clone(list.Columns)
	for name, expr := range map[string]string{"hospital_id": "x.hospital_id", "status": "x.status"} {
		c := r.Columns[name]
		c.Expr = expr
		r.Columns[name] = c
	}
	return &r
}()

// expertParse parses a case list request of an expert-only caller, whose
// list reads their rows of case_experts x joined to the cases. A search
// that an index serves is written on x's copies (migrations 0069, 0083):
// the cases whose searched columns match, read from the index as a set
// (consultation_grams, the trigram indexes, SQLite's FTS5 tables), or the
// hospitals whose name matches, x.case_id IN (…) OR x.hospital_id IN (…),
// or the hospitals alone when no case's columns match (a hospital's
// name), which the expert's tally counts by hospital (migration 0091).
// Else the count reads x alone, by (expert_id, status, hospital_id …) and
// the set, instead of joining each case of the tab (an expert's completed
// tab, ~26,000 cases at 1M) to test the case's columns. onX reports that
// the query's conditions name only x; keysFirst that its page is read by
// its keys first (see parse). A text no index serves (one or two
// ASCII characters) is searched as on the other lists (parseList).
func expertParse(ctx context.Context, d *db.DB, req listquery.Request) (q *listquery.Query, onX, keysFirst bool, err error) {
	plain := req
	plain.Search = ""
	if q, err = expertList.Parse(d.Dialect, plain); err != nil {
		return nil, false, false, err
	}
	onX = !namesCases(q.Where)
	text := listquery.SearchText(req.Search)
	if text == "" {
		return q, onX, false, nil
	}
	cases := expertCases(d.Dialect, text)
	if cases == nil {
		q, err = parseList(ctx, d, req)
		return q, false, false, err
	}
	ids := hospitalIDs{}
	if err := db.Select(ctx, d, &ids, d.Builder().Select("h.id").From("hospitals h").
		Where(listquery.Compare(d.Dialect, "h.name", listquery.Like, []any{listquery.LikePattern(text)})).OrderBy("h.id")); err != nil {
		return nil, false, false, err
	}
	if d.Dialect == db.SQLite && gramText(text) && len(ids) == 0 {
		// A surname's character (~10,000 cases at 1M) as a set on x: the
		// expert's completed cases of 王 went from p99 676–715 to
		// 1,610–1,928 ms (8 clients, the same copy); with a matching
		// hospital the set on x pays (明州 ~3,000 → ~1,050).
		q, err = parseList(ctx, d, req)
		return q, false, false, err
	}
	if len(ids) > 0 {
		// A hospital's name that no case's searched columns hold: the
		// search is the hospitals alone, which the expert's tally counts
		// by hospital (migration 0091).
		none, err := noCaseMatches(ctx, d, text, cases)
		if err != nil {
			return nil, false, false, err
		}
		if none {
			r := *expertList
			r.SearchIndex = func(db.Dialect, string) sq.Sqlizer { return sq.Eq{"x.hospital_id": []int64(ids)} }
			if q, err = r.Parse(d.Dialect, req); err != nil {
				return nil, false, false, err
			}
			// The page's keys first (see parse): the expert's rows of the
			// hospitals by case_experts_hospital, then twenty cases joined.
			// Joined whole, PostgreSQL read every completed row of the
			// expert (~26,000 at 1M) to keep those of 明州's 3 hospitals,
			// or joined all 1,573 cases before sorting (20-190 ms; 1.5 ms).
			return q, onX, true, nil
		}
	}
	r := *expertList
	r.SearchIndex = func(db.Dialect, string) sq.Sqlizer {
		in := sq.Expr("x.case_id IN (?)", cases)
		if d.Dialect == db.Postgres && utf8.RuneCountInString(text) >= 3 {
			// The trigram matches, few, as an array read once then by id
			// (as postgresSearch): semi-joined, the planner guessed their
			// number and an expert's search of a consultation number part
			// went from p99 59–77 to 91–168 ms at 1M.
			in = idIn(db.Postgres, "x.case_id", cases)
		}
		if len(ids) == 0 {
			return in
		}
		return sq.Or{in, sq.Eq{"x.hospital_id": []int64(ids)}}
	}
	q, err = r.Parse(d.Dialect, req)
	return q, onX, false, err
}

// expertCases is the subquery of the ids of the cases whose searched
// columns match text, from the index that serves it (as searchIndexOf
// reads them); nil when none does.
func expertCases(d db.Dialect, text string) sq.Sqlizer {
	switch {
	case d == db.SQLite:
		return sqliteCases(text)
	case d != db.Postgres:
		return nil
	case utf8.RuneCountInString(text) >= 3:
		return sq.Expr("SELECT s.id FROM consultations s WHERE ?", postgresColumns(text))
	case gramText(text):
		return sq.Expr("SELECT case_id FROM consultation_grams WHERE gram = ?", strings.ToLower(text))
	}
	return nil
}

// noCaseMatches reports whether no case's searched columns match text
// (cases, the subquery of expertCases, selects none), read from the same
// index as the lists' own searches read it first (postgresMatched,
// sqliteMatched).
func noCaseMatches(ctx context.Context, d *db.DB, text string, cases sq.Sqlizer) (bool, error) {
	var ids *string
	var err error
	switch d.Dialect {
	case db.Postgres:
		ids, err = postgresMatched(ctx, d, text)
	case db.SQLite:
		ids, err = sqliteMatched(ctx, d, cases)
	}
	return err == nil && ids != nil && *ids == "", err
}

// namesCases reports whether the condition names a column of the cases c
// (outside its string constants).
func namesCases(where sq.Sqlizer) bool {
	text, _, err := where.ToSql()
	if err != nil {
		return true
	}
	return caseColumn.MatchString(quoted.ReplaceAllString(text, "''"))
}

var (
	quoted     = regexp.MustCompile(`'(?:[^']|'')*'`)
	caseColumn = regexp.MustCompile(`(^|[^A-Za-z0-9_."])c\.`)
)
