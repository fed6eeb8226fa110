package consultation

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
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

// ReturnReason is why a case was returned to its hospital.
func (s *Service) ReturnReason(ctx context.Context, id int64) (string, error) {
	r, err := s.row(ctx, s.db, id)
	if err != nil {
		return "", err
	}
	return r.ReturnReason, nil
}

// CaseExperts lists the experts of the case's center who take new cases,
// those bound to the case's library first (ForNewCases).
func (s *Service) CaseExperts(ctx context.Context, id int64) ([]PersonRef, error) {
	r, err := s.row(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if r.CenterID == nil {
		return []PersonRef{}, nil
	}
	experts, err := s.deps.Members(ctx, *r.CenterID, access.Expert)
	if err != nil {
		return nil, err
	}
	return s.ForNewCases(ctx, experts, r.LibraryID)
}

// CenterExperts lists the experts of a center the caller may deal with (for
// a site, one of its hospital's centers; otherwise one in their scope) who
// take new cases, those bound to libraryID (when given) first.
func (s *Service) CenterExperts(ctx context.Context, centerID int64, libraryID *int64) ([]PersonRef, error) {
	p := access.FromContext(ctx)
	allowed := p.IsAdmin()
	if !allowed {
		sc, err := s.deps.Org.ScopeOf(ctx, p)
		if err != nil {
			return nil, err
		}
		for _, c := range sc.CenterIDs {
			allowed = allowed || c == centerID
		}
		for _, hid := range p.HospitalIDs {
			if h, err := s.deps.Org.Hospital(ctx, hid); err == nil {
				for _, c := range h.CenterIDs {
					allowed = allowed || c == centerID
				}
			}
		}
	}
	if !allowed {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	experts, err := s.deps.Members(ctx, centerID, access.Expert)
	if err != nil {
		return nil, err
	}
	return s.ForNewCases(ctx, experts, libraryID)
}

// StatusLabels lists every display status in the caller's language.
func (s *Service) StatusLabels(ctx context.Context) []StatusLabel {
	out := []StatusLabel{}
	lang := i18n.From(ctx)
	for _, k := range LabelKeys() {
		out = append(out, StatusLabel{Key: k, Label: labelText(lang, k), Color: colours[k]})
	}
	return out
}

// Neighbour returns the previous (dir -1) or next (dir 1) case assigned to
// the caller (the expert's worklist, read by diagnosis); 0 when there is none.
func (s *Service) Neighbour(ctx context.Context, id int64, dir int) (int64, error) {
	me := access.FromContext(ctx).UserID
	b := s.db.Builder().Select("id").From("consultations").
		Where("expert_id = ? AND status IN (1, 2) AND deleted_at IS NULL", me).Limit(1)
	if dir < 0 {
		b = b.Where("id < ?", id).OrderBy("id DESC")
	} else {
		b = b.Where("id > ?", id).OrderBy("id ASC")
	}
	var next int64
	err := db.Get(ctx, s.db, &next, b)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return next, apperr.Wrap(err, "neighbour")
}
