package consultation

import (
	"context"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// FindCases returns the cases (at most 1000) that text names: a case id, a
// consultation or pathology number, a patient's name or ID number. It
// ignores the caller's scope: it serves the operation log, which only the
// administrator reads, to answer who looked at a patient's record.
func (s *Service) FindCases(ctx context.Context, text string) ([]int64, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	or := sq.Or{sq.Eq{"consult_no": text}, sq.Eq{"pathology_number": text}, sq.Eq{"patient_name": text}}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil && n > 0 {
		or = append(or, sq.Eq{"id": n})
	}
	// ID numbers live in the registration only: a scan, for what may be one.
	if utf8.RuneCountInString(text) >= 5 && !strings.ContainsFunc(text, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
		or = append(or, sq.Expr(s.idNumber()+" = ?", strings.ToUpper(text)))
	}
	var ids []int64
	err := db.Select(ctx, s.db, &ids, s.db.Builder().Select("id").From("consultations").Where(or).OrderBy("id DESC").Limit(1000))
	return ids, apperr.Wrap(err, "find cases")
}

// idNumber is the SQL of a case's (upper-cased) ID number.
func (s *Service) idNumber() string {
	if s.db.Dialect == db.Postgres {
		return "UPPER(case_data::jsonb ->> 'id_number')"
	}
	return "UPPER(json_extract(case_data, '$.id_number'))"
}

// CaseLabels names cases for people: consultation number and patient.
func (s *Service) CaseLabels(ctx context.Context, ids []int64) (map[int64]string, error) {
	var rows []struct {
		ID      int64  `db:"id"`
		No      string `db:"consult_no"`
		Patient string `db:"patient_name"`
	}
	err := db.Select(ctx, s.db, &rows, s.db.Builder().Select("id", "consult_no", "patient_name").From("consultations").Where(sq.Eq{"id": ids}))
	out := make(map[int64]string, len(rows))
	for _, r := range rows {
		out[r.ID] = strings.TrimSpace(r.No + " " + r.Patient)
	}
	return out, apperr.Wrap(err, "name cases")
}
