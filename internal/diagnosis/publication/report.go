package publication

import (
	"context"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/diagnosis"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// MarkPrinted records that the site printed the case's released report.
func (s *Service) MarkPrinted(ctx context.Context, id int64) error {
	return s.delivery(ctx, id, consultation.ActReportPrint, func(tx *db.Tx, d diagnosis.Diagnosis, now time.Time) (int, error) {
		return diagnosis.ToSend, s.deps.Diagnoses.MarkPrinted(ctx, tx, d.ID, now)
	})
}

// MarkDelivered records that the printed report reached the patient or clinic.
func (s *Service) MarkDelivered(ctx context.Context, id int64) error {
	return s.delivery(ctx, id, consultation.ActReportDeliver, func(tx *db.Tx, d diagnosis.Diagnosis, now time.Time) (int, error) {
		return diagnosis.Sent, s.deps.Diagnoses.MarkDelivered(ctx, tx, d.ID, now)
	})
}

// delivery runs a print or delivery step on the latest released report.
func (s *Service) delivery(ctx context.Context, id int64, action consultation.Action, fn func(tx *db.Tx, d diagnosis.Diagnosis, now time.Time) (int, error)) error {
	p := access.FromContext(ctx)
	if !p.HasAny(access.ReportHandlers) {
		return apperr.New(apperr.Forbidden, "error.forbidden")
	}
	reports, err := s.deps.Diagnoses.Released(ctx, id)
	if err != nil {
		return err
	}
	latest := reports[len(reports)-1]
	return s.deps.Cases.Apply(ctx, id, action, latest.ReportNo, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		state, err := fn(tx, latest, s.now())
		if err != nil {
			return consultation.Change{}, err
		}
		return consultation.Change{PrintDeliver: consultation.Set(state)}, nil
	})
}
