package diagnosis

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/report"
)

// Deps are the other domains the diagnosis service calls.
type Deps struct {
	Cases *consultation.Service
	// Experts lists the experts of a center (to review, to invite).
	Experts func(ctx context.Context, centerID int64) ([]consultation.PersonRef, error)
	// DelayHours is the hesitation period of a case's library.
	DelayHours func(ctx context.Context, libraryID int64) (int, error)
	// ReportKind is the report kind (routine, frozen, cell) of a library.
	ReportKind func(ctx context.Context, libraryID int64) (string, error)
	// Files stores the screenshots saved to cases.
	Files ShotFiles
	// Thirds lists the third parties of a center (advice passed on).
	Thirds func(ctx context.Context, centerID int64) ([]consultation.PersonRef, error)
	// Watermark is the system's report watermark, nil when off.
	Watermark func(ctx context.Context) *report.Watermark
	// ReportLayout is the report template in use for a report kind; nil
	// prints with report.DefaultLayout.
	ReportLayout func(ctx context.Context, kind string) (report.Layout, error)
	// Signature is an expert's signature image (PNG or JPEG), nil when none.
	Signature func(ctx context.Context, userID int64) []byte
}

// Service runs the expert's work on cases.
type Service struct {
	db    *db.DB
	deps  Deps
	now   func() time.Time
	clock clock.Clock // the operator's zone; now is its Now
}

// New returns the diagnosis service.
func New(d *db.DB, deps Deps) *Service {
	s := &Service{db: d, deps: deps, now: func() time.Time { return time.Now().UTC() }}
	s.guard()
	return s
}

// UseClock sets the clock the service reads the time and the operator's
// time zone from.
func (s *Service) UseClock(c clock.Clock) { s.clock, s.now = c, c.Now }

func refuse(key string) error { return apperr.New(apperr.Conflict, key) }

// Lock lets the assigned expert edit the case; others then see it read-only.
func (s *Service) Lock(ctx context.Context, id int64) error {
	me := access.FromContext(ctx).UserID
	return s.deps.Cases.Apply(ctx, id, consultation.ActLock, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		vals, err := s.deps.Cases.AcceptHandover(ctx, tx, r)
		if err != nil {
			return nil, err
		}
		vals["locked_by"] = me
		return vals, nil
	})
}

// Unlock gives up the lock without losing the draft.
func (s *Service) Unlock(ctx context.Context, id int64) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActUnlock, "", func(_ *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		return map[string]any{"locked_by": nil}, nil
	})
}

// Save keeps the expert's draft; nothing is lost on reload.
func (s *Service) Save(ctx context.Context, id int64, in Input) (*Diagnosis, error) {
	me := access.FromContext(ctx).UserID
	in.trim()
	err := s.deps.Cases.Apply(ctx, id, consultation.ActSave, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		_, err := s.writeDraft(ctx, tx, id, me, in)
		return nil, err
	})
	if err != nil {
		return nil, err
	}
	return s.Current(ctx, id)
}

func (in *Input) trim() {
	for _, p := range []*string{&in.Microscopic, &in.Opinion, &in.GrossDescription, &in.Remark, &in.CriticalValues} {
		*p = strings.TrimSpace(*p)
	}
}

// writeDraft updates the working version of the normal diagnosis, or starts
// one (a new version after a published one was recalled).
func (s *Service) writeDraft(ctx context.Context, tx *db.Tx, id, me int64, in Input) (int64, error) {
	now := s.now()
	vals := map[string]any{"microscopic": in.Microscopic, "opinion": in.Opinion, "gross_description": in.GrossDescription,
		"remark": in.Remark, "critical_values": in.CriticalValues, "updated_at": now}
	work, err := s.working(ctx, tx, id)
	if err != nil {
		return 0, err
	}
	if work != nil {
		vals["status"] = Draft
		_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(vals).Where("id = ?", work.ID))
		return work.ID, apperr.Wrap(err, "save diagnosis")
	}
	var version int
	if err := db.Get(ctx, tx, &version, tx.Builder().Select("COALESCE(MAX(version), 0) + 1").From("diagnoses").
		Where("consult_id = ? AND type = ?", id, TypeNormal)); err != nil {
		return 0, apperr.Wrap(err, "next version")
	}
	vals["consult_id"], vals["type"], vals["version"], vals["status"], vals["doctor_id"], vals["created_at"] = id, TypeNormal, version, Draft, me, now
	did, err := db.InsertID(ctx, tx, tx.Builder().Insert("diagnoses").SetMap(vals))
	return did, apperr.Wrap(err, "insert diagnosis")
}

