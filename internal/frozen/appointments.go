package frozen

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/consultation"
	"telepath/internal/diagnosis"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// BookInput is a site's request for a frozen section.
type BookInput struct {
	CenterID         int64  `json:"center_id,omitempty"`
	HospitalID       int64  `json:"hospital_id,omitempty" doc:"Defaults to the caller's only hospital"`
	PatientName      string `json:"patient_name,omitempty" maxLength:"100"`
	Gender           string `json:"gender,omitempty" enum:"male,female,unknown"`
	Age              string `json:"age,omitempty" maxLength:"10" doc:"Years"`
	OperationAt      string `json:"operation_at,omitempty" example:"2026-12-01 09:30" doc:"RFC 3339, or a local time in the center's time zone"`
	OperatingRoom    string `json:"operating_room,omitempty" maxLength:"100"`
	Surgeon          string `json:"surgeon,omitempty" maxLength:"100"`
	Phone            string `json:"phone,omitempty" maxLength:"40"`
	SpecimenSite     string `json:"specimen_site,omitempty" maxLength:"200"`
	ClinicalQuestion string `json:"clinical_question,omitempty" maxLength:"2000"`
}

// ReasonInput carries a reason (return, recall).
type ReasonInput struct {
	Reason string `json:"reason,omitempty" maxLength:"500"`
}

// AssignInput names the expert; none assigns the next expert on duty.
type AssignInput struct {
	ExpertID int64 `json:"expert_id,omitempty"`
}

func (s *Service) parseTime(v string) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.UTC(), true
	}
	for _, layout := range []string{"2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, v, s.clock.Zone()); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// Book records a site's appointment (applying). The operation must be in
// the future, at a time some expert of the center is on duty.
func (s *Service) Book(ctx context.Context, in BookInput) (*Appointment, error) {
	p := access.FromContext(ctx)
	if in.HospitalID == 0 && len(p.HospitalIDs) == 1 {
		in.HospitalID = p.HospitalIDs[0]
	}
	at, err := s.checkBooking(ctx, &in)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var out *Appointment
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.checkOnDuty(ctx, tx, in.CenterID, at); err != nil {
			return err
		}
		vals := bookingColumns(in, at)
		vals["hospital_id"], vals["user_id"], vals["status"], vals["version"], vals["created_at"], vals["updated_at"] = in.HospitalID, p.UserID, StatusApplying, 1, now, now
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("frozen_appointments").SetMap(vals))
		if err != nil {
			return apperr.Wrap(err, "insert appointment")
		}
		if out, err = s.load(ctx, tx, id); err != nil {
			return err
		}
		if err := s.tell(ctx, tx, "booked", out); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "frozen.book", ObjectType: "frozen_appointment", ObjectID: id, After: out})
	})
	return out, err
}

// Resubmit sends a returned appointment again, changed as the site sees fit
// (a new time, another center): applying again, checked like a booking.
func (s *Service) Resubmit(ctx context.Context, id int64, in BookInput) (*Appointment, error) {
	return s.move(ctx, id, ActResubmit, func(tx *db.Tx, a *Appointment) (map[string]any, error) {
		in.HospitalID = a.HospitalID
		at, err := s.checkBooking(ctx, &in)
		if err != nil {
			return nil, err
		}
		if err := s.checkOnDuty(ctx, tx, in.CenterID, at); err != nil {
			return nil, err
		}
		vals := bookingColumns(in, at)
		vals["status"], vals["return_reason"], vals["is_ignored"] = StatusApplying, "", 0
		return vals, nil
	})
}

