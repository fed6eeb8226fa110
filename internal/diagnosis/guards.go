package diagnosis

import (
	"context"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// The checks of the expert's actions that need the diagnoses of a case, not
// only its state: the case's list of actions runs them as the actions do
// (consultation.Guard), so it offers exactly what would be allowed.
func (s *Service) guard() {
	c := s.deps.Cases
	if c == nil {
		return
	}
	c.Guard(consultation.ActPublish, s.reviewPassed)
	c.Guard(consultation.ActPublish, s.structuredPassed)
	c.Guard(consultation.ActToReview, s.notApproved)
	c.Guard(consultation.ActAppendDiagnosis, s.supplementsAllowed)
	c.Guard(consultation.ActAppendPublish, s.supplementReviewPassed)
	c.Guard(consultation.ActAppendDiscard, s.supplementExists)
	c.Guard(consultation.ActAppendApprove, s.supplementReviewer)
	c.Guard(consultation.ActAppendReviewReturn, s.supplementReviewer)
}

// supplementsAllowed: the system lets experts write supplementary reports
// (supplement_report). Off, none is started or edited; one already written
// may still be sent, published or discarded, and published ones stay.
func (s *Service) supplementsAllowed(ctx context.Context, _ db.Querier, _ *consultation.Row) error {
	if s.deps.SupplementReport != nil && !s.deps.SupplementReport(ctx) {
		return refuse("diagnosis.supplement_off")
	}
	return nil
}

// reviewPassed: a diagnosis sent to review is published only once approved;
// after a return, or edited after the approval, it goes to review again.
// An empty diagnosis passes: publishing it is refused as bad input.
func (s *Service) reviewPassed(ctx context.Context, q db.Querier, r *consultation.Row) error {
	work, err := s.working(ctx, q, r.ID)
	if err != nil {
		return err
	}
	if work != nil && work.ReviewerID != nil && work.Status != Approved {
		return refuse("diagnosis.review_pending")
	}
	return nil
}

// notApproved: an approved diagnosis is signed, not sent to review again
// (edited, it is a draft again and may be).
func (s *Service) notApproved(ctx context.Context, q db.Querier, r *consultation.Row) error {
	work, err := s.working(ctx, q, r.ID)
	if err != nil {
		return err
	}
	if work != nil && work.Status == Approved {
		return refuse("diagnosis.review_passed")
	}
	return nil
}

// supplementReviewPassed: a supplement sent to review is published only once
// approved. None written yet passes: publishing nothing is bad input.
func (s *Service) supplementReviewPassed(ctx context.Context, q db.Querier, r *consultation.Row) error {
	work, err := s.workingSupplement(ctx, q, r.ID)
	if apperr.Is(err, "diagnosis.no_supplement") {
		return nil
	}
	if err != nil {
		return err
	}
	if work.ReviewerID != nil && work.Status != Approved {
		return refuse("diagnosis.review_pending")
	}
	return nil
}

// supplementExists: only a written supplement is discarded.
func (s *Service) supplementExists(ctx context.Context, q db.Querier, r *consultation.Row) error {
	_, err := s.workingSupplement(ctx, q, r.ID)
	return err
}

// supplementReviewer: only the reviewer named on the supplement answers its
// review (the case's reviewer is the diagnosis's).
func (s *Service) supplementReviewer(ctx context.Context, q db.Querier, r *consultation.Row) error {
	work, err := s.workingSupplement(ctx, q, r.ID)
	if err != nil {
		return err
	}
	me := access.FromContext(ctx).UserID
	if work.Status != ToReview || work.ReviewerID == nil || *work.ReviewerID != me {
		return refuse("diagnosis.not_reviewer")
	}
	return nil
}