const columns = `d.id, d.consult_id, d.type, d.version, d.status, d.microscopic, d.opinion, d.gross_description, d.remark,
	d.critical_values, d.doctor_id, u.name AS doctor_name, d.reviewer_id, rv.name AS reviewer_name, d.review_note,
	d.report_no, d.verify_code, d.published_at, d.release_at, d.created_at, d.updated_at,
	d.first_result, d.first_result_reason`

func (s *Service) query(b db.Querier) func(ctx context.Context, where string, args ...any) ([]Diagnosis, error) {
	return func(ctx context.Context, where string, args ...any) ([]Diagnosis, error) {
		out := []Diagnosis{}
		err := db.Select(ctx, b, &out, s.db.Builder().Select(columns).From("diagnoses d").Join("users u ON u.id = d.doctor_id").
			LeftJoin("users rv ON rv.id = d.reviewer_id").Where(where, args...).OrderBy("d.type", "d.version"))
		return out, apperr.Wrap(err, "load diagnoses")
	}
}

// working is the unpublished normal diagnosis of a case, if any.
func (s *Service) working(ctx context.Context, q db.Querier, id int64) (*Diagnosis, error) {
	ds, err := s.query(q)(ctx, "d.consult_id = ? AND d.type = ? AND d.status <> ?", id, TypeNormal, Published)
	if err != nil || len(ds) == 0 {
		return nil, err
	}
	return &ds[len(ds)-1], nil
}

// Current returns the diagnosis the case shows now: the working version, or
// else the last published one. Nil when the expert has written nothing.
func (s *Service) Current(ctx context.Context, id int64) (*Diagnosis, error) {
	all, err := s.History(ctx, id)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Type == TypeNormal {
			return &all[i], nil
		}
	}
	return nil, nil
}

// History returns every version, supplementary reports included, for a
// case the caller may see. Sites see only released reports.
func (s *Service) History(ctx context.Context, id int64) ([]Diagnosis, error) {
	r, err := s.deps.Cases.Case(ctx, id)
	if err != nil {
		return nil, err
	}
	all, err := s.query(s.db)(ctx, "d.consult_id = ?", id)
	if err != nil {
		return nil, err
	}
	p := access.FromContext(ctx)
	if p.HasAny(access.DiagnosisReaders) {
		return all, nil
	}
	now := s.now()
	return slices.DeleteFunc(all, func(d Diagnosis) bool {
		return d.Status != Published || (d.ReleaseAt != nil && now.Before(*d.ReleaseAt)) || r.Releasing
	}), nil
}

// ToReview sends the diagnosis to a second expert of the center.
func (s *Service) ToReview(ctx context.Context, id, reviewerID int64) error {
	me := access.FromContext(ctx).UserID
	return s.deps.Cases.Apply(ctx, id, consultation.ActToReview, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		if reviewerID == me {
			return nil, apperr.New(apperr.Invalid, "error.validation").Field("reviewer_id", "diagnosis.reviewer_self")
		}
		if err := s.checkExpert(ctx, r, reviewerID, "reviewer_id"); err != nil {
			return nil, err
		}
		work, err := s.nonEmpty(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("status", ToReview).Set("reviewer_id", reviewerID).
			Set("review_note", "").Set("updated_at", s.now()).Where("id = ?", work.ID)); err != nil {
			return nil, apperr.Wrap(err, "to review")
		}
		return map[string]any{"reviewer_id": reviewerID}, nil
	})
}

// nonEmpty returns the working diagnosis, refusing an empty one.
func (s *Service) nonEmpty(ctx context.Context, tx *db.Tx, id int64) (*Diagnosis, error) {
	work, err := s.working(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if work == nil || work.Opinion == "" {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("opinion", "diagnosis.empty")
	}
	return work, nil
}

// Review answers a review: approve (the author may publish) or return
// (with a note, the author edits again).
func (s *Service) Review(ctx context.Context, id int64, approve bool, note string) error {
	name, status := consultation.ActReviewApprove, Approved
	note = strings.TrimSpace(note)
	if !approve {
		name, status = consultation.ActReviewReturn, Returned
		if note == "" {
			return apperr.New(apperr.Invalid, "error.validation").Field("note", "case.reason_required")
		}
	}
	return s.deps.Cases.Apply(ctx, id, name, note, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		work, err := s.working(ctx, tx, id)
		if err != nil || work == nil {
			return nil, refuse("diagnosis.empty_state")
		}
		_, err = db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("status", status).Set("review_note", note).
			Set("updated_at", s.now()).Where("id = ?", work.ID))
		return nil, apperr.Wrap(err, "review")
	})
}

