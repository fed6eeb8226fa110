package diagnosis

import (
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/upload"
)

// Deps are the other domains the diagnosis service calls.
type Deps struct {
	Cases *consultation.Service
	// Experts lists the experts of a center (to review, to invite).
	Experts func(ctx context.Context, centerID int64) ([]consultation.PersonRef, error)
	// DelayHours is the hesitation period of a case's library.
	DelayHours func(ctx context.Context, libraryID int64) (int, error)
	// StructValues checks structured values about to be saved with a
	// diagnosis (their template exists, each value fits its field); StructProblems
	// lists the blocking problems of saved values, in the caller's language.
	StructValues   func(ctx context.Context, q db.Querier, templateID int64, values map[string]any) (map[string]any, error)
	StructProblems func(ctx context.Context, q db.Querier, templateID int64, values map[string]any) ([]string, error)
	// TimeoutReason says whether a report signed after its deadline needs a
	// reason (the timeout_reason setting).
	TimeoutReason func(ctx context.Context) bool
	// SupplementReport says whether experts may write supplementary reports
	// (the supplement_report setting; nil: they may).
	SupplementReport func(ctx context.Context) bool
	// ReportClasses are the report classes a center offers (the report_class
	// setting of that center; nil: none).
	ReportClasses func(ctx context.Context, centerID int64) []string
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
	s := &Service{db: d, deps: deps, now: clock.Clock{}.Now}
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
	return s.deps.Cases.Apply(ctx, id, consultation.ActLock, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		c, err := s.deps.Cases.AcceptHandover(ctx, tx, r)
		c.LockedBy = consultation.Set(me)
		return c, err
	})
}

// Unlock gives up the lock without losing the draft.
func (s *Service) Unlock(ctx context.Context, id int64) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActUnlock, "", func(_ *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		return consultation.Change{LockedBy: consultation.Clear[int64]()}, nil
	})
}

// Save keeps the expert's draft; nothing is lost on reload.
func (s *Service) Save(ctx context.Context, id int64, in Input) (*Diagnosis, error) {
	me := access.FromContext(ctx).UserID
	in.trim()
	if err := in.checkVerdict(); err != nil {
		return nil, err
	}
	err := s.deps.Cases.Apply(ctx, id, consultation.ActSave, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		if err := s.checkReportClass(ctx, tx, r, in.ReportClass); err != nil {
			return consultation.Change{}, err
		}
		_, err := s.writeDraft(ctx, tx, id, me, in)
		return consultation.Change{}, err
	})
	if err != nil {
		return nil, err
	}
	return s.Current(ctx, id)
}

// FrozenVerdicts are the intra-operative verdicts of a frozen diagnosis.
var FrozenVerdicts = []string{"benign", "malignant", "deferred"}

func (in *Input) checkVerdict() error {
	if in.FrozenVerdict == "" || slices.Contains(FrozenVerdicts, in.FrozenVerdict) {
		return nil
	}
	var v apperr.Validation
	v.Add("frozen_verdict", "diagnosis.frozen_verdict")
	return v.Err()
}

// ReportClasses are the report classes the case's center offers.
func (s *Service) reportClasses(ctx context.Context, r *consultation.Row) []string {
	if s.deps.ReportClasses == nil || r.CenterID == nil {
		return nil
	}
	return s.deps.ReportClasses(ctx, *r.CenterID)
}

// checkReportClass accepts no class, one of the case's center's classes, or
// the class the working draft already has (the center may have dropped it
// since: the expert's saves keep working until they choose again).
func (s *Service) checkReportClass(ctx context.Context, tx *db.Tx, r *consultation.Row, class string) error {
	if class == "" || slices.Contains(s.reportClasses(ctx, r), class) {
		return nil
	}
	work, err := s.working(ctx, tx, r.ID)
	if err != nil {
		return err
	}
	return s.classKept(ctx, r, class, work)
}