// checkBooking checks a booking's fields and returns its operation time:
// the caller's hospital, one of its centers, the required fields, a time
// in the future.
func (s *Service) checkBooking(ctx context.Context, in *BookInput) (time.Time, error) {
	p := access.FromContext(ctx)
	var v apperr.Validation
	if !slices.Contains(p.HospitalIDs, in.HospitalID) {
		v.Add("hospital_id", "field.required")
	}
	if in.CenterID <= 0 {
		v.Add("center_id", "field.required")
	} else if !v.Has("hospital_id") {
		cs, err := s.deps.HospitalCenters(ctx, in.HospitalID)
		if err != nil {
			return time.Time{}, err
		}
		if !slices.Contains(cs, in.CenterID) {
			v.Add("center_id", "frozen.center_not_yours")
		}
	}
	for field, val := range map[string]*string{"patient_name": &in.PatientName, "surgeon": &in.Surgeon, "phone": &in.Phone, "specimen_site": &in.SpecimenSite} {
		*val = strings.TrimSpace(*val)
		if *val == "" {
			v.Add(field, "field.required")
		}
	}
	at, ok := s.parseTime(in.OperationAt)
	switch {
	case strings.TrimSpace(in.OperationAt) == "":
		v.Add("operation_at", "field.required")
	case !ok:
		v.Add("operation_at", "field.invalid")
	case !at.After(s.clock.Now()):
		v.Add("operation_at", "frozen.operation_past")
	}
	return at, v.Err()
}

// takersOnDuty lists the experts of the center on duty at t who take new
// cases (their role configuration), those bound to the frozen library
// first; the round robin order of OnDuty holds within each.
func (s *Service) takersOnDuty(ctx context.Context, tx *db.Tx, centerID int64, t time.Time) ([]DutyExpert, error) {
	on, err := s.OnDuty(ctx, tx, centerID, t)
	if err != nil || len(on) == 0 {
		return on, err
	}
	experts, err := s.deps.Experts(ctx, centerID)
	if err != nil {
		return nil, err
	}
	var lib int64
	if s.deps.FrozenLibrary != nil {
		if lib, _, err = s.deps.FrozenLibrary(ctx); err != nil {
			return nil, err
		}
	}
	bound, other := []DutyExpert{}, []DutyExpert{}
	for _, d := range on {
		i := slices.IndexFunc(experts, func(e DutyExpert) bool { return e.ID == d.ID })
		switch {
		case i < 0 || !experts[i].TakesCases:
		case lib != 0 && slices.Contains(experts[i].Subspecialties, lib):
			bound = append(bound, d)
		default:
			other = append(other, d)
		}
	}
	return append(bound, other...), nil
}

// checkOnDuty refuses an operation time with nobody of the center on duty.
func (s *Service) checkOnDuty(ctx context.Context, tx *db.Tx, centerID int64, at time.Time) error {
	on, err := s.takersOnDuty(ctx, tx, centerID, at)
	if err != nil {
		return err
	}
	if len(on) == 0 {
		return apperr.New(apperr.Invalid, "error.validation").Field("operation_at", "frozen.no_duty")
	}
	return nil
}

// bookingColumns are the columns a booking sets.
func bookingColumns(in BookInput, at time.Time) map[string]any {
	return map[string]any{"center_id": in.CenterID, "patient_name": in.PatientName, "gender": strings.TrimSpace(in.Gender),
		"age": strings.TrimSpace(in.Age), "operation_at": at, "operating_room": strings.TrimSpace(in.OperatingRoom), "surgeon": in.Surgeon,
		"phone": in.Phone, "specimen_site": in.SpecimenSite, "clinical_question": strings.TrimSpace(in.ClinicalQuestion)}
}

var apptColumns = `a.id, a.center_id, c.name AS center_name, a.hospital_id, h.name AS hospital_name, a.user_id, a.status, a.is_recall,
a.is_ignored, a.patient_name, a.gender, a.age, a.operation_at, a.operating_room, a.surgeon, a.phone, a.specimen_site,
a.clinical_question, a.return_reason, a.recall_reason, a.consultation_id, a.expert_id, e.name AS expert_name, a.arrived_at,
a.assigned_at, a.first_open_at, a.reported_at, a.version, a.created_at, a.updated_at, c.frozen_amber_min, c.frozen_red_min,
` + diagnosis.Latest("frozen_verdict", "a.consultation_id") + ` AS frozen_verdict,
` + diagnosis.Latest("opinion", "a.consultation_id") + ` AS frozen_opinion,
pc.id AS paraffin_case_id, pc.consult_no AS paraffin_consult_no, pc.expert_id AS paraffin_expert_id,
CASE WHEN pc.status = 4 THEN 1 ELSE 0 END AS paraffin_published,
a.concordance, a.concordance_note, cb.name AS concordance_by_name, a.concordance_at`