// RecallReview takes a diagnosis back from review before it is answered.
func (s *Service) RecallReview(ctx context.Context, id int64) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActReviewRecall, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("status", Draft).Set("updated_at", s.now()).
			Where("consult_id = ? AND type = ? AND status = ?", id, TypeNormal, ToReview))
		return map[string]any{"reviewer_id": nil}, apperr.Wrap(err, "recall review")
	})
}

// PublishInput says how to publish.
type PublishInput struct {
	Delayed         bool `json:"delayed,omitempty" doc:"Release after the library's hesitation period instead of now"`
	ConfirmUnviewed bool `json:"confirm_unviewed,omitempty" doc:"Publish although some slides were not viewed"`
}

// Publish signs the diagnosis: released now, or after the hesitation period
// during which the expert may still recall it. The checks run in the order
// that tells the expert what to do: may they sign this case at all (role,
// state, lock, a review passed: reviewPassed), is there a diagnosis, and only then
// whether slides are unviewed — the one refusal the expert may override
// (confirm_unviewed), so it must not hide the others. It carries the field
// confirm_unviewed so that clients can tell it from other conflicts.
func (s *Service) Publish(ctx context.Context, id int64, in PublishInput) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActPublish, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		work, err := s.nonEmpty(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		if !in.ConfirmUnviewed {
			unviewed, err := s.unviewed(ctx, tx, id)
			if err != nil {
				return nil, err
			}
			if unviewed > 0 {
				return nil, apperr.New(apperr.Conflict, "diagnosis.unviewed_slides").With("count", unviewed).
					Field("confirm_unviewed", "diagnosis.unviewed_slides", "count", unviewed)
			}
		}
		now := s.now()
		release := now
		if in.Delayed && r.LibraryID != nil {
			hours, err := s.deps.DelayHours(ctx, *r.LibraryID)
			if err != nil {
				return nil, err
			}
			release = now.Add(time.Duration(hours) * time.Hour)
		}
		_, err = db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(map[string]any{
			"status": Published, "published_at": now, "release_at": release, "updated_at": now,
			"report_no": reportNo(now, work.ID), "verify_code": verifyCode(),
		}).Where("id = ?", work.ID))
		if err != nil {
			return nil, apperr.Wrap(err, "publish")
		}
		return map[string]any{"locked_by": nil, "published_at": now, "release_at": release, "print_deliver_status": ToPrint}, nil
	})
}

// RecallPublication takes back a report still in its hesitation period.
func (s *Service) RecallPublication(ctx context.Context, id int64) error {
	me := access.FromContext(ctx).UserID
	return s.deps.Cases.Apply(ctx, id, consultation.ActDiagnosisRecall, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(map[string]any{
			"status": Draft, "published_at": nil, "release_at": nil, "report_no": "", "verify_code": "", "updated_at": s.now(),
		}).Where("consult_id = ? AND type = ? AND status = ? AND release_at > ?", id, TypeNormal, Published, s.now()))
		if err != nil {
			return nil, apperr.Wrap(err, "recall publication")
		}
		return map[string]any{"locked_by": me, "published_at": nil, "release_at": nil, "print_deliver_status": 0}, nil
	})
}

// Return gives an assigned case back to the center with a reason.
func (s *Service) Return(ctx context.Context, id int64, reason string) error {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return apperr.New(apperr.Invalid, "error.validation").Field("reason", "case.reason_required")
	}
	return s.deps.Cases.Apply(ctx, id, consultation.ActExpertReturn, reason, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		vals, err := s.deps.Cases.EndHandover(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		for k, v := range map[string]any{"expert_id": nil, "locked_by": nil, "return_reason": reason, "assigned_at": nil, "timeout_at": nil,
			"remind_at": nil, "returned_by": access.FromContext(ctx).UserID} {
			vals[k] = v
		}
		return vals, nil
	})
}