// classKept accepts a class the draft already has (else refuses it, in
// both languages): the center may have dropped it since.
func (s *Service) classKept(ctx context.Context, r *consultation.Row, class string, draft *Diagnosis) error {
	if class == "" || slices.Contains(s.reportClasses(ctx, r), class) || (draft != nil && draft.ReportClass == class) {
		return nil
	}
	return apperr.New(apperr.Invalid, "error.validation").Field("report_class", "diagnosis.report_class_unknown", "item", class)
}

func (in *Input) trim() {
	for _, p := range []*string{&in.Microscopic, &in.Opinion, &in.GrossDescription, &in.Remark, &in.CriticalValues, &in.ReportClass} {
		*p = strings.TrimSpace(*p)
	}
}

// writeDraft updates the working version of the normal diagnosis, or starts
// one (a new version after a published one was recalled).
func (s *Service) writeDraft(ctx context.Context, tx *db.Tx, id, me int64, in Input) (int64, error) {
	now := s.now()
	vals := map[string]any{"microscopic": in.Microscopic, "opinion": in.Opinion, "gross_description": in.GrossDescription,
		"remark": in.Remark, "critical_values": in.CriticalValues, "frozen_verdict": in.FrozenVerdict, "report_class": in.ReportClass, "updated_at": now}
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
	// A new version (an amendment, a recalled report) starts from the
	// structured values of the one before.
	var prev []struct {
		TemplateID *int64 `db:"struct_template_id"`
		Values     string `db:"struct_values"`
	}
	if err := db.Select(ctx, tx, &prev, tx.Builder().Select("struct_template_id", "struct_values").From("diagnoses").
		Where("consult_id = ? AND type = ?", id, TypeNormal).OrderBy("version DESC").Limit(1)); err != nil {
		return 0, apperr.Wrap(err, "previous structured values")
	}
	if len(prev) > 0 && prev[0].TemplateID != nil {
		vals["struct_template_id"], vals["struct_values"] = *prev[0].TemplateID, prev[0].Values
	}
	vals["consult_id"], vals["type"], vals["version"], vals["status"], vals["doctor_id"], vals["created_at"] = id, TypeNormal, version, Draft, me, now
	did, err := db.InsertID(ctx, tx, tx.Builder().Insert("diagnoses").SetMap(vals))
	return did, apperr.Wrap(err, "insert diagnosis")
}

const columns = `d.id, d.consult_id, d.type, d.version, d.status, d.microscopic, d.opinion, d.gross_description, d.remark,
	d.critical_values, d.frozen_verdict, d.report_class, d.doctor_id, u.name AS doctor_name, d.reviewer_id, rv.name AS reviewer_name, d.review_note,
	d.report_no, d.verify_code, d.published_at, d.release_at, d.created_at, d.updated_at,
	d.first_result, d.first_result_reason, d.struct_template_id, d.struct_values`

func (s *Service) query(b db.Querier) func(ctx context.Context, where string, args ...any) ([]Diagnosis, error) {
	return func(ctx context.Context, where string, args ...any) ([]Diagnosis, error) {
		out := []Diagnosis{}
		err := db.Select(ctx, b, &out, s.db.Builder().Select(columns).From("diagnoses d").Join("users u ON u.id = d.doctor_id").
			LeftJoin("users rv ON rv.id = d.reviewer_id").Where(where, args...).OrderBy("d.type", "d.version"))
		if err != nil {
			return nil, apperr.Wrap(err, "load diagnoses")
		}
		return out, decodeStructured(out)
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
	return s.deps.Cases.Apply(ctx, id, consultation.ActToReview, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		if reviewerID == me {
			return consultation.Change{}, apperr.New(apperr.Invalid, "error.validation").Field("reviewer_id", "diagnosis.reviewer_self")
		}
		if err := s.checkExpert(ctx, r, reviewerID, "reviewer_id"); err != nil {
			return consultation.Change{}, err
		}
		work, err := s.nonEmpty(ctx, tx, id)
		if err != nil {
			return consultation.Change{}, err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("status", ToReview).Set("reviewer_id", reviewerID).
			Set("review_note", "").Set("updated_at", s.now()).Where("id = ?", work.ID)); err != nil {
			return consultation.Change{}, apperr.Wrap(err, "to review")
		}
		return consultation.Change{ReviewerID: consultation.Set(reviewerID)}, nil
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
	return s.deps.Cases.Apply(ctx, id, name, note, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		work, err := s.working(ctx, tx, id)
		if err != nil || work == nil {
			return consultation.Change{}, refuse("diagnosis.empty_state")
		}
		_, err = db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("status", status).Set("review_note", note).
			Set("updated_at", s.now()).Where("id = ?", work.ID))
		return consultation.Change{}, apperr.Wrap(err, "review")
	})
}