// A paraffin case the site deleted (a discarded draft) is no link: another may be registered.
const apptFrom = `frozen_appointments a JOIN centers c ON c.id = a.center_id JOIN hospitals h ON h.id = a.hospital_id LEFT JOIN users e ON e.id = a.expert_id
LEFT JOIN consultations pc ON pc.id = a.paraffin_case_id AND pc.deleted_at IS NULL LEFT JOIN users cb ON cb.id = a.concordance_by`

// scope is the condition on "a" for the appointments the caller sees: a
// site its hospitals', an allocator or center administrator their
// centers', an expert the frozen cases assigned to them, staff the frozen
// cases of their centers, an administrator all.
func scope(p *access.Principal) sq.Sqlizer {
	if p == nil {
		return sq.Expr("1 = 0")
	}
	if p.IsAdmin() {
		return sq.Expr("1 = 1")
	}
	or := sq.Or{}
	if (p.Has(access.Site) || p.Has(access.Clinical)) && len(p.HospitalIDs) > 0 {
		or = append(or, sq.Eq{"a.hospital_id": p.HospitalIDs})
	}
	if (p.Has(access.Allocator) || p.Has(access.CenterAdmin)) && len(p.CenterIDs) > 0 {
		or = append(or, sq.Eq{"a.center_id": p.CenterIDs})
	}
	if p.Has(access.Expert) {
		or = append(or, sq.Eq{"a.expert_id": p.UserID},
			sq.Expr("EXISTS (SELECT 1 FROM consultations px WHERE px.id = a.paraffin_case_id AND px.expert_id = ?)", p.UserID))
	}
	if p.Has(access.Staff) && len(p.CenterIDs) > 0 {
		or = append(or, sq.And{sq.Eq{"a.center_id": p.CenterIDs}, sq.Expr("a.arrived_at IS NOT NULL")})
	}
	if len(or) == 0 {
		return sq.Expr("1 = 0")
	}
	return or
}

func (s *Service) load(ctx context.Context, q db.Querier, id int64) (*Appointment, error) {
	var a Appointment
	err := db.Get(ctx, q, &a, s.db.Builder().Select(apptColumns).From(apptFrom).
		Where("a.id = ?", id).Where(scope(access.FromContext(ctx))))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load appointment")
	}
	a.paraffinOff = s.paraffinOff(ctx, a.CenterID, nil)
	finish(ctx, &a, s.clock.Now())
	return &a, nil
}

// Appointment returns one appointment the caller sees, with its actions.
func (s *Service) Appointment(ctx context.Context, id int64) (*Appointment, error) {
	return s.load(ctx, s.db, id)
}

