package diagnosis

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Print and delivery states of a released report (spec 2 §4).
const (
	ToPrint = 1
	ToSend  = 2
	Sent    = 3
)

// Released returns the last released report of each type for a case the
// caller may see, or a not-found error when nothing is released yet.
func (s *Service) Released(ctx context.Context, id int64) ([]Diagnosis, error) {
	all, err := s.History(ctx, id)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := []Diagnosis{}
	for _, d := range all {
		if d.Status == Published && (d.ReleaseAt == nil || !now.Before(*d.ReleaseAt)) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, apperr.New(apperr.NotFound, "diagnosis.no_report")
	}
	return out, nil
}

// MarkPrinted records, in tx, one more printing of a released report.
func (s *Service) MarkPrinted(ctx context.Context, tx *db.Tx, diagnosisID int64, now time.Time) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("print_count", printCount(ctx, tx, diagnosisID)+1).
		Set("print_at", now).Where("id = ?", diagnosisID))
	return apperr.Wrap(err, "mark printed")
}

// MarkDelivered records, in tx, that a printed report was delivered; one not
// printed yet is refused.
func (s *Service) MarkDelivered(ctx context.Context, tx *db.Tx, diagnosisID int64, now time.Time) error {
	var printed *time.Time
	if err := db.Get(ctx, tx, &printed, tx.Builder().Select("print_at").From("diagnoses").Where("id = ?", diagnosisID)); err != nil {
		return apperr.Wrap(err, "load print")
	}
	if printed == nil {
		return refuse("diagnosis.print_first")
	}
	_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("deliver_at", now).Where("id = ?", diagnosisID))
	return apperr.Wrap(err, "mark delivered")
}

func printCount(ctx context.Context, tx *db.Tx, id int64) int {
	var n int
	db.Get(ctx, tx, &n, tx.Builder().Select("print_count").From("diagnoses").Where("id = ?", id))
	return n
}

// Verification is what the public check of a report shows: enough to
// confirm it is authentic, not the patient's record.
type Verification struct {
	Valid       bool      `json:"valid"`
	ReportNo    string    `json:"report_no"`
	Supplement  bool      `json:"supplement"`
	Hospital    string    `json:"hospital"`
	Center      string    `json:"center"`
	Patient     string    `json:"patient" doc:"Masked: the surname only"`
	Expert      string    `json:"expert"`
	PublishedAt time.Time `json:"published_at"`
	Superseded  bool      `json:"superseded" doc:"A later report of the same kind exists"`
	ReportClass string    `json:"report_class" doc:"The report class printed on the report (empty: none)"`
}

// Verify checks a report by the code printed on it.
func (s *Service) Verify(ctx context.Context, code string) (*Verification, error) {
	code = strings.ToUpper(strings.TrimSpace(code))
	if len(code) != 10 {
		return nil, apperr.New(apperr.NotFound, "diagnosis.verify_unknown")
	}
	var v struct {
		ID          int64     `db:"id"`
		ConsultID   int64     `db:"consult_id"`
		Type        int       `db:"type"`
		Version     int       `db:"version"`
		ReportNo    string    `db:"report_no"`
		Hospital    string    `db:"hospital"`
		Center      *string   `db:"center"`
		Patient     string    `db:"patient_name"`
		Expert      string    `db:"expert"`
		PublishedAt time.Time `db:"published_at"`
		ReleaseAt   time.Time `db:"release_at"`
		ReportClass string    `db:"report_class"`
	}
	err := db.Get(ctx, s.db, &v, s.db.Builder().Select("d.id", "d.consult_id", "d.type", "d.version", "d.report_no", "h.name AS hospital",
		"ce.name AS center", "c.patient_name", "u.name AS expert", "d.published_at", "d.release_at", "d.report_class").
		From("diagnoses d").Join("consultations c ON c.id = d.consult_id").Join("hospitals h ON h.id = c.hospital_id").
		LeftJoin("centers ce ON ce.id = c.center_id").Join("users u ON u.id = d.doctor_id").
		Where("d.verify_code = ? AND d.status = ? AND c.deleted_at IS NULL", code, Published))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && s.now().Before(v.ReleaseAt)) {
		return nil, apperr.New(apperr.NotFound, "diagnosis.verify_unknown")
	} else if err != nil {
		return nil, apperr.Wrap(err, "verify")
	}
	var later int
	db.Get(ctx, s.db, &later, s.db.Builder().Select("COUNT(*)").From("diagnoses").
		Where("consult_id = ? AND type = ? AND version > ? AND status = ?", v.ConsultID, v.Type, v.Version, Published))
	center := ""
	if v.Center != nil {
		center = *v.Center
	}
	return &Verification{Valid: true, ReportNo: v.ReportNo, Supplement: v.Type == TypeSupplement, Hospital: v.Hospital,
		Center: center, Patient: maskName(v.Patient), Expert: v.Expert, PublishedAt: v.PublishedAt, Superseded: later > 0, ReportClass: v.ReportClass}, nil
}

func maskName(name string) string {
	r := []rune(name)
	if len(r) <= 1 {
		return name
	}
	return string(r[0]) + strings.Repeat("*", len(r)-1)
}