// RecallReview takes a diagnosis back from review before it is answered.
func (s *Service) RecallReview(ctx context.Context, id int64) error {
	return s.deps.Cases.Apply(ctx, id, consultation.ActReviewRecall, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("status", Draft).Set("updated_at", s.now()).
			Where("consult_id = ? AND type = ? AND status = ?", id, TypeNormal, ToReview))
		return consultation.Change{ReviewerID: consultation.Clear[int64]()}, apperr.Wrap(err, "recall review")
	})
}

// PublishInput says how to publish.
type PublishInput struct {
	Delayed         bool   `json:"delayed,omitempty" doc:"Release after the library's hesitation period instead of now"`
	ConfirmUnviewed bool   `json:"confirm_unviewed,omitempty" doc:"Publish although some slides were not viewed"`
	TimeoutReason   string `json:"timeout_reason,omitempty" maxLength:"500" doc:"Why the report is signed after the case's deadline (required then, when the timeout_reason setting is on)"`
}

// Publish signs the diagnosis: released now, or after the hesitation period
// during which the expert may still recall it. The checks run in the order
// that tells the expert what to do: may they sign this case at all (role,
// state, lock, a review passed: reviewPassed), is there a diagnosis, and only then
// whether slides are unviewed — the one refusal the expert may override
// (confirm_unviewed), so it must not hide the others. It carries the field
// confirm_unviewed so that clients can tell it from other conflicts.
func (s *Service) Publish(ctx context.Context, id int64, in PublishInput) error {
	late := strings.TrimSpace(in.TimeoutReason)
	return s.deps.Cases.Apply(ctx, id, consultation.ActPublish, late, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		work, err := s.nonEmpty(ctx, tx, id)
		if err != nil {
			return consultation.Change{}, err
		}
		timedOut := r.TimeoutAt != nil && s.now().After(*r.TimeoutAt)
		if timedOut && late == "" && s.deps.TimeoutReason != nil && s.deps.TimeoutReason(ctx) {
			return consultation.Change{}, apperr.New(apperr.Invalid, "error.validation").Field("timeout_reason", "diagnosis.timeout_reason_required")
		}
		if !in.ConfirmUnviewed {
			unviewed, err := s.unviewed(ctx, tx, id)
			if err != nil {
				return consultation.Change{}, err
			}
			if unviewed > 0 {
				return consultation.Change{}, apperr.New(apperr.Conflict, "diagnosis.unviewed_slides").With("count", unviewed).
					Field("confirm_unviewed", "diagnosis.unviewed_slides", "count", unviewed)
			}
		}
		now := s.now()
		release := now
		if in.Delayed && r.LibraryID != nil {
			hours, err := s.deps.DelayHours(ctx, *r.LibraryID)
			if err != nil {
				return consultation.Change{}, err
			}
			release = now.Add(time.Duration(hours) * time.Hour)
		}
		_, err = db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(map[string]any{
			"status": Published, "published_at": now, "release_at": release, "updated_at": now,
			"report_no": reportNo(now, work.ID), "verify_code": verifyCode(),
		}).Where("id = ?", work.ID))
		if err != nil {
			return consultation.Change{}, apperr.Wrap(err, "publish")
		}
		c := consultation.Change{LockedBy: consultation.Clear[int64](), PublishedAt: consultation.Set(now), ReleaseAt: consultation.Set(release),
			PrintDeliver: consultation.Set(ToPrint)}
		if timedOut && late != "" {
			c.TimeoutReason = consultation.Set(late) // kept on the case for the statistics; the case log shows it too
		}
		return c, nil
	})
}