// Delay extends the time allowed for a case by days, with a reason.
func (s *Service) Delay(ctx context.Context, id int64, days int, reason string) error {
	reason = strings.TrimSpace(reason)
	var v apperr.Validation
	if days < 1 || days > 30 {
		v.Add("days", "diagnosis.delay_days")
	}
	if reason == "" {
		v.Add("reason", "case.reason_required")
	}
	if err := v.Err(); err != nil {
		return err
	}
	return s.deps.Cases.Apply(ctx, id, consultation.ActDelay, fmt.Sprintf("%d: %s", days, reason), func(_ *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		vals := map[string]any{"delay_days": r.DelayDays + days, "delay_reason": reason}
		if r.TimeoutAt != nil {
			vals["timeout_at"] = r.TimeoutAt.Add(time.Duration(days) * 24 * time.Hour)
			if r.RemindAt != nil {
				vals["remind_at"] = r.RemindAt.Add(time.Duration(days) * 24 * time.Hour)
			}
		}
		return vals, nil
	})
}

func (s *Service) checkExpert(ctx context.Context, r *consultation.Row, expertID int64, field string) error {
	if r.CenterID == nil {
		return apperr.New(apperr.Invalid, "error.validation").Field(field, "case.expert_unknown")
	}
	experts, err := s.deps.Experts(ctx, *r.CenterID)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(experts, func(e consultation.PersonRef) bool { return e.ID == expertID }) {
		return apperr.New(apperr.Invalid, "error.validation").Field(field, "case.expert_unknown")
	}
	return nil
}

// NotViewed counts the case's viewable slides the caller has not opened.
// It reads the slide views the viewer records (the upload domain's table).
func (s *Service) NotViewed(ctx context.Context, id int64) (int, error) {
	if _, err := s.deps.Cases.Case(ctx, id); err != nil {
		return 0, err
	}
	return s.unviewed(ctx, s.db, id)
}

// ViewSlide records that the caller opened a slide of the case (the
// viewer's view record, spec 2 §7 view/{slideId}) and returns how many of
// the case's slides they have still not opened.
func (s *Service) ViewSlide(ctx context.Context, id, slideID int64) (int, error) {
	if _, err := s.deps.Cases.Case(ctx, id); err != nil {
		return 0, err
	}
	me := access.FromContext(ctx).UserID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var n int
		if err := db.Get(ctx, tx, &n, tx.Builder().Select("COUNT(*)").From("slides").
			Where("id = ? AND consult_id = ? AND status >= 0", slideID, id)); err != nil {
			return apperr.Wrap(err, "load slide")
		}
		if n == 0 {
			return apperr.New(apperr.NotFound, "error.not_found")
		}
		now := s.now()
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("slide_views").
			Columns("slide_id", "user_id", "first_viewed_at", "last_viewed_at", "view_count").Values(slideID, me, now, now, 1).
			Suffix("ON CONFLICT (slide_id, user_id) DO UPDATE SET last_viewed_at = excluded.last_viewed_at, view_count = slide_views.view_count + 1"))
		return apperr.Wrap(err, "record view")
	})
	if err != nil {
		return 0, err
	}
	return s.unviewed(ctx, s.db, id)
}

// unviewed counts, in q, the case's viewable slides the caller has not opened.
func (s *Service) unviewed(ctx context.Context, q db.Querier, id int64) (int, error) {
	var n int
	err := db.Get(ctx, q, &n, s.db.Builder().Select("COUNT(*)").From("slides sl").
		Where("sl.consult_id = ? AND sl.status >= 0 AND sl.viewable = 1", id).
		Where("NOT EXISTS (SELECT 1 FROM slide_views v WHERE v.slide_id = sl.id AND v.user_id = ?)", access.FromContext(ctx).UserID))
	return n, apperr.Wrap(err, "not viewed")
}

// Neighbour returns the previous (dir -1) or next (dir 1) case assigned to
// the caller, for moving through the worklist; 0 when there is none.
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

// reportNo is the readable, unique number printed on a report.
func reportNo(at time.Time, id int64) string { return fmt.Sprintf("R%s%06d", at.Format("060102"), id) }

// verifyCode is the short code printed on a report to check it online.
func verifyCode() string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789" // no 0/O, 1/I
	b := make([]byte, 10)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