var apptList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":               {Expr: "a.id", Type: listquery.Int, Sort: true, Filter: true},
		"patient_name":     {Expr: "a.patient_name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"surgeon":          {Expr: "a.surgeon", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"operating_room":   {Expr: "a.operating_room", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"specimen_site":    {Expr: "a.specimen_site", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"hospital_id":      {Expr: "a.hospital_id", Type: listquery.Int, Filter: true},
		"center_id":        {Expr: "a.center_id", Type: listquery.Int, Filter: true},
		"expert_id":        {Expr: "a.expert_id", Type: listquery.Int, Filter: true},
		"consultation_id":  {Expr: "a.consultation_id", Type: listquery.Int, Filter: true},
		"paraffin_case_id": {Expr: "a.paraffin_case_id", Type: listquery.Int, Filter: true},
		"concordance":      {Expr: "a.concordance", Type: listquery.String, Filter: true},
		"status":           {Expr: "a.status", Type: listquery.Int, Sort: true, Filter: true},
		"is_recall":        {Expr: "a.is_recall", Type: listquery.Int, Filter: true},
		"operation_at":     {Expr: "a.operation_at", Type: listquery.Time, Sort: true, Filter: true},
		"arrived_at":       {Expr: "a.arrived_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"reported_at":      {Expr: "a.reported_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"created_at":       {Expr: "a.created_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"a.operation_at ASC"},
	TieBreak:    "a.id ASC",
	ExtraParams: []string{"tab"},
}

// apptTabs are the tabs of the appointment lists at now; each screen shows
// some of them. An accepted appointment whose tissue never came is failed
// FailedAfter its operation time.
func apptTabs(now time.Time) map[string]sq.Sqlizer {
	failedBefore := now.Add(-FailedAfter)
	return map[string]sq.Sqlizer{
		"all":        nil,
		"applying":   sq.Expr("a.status = 99 AND a.is_recall = 0 AND a.arrived_at IS NULL AND a.is_ignored = 0"),
		"ignored":    sq.Expr("a.status = 99 AND a.is_recall = 0 AND a.arrived_at IS NULL AND a.is_ignored = 1"),
		"pending":    sq.Expr("a.status = 100 AND a.is_recall = 0 AND a.arrived_at IS NULL AND a.operation_at >= ?", failedBefore),
		"failed":     sq.Expr("a.status = 100 AND a.is_recall = 0 AND a.arrived_at IS NULL AND a.operation_at < ?", failedBefore),
		"returned":   sq.Expr("a.status = 101 AND a.is_recall = 0"),
		"recall":     sq.Expr("a.is_recall = 1"),
		"recalled":   sq.Expr("a.is_recall = 2"),
		"reading":    sq.Expr("a.arrived_at IS NOT NULL AND a.reported_at IS NULL"),
		"unassigned": sq.Expr("a.arrived_at IS NOT NULL AND a.reported_at IS NULL AND a.expert_id IS NULL"),
		"reported":   sq.Expr("a.reported_at IS NOT NULL"),
		"done":       sq.Expr("(a.status = 100 OR a.arrived_at IS NOT NULL) AND a.is_recall = 0"),
	}
}

// Appointments lists the appointments the caller sees (tab: see apptTabs).
func (s *Service) Appointments(ctx context.Context, req listquery.Request) ([]Appointment, listquery.Pagination, error) {
	q, err := apptList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	now := s.clock.Now()
	tab, err := q.Tab(apptTabs(now))
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	sc := scope(access.FromContext(ctx))
	base := s.db.Builder().Select(apptColumns).From(apptFrom).Where(sc).Where(tab)
	count := s.db.Builder().Select("COUNT(*)").From("frozen_appointments a").Where(sc).Where(tab)
	rows, pg, err := listquery.Run[Appointment](ctx, s.db, q, base, count)
	off := map[int64]bool{}
	for i := range rows {
		rows[i].paraffinOff = s.paraffinOff(ctx, rows[i].CenterID, off)
		finish(ctx, &rows[i], now)
	}
	return rows, pg, err
}

// CountAppointments returns the tab counts of the caller's appointments.
func (s *Service) CountAppointments(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := apptList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	base := s.db.Builder().Select().From("frozen_appointments a").Where(scope(access.FromContext(ctx)))
	return listquery.Counts(ctx, s.db, q, base, apptTabs(s.clock.Now()))
}

// move makes act on appointment id in one transaction: the caller must see
// it and the state machine must allow act; change returns the columns to set.
func (s *Service) move(ctx context.Context, id int64, act Action, change func(tx *db.Tx, a *Appointment) (map[string]any, error)) (*Appointment, error) {
	var out *Appointment
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		out, err = s.moveIn(ctx, tx, id, act, false, change)
		return err
	})
	return out, err
}