// RecallPublication takes back a report still in its hesitation period.
func (s *Service) RecallPublication(ctx context.Context, id int64) error {
	me := access.FromContext(ctx).UserID
	return s.deps.Cases.Apply(ctx, id, consultation.ActDiagnosisRecall, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		if err := s.Unsign(ctx, tx, id, s.now()); err != nil {
			return consultation.Change{}, err
		}
		return Unsigned(&me), nil
	})
}

// Return gives an assigned case back to the center with a reason.
func (s *Service) Return(ctx context.Context, id int64, reason string) error {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return apperr.New(apperr.Invalid, "error.validation").Field("reason", "case.reason_required")
	}
	return s.deps.Cases.Apply(ctx, id, consultation.ActExpertReturn, reason, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		c, err := s.deps.Cases.EndHandover(ctx, tx, id)
		c.ExpertID, c.LockedBy, c.ReturnReason, c.ReturnedBy = consultation.Clear[int64](), consultation.Clear[int64](), consultation.Set(reason),
			consultation.Set(access.FromContext(ctx).UserID)
		c.AssignedAt, c.TimeoutAt, c.RemindAt = consultation.Clear[time.Time](), consultation.Clear[time.Time](), consultation.Clear[time.Time]()
		return c, err
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
	return s.deps.Cases.Apply(ctx, id, consultation.ActDelay, fmt.Sprintf("%d: %s", days, reason), func(_ *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		c := consultation.Change{DelayDays: consultation.Set(r.DelayDays + days), DelayReason: consultation.Set(reason)}
		if r.TimeoutAt != nil {
			c.TimeoutAt = consultation.Set(r.TimeoutAt.Add(time.Duration(days) * 24 * time.Hour))
			if r.RemindAt != nil {
				c.RemindAt = consultation.Set(r.RemindAt.Add(time.Duration(days) * 24 * time.Hour))
			}
		}
		return c, nil
	})
}

func (s *Service) checkExpert(ctx context.Context, r *consultation.Row, expertID int64, field string) error {
	return consultation.ExpertOf(ctx, r, s.deps.Experts, expertID, field)
}

// NotViewed counts the case's viewable slides the caller has not opened.
// It asks the slide domain, which keeps the views the viewer records.
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
		ok, err := upload.InCase(ctx, tx, id, slideID)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.New(apperr.NotFound, "error.not_found")
		}
		return upload.RecordView(ctx, tx, slideID, me, s.now())
	})
	if err != nil {
		return 0, err
	}
	return s.unviewed(ctx, s.db, id)
}

// unviewed counts, in q, the case's viewable slides the caller has not opened.
func (s *Service) unviewed(ctx context.Context, q db.Runner, id int64) (int, error) {
	return upload.Unviewed(ctx, q, id, access.FromContext(ctx).UserID)
}

// Neighbour returns the previous (dir -1) or next (dir 1) case assigned to
// the caller, for moving through the worklist; 0 when there is none.
func (s *Service) Neighbour(ctx context.Context, id int64, dir int) (int64, error) {
	return s.deps.Cases.Neighbour(ctx, id, dir)
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

// Unsigned is what changes on the case when its signed report goes back to
// a draft: no signature, no release, nothing to print; lockedBy edits it
// (nil: unlocked).
func Unsigned(lockedBy *int64) consultation.Change {
	c := consultation.Change{LockedBy: consultation.Clear[int64](), PublishedAt: consultation.Clear[time.Time](),
		ReleaseAt: consultation.Clear[time.Time](), PrintDeliver: consultation.Set(0)}
	if lockedBy != nil {
		c.LockedBy = consultation.Set(*lockedBy)
	}
	return c
}
