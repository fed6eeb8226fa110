package diagnosis

import (
	"context"
	"strings"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// A supplementary report (spec 2 §3, §5) is written by the case's expert on
// a released case. Like the diagnosis it may go to a second expert of the
// center: draft → to_review (new) → approved (accepted) or returned
// (rejected, with the reviewer's note). The case and its original report
// stay released throughout. One supplement at a time is unpublished: the
// working supplement.

// workingSupplement is the unpublished supplementary report of a case, or a
// conflict when there is none.
func (s *Service) workingSupplement(ctx context.Context, q db.Querier, id int64) (*Diagnosis, error) {
	ds, err := s.query(q)(ctx, "d.consult_id = ? AND d.type = ? AND d.status <> ?", id, TypeSupplement, Published)
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 {
		return nil, refuse("diagnosis.no_supplement")
	}
	return &ds[len(ds)-1], nil
}

// supplementToSend is the working supplement to send to review or publish;
// none written yet is bad input, as an empty diagnosis is.
func (s *Service) supplementToSend(ctx context.Context, q db.Querier, id int64) (*Diagnosis, error) {
	work, err := s.workingSupplement(ctx, q, id)
	if apperr.Is(err, "diagnosis.no_supplement") {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("opinion", "diagnosis.empty")
	}
	return work, err
}

// Supplement saves the working supplementary report, or starts one. Saving
// a returned or approved supplement makes it a draft again: it must be
// reviewed again before it is published. The reviewer's note stays until it
// is sent again.
func (s *Service) Supplement(ctx context.Context, id int64, in Input) (*Diagnosis, error) {
	me := access.FromContext(ctx).UserID
	in.trim()
	if in.Opinion == "" {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("opinion", "diagnosis.empty")
	}
	var sid int64
	err := s.deps.Cases.Apply(ctx, id, consultation.ActAppendDiagnosis, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		now := s.now()
		vals := map[string]any{"microscopic": in.Microscopic, "opinion": in.Opinion, "gross_description": in.GrossDescription,
			"remark": in.Remark, "critical_values": in.CriticalValues, "report_class": in.ReportClass, "status": Draft, "updated_at": now}
		work, err := s.workingSupplement(ctx, tx, id)
		if err != nil && !apperr.Is(err, "diagnosis.no_supplement") {
			return consultation.Change{}, err
		}
		if err := s.classKept(ctx, r, in.ReportClass, work); err != nil {
			return consultation.Change{}, err
		}
		if work != nil {
			sid = work.ID
			_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(vals).Where("id = ?", sid))
			return consultation.Change{}, apperr.Wrap(err, "save supplement")
		}
		var version int
		if err := db.Get(ctx, tx, &version, tx.Builder().Select("COALESCE(MAX(version), 0) + 1").From("diagnoses").
			Where("consult_id = ? AND type = ?", id, TypeSupplement)); err != nil {
			return consultation.Change{}, apperr.Wrap(err, "next supplement")
		}
		vals["consult_id"], vals["type"], vals["version"], vals["doctor_id"], vals["created_at"] = id, TypeSupplement, version, me, now
		sid, err = db.InsertID(ctx, tx, tx.Builder().Insert("diagnoses").SetMap(vals))
		return consultation.Change{}, apperr.Wrap(err, "insert supplement")
	})
	if err != nil {
		return nil, err
	}
	all, err := s.History(ctx, id)
	for _, d := range all {
		if d.ID == sid {
			return &d, err
		}
	}
	return nil, err
}

// SupplementToReview sends the working supplement to a second expert of the center.
func (s *Service) SupplementToReview(ctx context.Context, id, reviewerID int64) error {
	me := access.FromContext(ctx).UserID
	ctx, reviewer := consultation.WithAddressees(ctx)
	reviewer.Add(reviewerID)
	return s.deps.Cases.Apply(ctx, id, consultation.ActAppendToReview, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		if reviewerID == me {
			return consultation.Change{}, apperr.New(apperr.Invalid, "error.validation").Field("reviewer_id", "diagnosis.reviewer_self")
		}
		if err := s.checkExpert(ctx, r, reviewerID, "reviewer_id"); err != nil {
			return consultation.Change{}, err
		}
		work, err := s.supplementToSend(ctx, tx, id)
		if err != nil {
			return consultation.Change{}, err
		}
		_, err = db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("status", ToReview).Set("reviewer_id", reviewerID).
			Set("review_note", "").Set("updated_at", s.now()).Where("id = ?", work.ID))
		return consultation.Change{}, apperr.Wrap(err, "supplement to review")
	})
}

// SupplementRecallReview takes the supplement back from review before it is answered.
func (s *Service) SupplementRecallReview(ctx context.Context, id int64) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActAppendReviewRecall, "", func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("status", Draft).Set("updated_at", s.now()).
			Where("consult_id = ? AND type = ? AND status = ?", id, TypeSupplement, ToReview))
		return consultation.Change{}, apperr.Wrap(err, "recall supplement review")
	})
}

// SupplementReview answers the review of a supplement: approve (the author
// may publish it) or return with a note (the author edits it again). Only
// the reviewer named on the supplement may answer (supplementReviewer).
func (s *Service) SupplementReview(ctx context.Context, id int64, approve bool, note string) error {
	name, status := consultation.ActAppendApprove, Approved
	note = strings.TrimSpace(note)
	if !approve {
		name, status = consultation.ActAppendReviewReturn, Returned
		if note == "" {
			return apperr.New(apperr.Invalid, "error.validation").Field("note", "case.reason_required")
		}
	}
	return s.deps.Cases.Apply(ctx, id, name, note, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		work, err := s.workingSupplement(ctx, tx, id)
		if err != nil {
			return consultation.Change{}, err
		}
		_, err = db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("status", status).Set("review_note", note).
			Set("updated_at", s.now()).Where("id = ?", work.ID))
		return consultation.Change{}, apperr.Wrap(err, "supplement review")
	})
}

// PublishSupplement releases the working supplement at once; it appears
// beside the original, which stays as it was. One sent to review must have
// been approved (as the diagnosis); one never sent is the expert's alone.
func (s *Service) PublishSupplement(ctx context.Context, id int64) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActAppendPublish, "publish", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		work, err := s.supplementToSend(ctx, tx, id)
		if err != nil {
			return consultation.Change{}, err
		}
		now := s.now()
		_, err = db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(map[string]any{
			"status": Published, "published_at": now, "release_at": now, "updated_at": now,
			"report_no": reportNo(now, work.ID), "verify_code": verifyCode(),
		}).Where("id = ?", work.ID))
		// A new report goes through printing and delivery again.
		return consultation.Change{PrintDeliver: consultation.Set(ToPrint)}, apperr.Wrap(err, "publish supplement")
	})
}

// DiscardSupplement deletes the working supplement (not while under review,
// which the life cycle refuses); published reports are never deleted.
func (s *Service) DiscardSupplement(ctx context.Context, id, supplementID int64) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActAppendDiscard, "discard", func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		res, err := db.Exec(ctx, tx, tx.Builder().Delete("diagnoses").
			Where("id = ? AND consult_id = ? AND type = ? AND status <> ? AND status <> ?", supplementID, id, TypeSupplement, Published, ToReview))
		if err != nil {
			return consultation.Change{}, apperr.Wrap(err, "discard supplement")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return consultation.Change{}, refuse("diagnosis.no_supplement")
		}
		return consultation.Change{}, nil
	})
}