// moveIn is move in the caller's transaction; asCenter makes act as the
// center would (the state machine must still allow it from the phase), for
// what the system does on the center's behalf.
func (s *Service) moveIn(ctx context.Context, tx *db.Tx, id int64, act Action, asCenter bool, change func(tx *db.Tx, a *Appointment) (map[string]any, error)) (*Appointment, error) {
	var out *Appointment
	err := func() error {
		a, err := s.load(ctx, tx, id)
		if err != nil {
			return err
		}
		allowed := Allowed(access.FromContext(ctx), a, act)
		if asCenter {
			allowed = allowedAs(a, act, SideAllocator)
		}
		if !allowed {
			if act == ActRecall && a.Phase == PhaseReported {
				return apperr.New(apperr.Conflict, "frozen.already_reported")
			}
			return apperr.New(apperr.Conflict, "frozen.not_allowed").With("action", string(act))
		}
		set, err := change(tx, a)
		if err != nil {
			return err
		}
		set["version"] = sq.Expr("version + 1")
		set["updated_at"] = s.clock.Now()
		res, err := db.Exec(ctx, tx, tx.Builder().Update("frozen_appointments").SetMap(set).Where("id = ? AND version = ?", id, a.Version))
		if err != nil {
			return apperr.Wrap(err, "update appointment")
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return apperr.New(apperr.Conflict, "frozen.version_conflict")
		}
		if out, err = s.load(ctx, tx, id); err != nil {
			return err
		}
		if ev, ok := events[act]; ok {
			if err := s.tell(ctx, tx, ev, out); err != nil {
				return err
			}
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "frozen." + string(act), ObjectType: "frozen_appointment", ObjectID: id, Before: a, After: out})
	}()
	return out, err
}

func reason(in ReasonInput, required bool) (string, error) {
	r := strings.TrimSpace(in.Reason)
	if required && r == "" {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("reason", "field.required")
	}
	return r, nil
}

// Accept confirms an appointment: appointment successful (pending).
func (s *Service) Accept(ctx context.Context, id int64) (*Appointment, error) {
	return s.move(ctx, id, ActAccept, func(*db.Tx, *Appointment) (map[string]any, error) {
		return map[string]any{"status": StatusPending}, nil
	})
}

// Return sends an appointment back to the site with a reason.
func (s *Service) Return(ctx context.Context, id int64, in ReasonInput) (*Appointment, error) {
	r, err := reason(in, true)
	if err != nil {
		return nil, err
	}
	return s.move(ctx, id, ActReturn, func(*db.Tx, *Appointment) (map[string]any, error) {
		return map[string]any{"status": StatusReturned, "return_reason": r}, nil
	})
}

// Ignore and Unignore set aside an application and take it back.
func (s *Service) Ignore(ctx context.Context, id int64) (*Appointment, error) {
	return s.move(ctx, id, ActIgnore, func(*db.Tx, *Appointment) (map[string]any, error) { return map[string]any{"is_ignored": 1}, nil })
}

func (s *Service) Unignore(ctx context.Context, id int64) (*Appointment, error) {
	return s.move(ctx, id, ActUnignore, func(*db.Tx, *Appointment) (map[string]any, error) { return map[string]any{"is_ignored": 0}, nil })
}

// Recall asks to withdraw an appointment (is_recall 1); the allocator
// confirms. When the center need not agree (the rollback_need_check
// setting off, spec 2 §3), the withdrawal is agreed at once in the same
// transaction, as the center would: recalled, with the same audit,
// notifications and lists as an agreement.
func (s *Service) Recall(ctx context.Context, id int64, in ReasonInput) (*Appointment, error) {
	r, _ := reason(in, false)
	var out *Appointment
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		if out, err = s.moveIn(ctx, tx, id, ActRecall, false, func(*db.Tx, *Appointment) (map[string]any, error) {
			return map[string]any{"is_recall": RecallAsked, "recall_reason": r}, nil
		}); err != nil {
			return err
		}
		if s.deps.RecallNeedsCheck == nil || s.deps.RecallNeedsCheck(ctx) {
			return nil
		}
		out, err = s.moveIn(ctx, tx, id, ActRecallAgree, true, agreeRecall)
		return err
	})
	return out, err
}

func agreeRecall(*db.Tx, *Appointment) (map[string]any, error) {
	return map[string]any{"is_recall": RecallAgreed}, nil
}

// RecallAgree confirms a withdrawal (is_recall 2); RecallReject refuses it.
func (s *Service) RecallAgree(ctx context.Context, id int64) (*Appointment, error) {
	return s.move(ctx, id, ActRecallAgree, agreeRecall)
}

