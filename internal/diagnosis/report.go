package diagnosis

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Print and delivery states of a released report (spec 2 §4).
const (
	ToPrint = 1
	ToSend  = 2
	Sent    = 3
)

// released returns the last released report of each type for a case the
// caller may see, or a not-found error when nothing is released yet.
func (s *Service) released(ctx context.Context, id int64) ([]Diagnosis, error) {
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

// MarkPrinted records that the site printed the case's released report.
func (s *Service) MarkPrinted(ctx context.Context, id int64) error {
	return s.delivery(ctx, id, consultation.ActReportPrint, func(tx *db.Tx, d Diagnosis, now time.Time) (int, error) {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("print_count", printCount(ctx, tx, d.ID)+1).
			Set("print_at", now).Where("id = ?", d.ID))
		return ToSend, apperr.Wrap(err, "mark printed")
	})
}

// MarkDelivered records that the printed report reached the patient or clinic.
func (s *Service) MarkDelivered(ctx context.Context, id int64) error {
	return s.delivery(ctx, id, consultation.ActReportDeliver, func(tx *db.Tx, d Diagnosis, now time.Time) (int, error) {
		var printed *time.Time
		if err := db.Get(ctx, tx, &printed, tx.Builder().Select("print_at").From("diagnoses").Where("id = ?", d.ID)); err != nil {
			return 0, apperr.Wrap(err, "load print")
		}
		if printed == nil {
			return 0, refuse("diagnosis.print_first")
		}
		_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("deliver_at", now).Where("id = ?", d.ID))
		return Sent, apperr.Wrap(err, "mark delivered")
	})
}

func printCount(ctx context.Context, tx *db.Tx, id int64) int {
	var n int
	db.Get(ctx, tx, &n, tx.Builder().Select("print_count").From("diagnoses").Where("id = ?", id))
	return n
}

// delivery runs a print or delivery step on the latest released report.
func (s *Service) delivery(ctx context.Context, id int64, action consultation.Action, fn func(tx *db.Tx, d Diagnosis, now time.Time) (int, error)) error {
	p := access.FromContext(ctx)
	if !p.HasAny(access.ReportHandlers) {
		return apperr.New(apperr.Forbidden, "error.forbidden")
	}
	reports, err := s.released(ctx, id)
	if err != nil {
		return err
	}
	latest := reports[len(reports)-1]
	return s.deps.Cases.Apply(ctx, id, action, latest.ReportNo, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (map[string]any, error) {
		state, err := fn(tx, latest, s.now())
		if err != nil {
			return nil, err
		}
		return map[string]any{"print_deliver_status": state}, nil
	})
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
	}
	err := db.Get(ctx, s.db, &v, s.db.Builder().Select("d.id", "d.consult_id", "d.type", "d.version", "d.report_no", "h.name AS hospital",
		"ce.name AS center", "c.patient_name", "u.name AS expert", "d.published_at", "d.release_at").
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
		Center: center, Patient: maskName(v.Patient), Expert: v.Expert, PublishedAt: v.PublishedAt, Superseded: later > 0}, nil
}

func maskName(name string) string {
	r := []rune(name)
	if len(r) <= 1 {
		return name
	}
	return string(r[0]) + strings.Repeat("*", len(r)-1)
}