func (s *Service) RecallReject(ctx context.Context, id int64) (*Appointment, error) {
	return s.move(ctx, id, ActRecallReject, func(*db.Tx, *Appointment) (map[string]any, error) {
		return map[string]any{"is_recall": RecallNone}, nil
	})
}

// ArriveInput is the quick registration of the frozen case; what it leaves
// empty is filled from the appointment (see Prefill).
type ArriveInput struct {
	Case consultation.CaseInput `json:"case"`
}

// Prefill is the registration of the frozen case as the appointment fills it.
func (s *Service) Prefill(ctx context.Context, id int64) (*consultation.CaseInput, error) {
	a, err := s.load(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	in, err := s.prefill(ctx, a, consultation.CaseInput{})
	return &in, err
}

func (s *Service) prefill(ctx context.Context, a *Appointment, in consultation.CaseInput) (consultation.CaseInput, error) {
	lib, example, err := s.deps.FrozenLibrary(ctx)
	if err != nil {
		return in, err
	}
	hospital, err := s.deps.HospitalName(ctx, a.HospitalID)
	if err != nil {
		return in, err
	}
	or := func(p *string, v string) {
		if strings.TrimSpace(*p) == "" {
			*p = v
		}
	}
	if in.LibraryID == nil && lib > 0 {
		in.LibraryID = &lib
	}
	if in.CenterID == nil {
		in.CenterID = &a.CenterID
	}
	if in.PathologyNumber == "" && example != "" {
		in.PathologyNumber = example
	}
	or(&in.OriginalPathologyNumber, fmt.Sprintf("FZ%06d", a.ID))
	or(&in.Name, a.PatientName)
	or(&in.Gender, a.Gender)
	or(&in.Age, a.Age)
	or(&in.Phone, a.Phone)
	or(&in.InspectionHospital, hospital)
	or(&in.InspectionDoctor, a.Surgeon)
	or(&in.InspectionDate, s.clock.Local(s.clock.Now()).Format(dayLayout))
	or(&in.ClinicalDiagnosis, a.ClinicalQuestion)
	or(&in.ConsultPurpose, a.ClinicalQuestion)
	if len(in.Specimens) == 0 && a.SpecimenSite != "" {
		in.Specimens = []consultation.SpecimenInput{{Name: a.SpecimenSite, Part: a.SpecimenSite, SpecimenType: "ex_slide", Count: 1,
			Blocks: []consultation.BlockInput{{Name: "F1"}}}}
	}
	return in, nil
}

// Arrive turns the appointment into a frozen case in one step: the
// registration (prefilled from the appointment) and its slides are
// registered and submitted at once, and the case goes to the next expert on
// duty (round robin). With nobody on duty it waits for the allocator,
// unassigned. One transaction: a refused registration writes nothing.
func (s *Service) Arrive(ctx context.Context, id int64, in ArriveInput) (*Appointment, error) {
	return s.move(ctx, id, ActArrive, func(tx *db.Tx, a *Appointment) (map[string]any, error) {
		now := s.clock.Now()
		set := map[string]any{"arrived_at": now}
		on, err := s.takersOnDuty(ctx, tx, a.CenterID, now)
		if err != nil {
			return nil, err
		}
		var expert *int64
		if len(on) > 0 {
			expert = &on[0].ID
			set["expert_id"], set["assigned_at"] = on[0].ID, now
		}
		reg, err := s.prefill(ctx, a, in.Case)
		if err != nil {
			return nil, err
		}
		caseID, err := s.deps.Cases.RegisterFrozen(ctx, tx, a.HospitalID, reg, expert)
		if err != nil {
			return nil, err
		}
		set["consultation_id"] = caseID
		return set, nil
	})
}

// Assign gives the frozen case to an expert: the one named (an expert of
// the center), or the next on duty. With nobody on duty: "no expert on
// duty, so cannot assign".
func (s *Service) Assign(ctx context.Context, id int64, in AssignInput) (*Appointment, error) {
	return s.move(ctx, id, ActAssign, func(tx *db.Tx, a *Appointment) (map[string]any, error) {
		now := s.clock.Now()
		expert := in.ExpertID
		if expert == 0 {
			on, err := s.takersOnDuty(ctx, tx, a.CenterID, now)
			if err != nil {
				return nil, err
			}
			if len(on) == 0 {
				return nil, apperr.New(apperr.Conflict, "frozen.no_duty")
			}
			expert = on[0].ID
		} else {
			experts, err := s.deps.Experts(ctx, a.CenterID)
			if err != nil {
				return nil, err
			}
			i := slices.IndexFunc(experts, func(p DutyExpert) bool { return p.ID == expert })
			if i < 0 {
				return nil, apperr.New(apperr.Invalid, "error.validation").Field("expert_id", "frozen.member_not_in_center")
			}
			if !experts[i].TakesCases {
				return nil, apperr.New(apperr.Invalid, "error.validation").Field("expert_id", "case.expert_not_taking")
			}
		}
		if a.ConsultationID != nil {
			if err := s.deps.Cases.AssignIn(ctx, tx, *a.ConsultationID, expert); err != nil {
				return nil, err
			}
		}
		return map[string]any{"expert_id": expert, "assigned_at": now, "first_open_at": nil}, nil
	})
}

// Open records the expert's first look at the frozen case (once).
func (s *Service) Open(ctx context.Context, id int64) (*Appointment, error) {
	a, err := s.load(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if a.FirstOpenAt != nil {
		return a, nil
	}
	return s.move(ctx, id, ActOpen, func(*db.Tx, *Appointment) (map[string]any, error) {
		return map[string]any{"first_open_at": s.clock.Now()}, nil
	})
}

// CasePublished is told, in the publishing transaction, that a case's
// report was published: a frozen case's report time is the end of its
// turnaround. A frozen report is released at once (its library has no
// hesitation period).
func (s *Service) CasePublished(ctx context.Context, tx *db.Tx, e consultation.Event) error {
	now := s.clock.Now()
	_, err := db.Exec(ctx, tx, tx.Builder().Update("frozen_appointments").
		Set("reported_at", now).Set("first_open_at", sq.Expr("COALESCE(first_open_at, ?)", now)).Set("updated_at", now).
		Where("consultation_id = ? AND reported_at IS NULL", e.CaseID))
	if err != nil {
		return apperr.Wrap(err, "frozen case reported")
	}
	return s.hintCase(ctx, tx, e.CaseID)
}

// CaseOpened is told that the expert took a case to write (the lock): a
// frozen case's first open, when not recorded before.
func (s *Service) CaseOpened(ctx context.Context, tx *db.Tx, e consultation.Event) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Update("frozen_appointments").Set("first_open_at", s.clock.Now()).
		Where("consultation_id = ? AND first_open_at IS NULL", e.CaseID))
	if err != nil {
		return apperr.Wrap(err, "frozen case opened")
	}
	return s.hintCase(ctx, tx, e.CaseID)
}

// CaseAssigned is told that a case was given to an expert through the
// consultation screens: a frozen case follows.
func (s *Service) CaseAssigned(ctx context.Context, tx *db.Tx, e consultation.Event) error {
	expert := e.After.ExpertID
	if expert == nil {
		return nil
	}
	_, err := db.Exec(ctx, tx, tx.Builder().Update("frozen_appointments").Set("expert_id", *expert).Set("assigned_at", s.clock.Now()).
		Where("consultation_id = ? AND reported_at IS NULL AND (expert_id IS NULL OR expert_id <> ?)", e.CaseID, *expert))
	return apperr.Wrap(err, "frozen case assigned")
}

// paraffinOff reports whether the center's settings turn the paraffin case
// off; seen caches the answer per center over a list.
func (s *Service) paraffinOff(ctx context.Context, centerID int64, seen map[int64]bool) bool {
	if s.deps.ParaffinAfterFrozen == nil {
		return false
	}
	if off, ok := seen[centerID]; ok {
		return off
	}
	off := !s.deps.ParaffinAfterFrozen(ctx, centerID)
	if seen != nil {
		seen[centerID] = off
	}
	return off
}
