package consultation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/org"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/upload"
)

// registers: the caller belongs to a hospital, whose cases they register
// and change (a guard of update, for the case's actions).
func registers(ctx context.Context, _ db.Querier, _ *Row) error {
	if len(access.FromContext(ctx).HospitalIDs) == 0 {
		return apperr.New(apperr.Conflict, "case.no_hospital")
	}
	return nil
}

// clinicianDrafts: a clinician (who neither charges nor sends) changes a
// request only until the site first sends it; a recalled or returned one is
// the site's to complete (spec 1 §2 Other roles: read-only once submitted).
func clinicianDrafts(ctx context.Context, _ db.Querier, r *Row) error {
	p := access.FromContext(ctx)
	if r == nil || p.HasAny(access.CaseSenders) || !p.Has(access.Clinical) {
		return nil
	}
	if r.IsRecall != RecallNone || r.IsReturn != ReturnNone || r.SubmittedAt != nil {
		return apperr.New(apperr.Conflict, "case.clinical_read_only")
	}
	return nil
}

// Save registers a new case (id 0) or changes one that is still editable.
// A draft keeps what is filled in after checking formats only; otherwise
// every rule of spec 2 §5 applies. Nothing is written when a rule fails.
func (s *Service) Save(ctx context.Context, id int64, in CaseInput, draft bool) (*Detail, error) {
	p := access.FromContext(ctx)
	if !p.HasAny(access.HospitalRoles) {
		return nil, apperr.New(apperr.Forbidden, "error.forbidden")
	}
	if err := registers(ctx, nil, nil); err != nil {
		return nil, err
	}
	v := in.validate(draft, s.now())
	if err := v.Err(); err != nil {
		return nil, err
	}
	var before *Detail
	hospitalID := p.HospitalIDs[0]
	if id != 0 {
		var err error
		if before, err = s.Detail(ctx, id); err != nil {
			return nil, err
		}
		if _, err := Check(p, ActUpdate, before.State); err != nil {
			return nil, err
		}
		if err := clinicianDrafts(ctx, nil, &before.Row); err != nil {
			return nil, err
		}
		hospitalID = before.HospitalID
	}
	h, err := s.deps.Org.Hospital(ctx, hospitalID)
	if err != nil {
		return nil, err
	}
	if err := s.complete(ctx, h, id, &in, draft); err != nil {
		return nil, err
	}
	var newID int64
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.checkNumberFree(ctx, tx, id, in); err != nil {
			return err
		}
		var err error
		if newID, err = s.write(ctx, tx, id, h.ID, in, draft); err != nil {
			return err
		}
		after, err := s.detailIn(ctx, tx, newID)
		if err != nil {
			return err
		}
		action, from := ActCreate, State{IsDraft: 1}
		if draft {
			action = ActDraft
		}
		if before != nil {
			action, from = ActUpdate, before.State
		}
		return s.record(ctx, tx, newID, action, from, after.State, "", before, after)
	})
	if err != nil {
		return nil, err
	}
	return s.Detail(ctx, newID)
}

// complete checks what a registration refers to and fills in what the
// center's settings say (fixative defaults, infectious agents), the same on
// every path that registers a case: the form, a frozen case and the
// paraffin case after it.
func (s *Service) complete(ctx context.Context, h *org.Hospital, id int64, in *CaseInput, draft bool) error {
	if err := s.checkRelations(ctx, h, id, in, draft); err != nil {
		return err
	}
	s.fillFixatives(ctx, in)
	return s.checkInfectious(ctx, in)
}

// fillFixatives fills the fixative of each specimen left empty with the
// default of the case's center for its library's kind (the cell_fixed and
// routine_fixed diagnosis settings, spec 2 §7).
func (s *Service) fillFixatives(ctx context.Context, in *CaseInput) {
	if s.deps.DefaultFixative == nil || !slices.ContainsFunc(in.Specimens, func(sp SpecimenInput) bool { return sp.Fixative == "" }) {
		return
	}
	var center, library int64
	if in.CenterID != nil {
		center = *in.CenterID
	}
	if in.LibraryID != nil {
		library = *in.LibraryID
	}
	def := s.deps.DefaultFixative(ctx, center, library)
	for i := range in.Specimens {
		if in.Specimens[i].Fixative == "" {
			in.Specimens[i].Fixative = def
		}
	}
}

// checkRelations checks what the form refers to: the center among the
// hospital's, the expert by the hospital's expert-selection setting, the
// library's number rule, and the files.
func (s *Service) checkRelations(ctx context.Context, h *org.Hospital, id int64, in *CaseInput, draft bool) error {
	var v apperr.Validation
	if in.CenterID != nil && !slices.Contains(h.CenterIDs, *in.CenterID) {
		v.Add("center_id", "case.center_not_bound")
	}
	switch {
	case h.ExpertSelect == org.ExpertCannotSelect && in.ExpertID != nil:
		v.Add("expert_id", "case.expert_not_allowed")
	case h.ExpertSelect == org.ExpertMustSelect && in.ExpertID == nil && !draft:
		v.Add("expert_id", "case.expert_required")
	case in.ExpertID != nil && in.CenterID != nil && !v.Has("center_id"):
		if err := s.checkAssignable(ctx, *in.CenterID, *in.ExpertID, false); err != nil {
			var ae *apperr.Error
			if !errors.As(err, &ae) || len(ae.Fields["expert_id"]) == 0 {
				return err
			}
			v.Add("expert_id", ae.Fields["expert_id"][0].Key)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	if in.LibraryID != nil && in.PathologyNumber != "" {
		if err := s.deps.CheckNumber(ctx, *in.LibraryID, in.PathologyNumber); err != nil {
			return err
		}
	}
	ids := make([]int64, 0, len(in.Attachments))
	for _, a := range in.Attachments {
		ids = append(ids, a.FileID)
	}
	if len(ids) > 0 {
		ok, err := s.deps.Files.Attachable(ctx, h.ID, ids)
		if err != nil {
			return err
		}
		var taken []int64 // attached to another case
		if err := db.Select(ctx, s.db, &taken, s.db.Builder().Select("file_id").From("attachments").
			Where(sq.Eq{"file_id": ids}).Where("consult_id <> ?", id)); err != nil {
			return apperr.Wrap(err, "check files")
		}
		for _, fid := range ids {
			if !ok[fid] || slices.Contains(taken, fid) {
				return apperr.New(apperr.Invalid, "error.validation").Field("attachments", "case.attachment_unknown")
			}
		}
	}
	return s.checkSlides(ctx, h.ID, id, in.SlideIDs)
}

// checkSlides accepts the hospital's slides that finished uploading (those
// still being processed included) and that no other case uses.
func (s *Service) checkSlides(ctx context.Context, hospitalID, id int64, slideIDs []int64) error {
	if len(slideIDs) == 0 {
		return nil
	}
	ok, err := upload.Usable(ctx, s.db, hospitalID, id, slideIDs)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.New(apperr.Invalid, "error.validation").Field("slide_ids", "case.slide_unknown")
	}
	return nil
}

// checkNumberFree refuses a pathology number another live case of the
// same library already has.
func (s *Service) checkNumberFree(ctx context.Context, tx *db.Tx, id int64, in CaseInput) error {
	if in.LibraryID == nil || in.PathologyNumber == "" {
		return nil
	}
	var n int
	err := db.Get(ctx, tx, &n, tx.Builder().Select("COUNT(*)").From("consultations").
		Where("library_id = ? AND pathology_number = ? AND id <> ? AND deleted_at IS NULL", *in.LibraryID, in.PathologyNumber, id))
	if err != nil {
		return apperr.Wrap(err, "check pathology number")
	}
	if n > 0 {
		return apperr.New(apperr.Invalid, "error.validation").Field("pathology_number", "case.pathology_taken")
	}
	return nil
}

// write stores the case and its parts and returns its id.
func (s *Service) write(ctx context.Context, tx *db.Tx, id, hospitalID int64, in CaseInput, draft bool) (int64, error) {
	p := access.FromContext(ctx)
	now := s.now()
	caseJSON, _ := json.Marshal(in.withoutParts())
	var age any
	if n, err := strconv.Atoi(in.Age); err == nil {
		age = n
	}
	var inspection any
	if d, ok := parseDate(in.InspectionDate); ok {
		inspection = d
	}
	vals := map[string]any{
		"center_id": in.CenterID, "library_id": in.LibraryID, "requested_expert_id": in.ExpertID,
		"is_draft": boolInt(draft), "expedite": boolInt(in.Expedite), "pathology_number": in.PathologyNumber,
		"patient_name": in.Name, "gender": in.Gender, "age": age, "age_unit": in.AgeUnit,
		"inspection_date": inspection, "case_data": string(caseJSON), "updated_at": now,
	}
	if id == 0 {
		vals["hospital_id"], vals["user_id"], vals["created_at"] = hospitalID, p.UserID, now
		var err error
		if id, err = db.InsertID(ctx, tx, tx.Builder().Insert("consultations").SetMap(vals)); err != nil {
			return 0, apperr.Wrap(err, "insert case")
		}
		// The number is readable and, built from the id, unique.
		vals = map[string]any{"consult_no": fmt.Sprintf("TP%s%06d", now.Format("060102"), id)}
	}
	if _, err := db.Exec(ctx, tx, tx.Builder().Update("consultations").SetMap(vals).Where("id = ?", id)); err != nil {
		return 0, apperr.Wrap(err, "update case")
	}
	if err := s.writeSpecimens(ctx, tx, id, in.Specimens); err != nil {
		return 0, err
	}
	if err := s.writeAttachments(ctx, tx, id, in.Attachments, now); err != nil {
		return 0, err
	}
	return id, s.attachSlides(ctx, tx, id, in.SlideIDs)
}

func (in CaseInput) withoutParts() CaseInput {
	in.Specimens, in.Attachments, in.SlideIDs = nil, nil, nil
	return in
}

func (s *Service) writeSpecimens(ctx context.Context, tx *db.Tx, id int64, specimens []SpecimenInput) error {
	if _, err := db.Exec(ctx, tx, tx.Builder().Delete("paraffin_blocks").
		Where("specimen_id IN (SELECT id FROM specimens WHERE consult_id = ?)", id)); err != nil {
		return apperr.Wrap(err, "clear blocks")
	}
	if _, err := db.Exec(ctx, tx, tx.Builder().Delete("specimens").Where("consult_id = ?", id)); err != nil {
		return apperr.Wrap(err, "clear specimens")
	}
	for i, sp := range specimens {
		count := sp.Count
		if count == 0 {
			count = 1
		}
		sid, err := db.InsertID(ctx, tx, tx.Builder().Insert("specimens").
			Columns("consult_id", "serial_number", "name", "part", "specimen_type", "count", "fixative", "leave_body_at", "fixed_at", "sort").
			Values(id, strconv.Itoa(i+1), sp.Name, sp.Part, sp.SpecimenType, count, sp.Fixative, sp.LeaveBodyAt, sp.FixedAt, i))
		if err != nil {
			return apperr.Wrap(err, "insert specimen")
		}
		for j, b := range sp.Blocks {
			if _, err := db.Exec(ctx, tx, tx.Builder().Insert("paraffin_blocks").
				Columns("specimen_id", "name", "slide_number", "draw_part", "gross_description", "sort").
				Values(sid, b.Name, b.SlideNumber, b.DrawPart, b.GrossDescription, j)); err != nil {
				return apperr.Wrap(err, "insert block")
			}
		}
	}
	return nil
}

func (s *Service) writeAttachments(ctx context.Context, tx *db.Tx, id int64, list []AttachmentInput, now time.Time) error {
	if _, err := db.Exec(ctx, tx, tx.Builder().Delete("attachments").Where("consult_id = ?", id)); err != nil {
		return apperr.Wrap(err, "clear attachments")
	}
	for i, a := range list {
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("attachments").Columns("consult_id", "file_id", "type", "sort", "created_at").
			Values(id, a.FileID, a.Type, i, now)); err != nil {
			return apperr.Wrap(err, "insert attachment")
		}
	}
	return nil
}

// attachSlides makes slideIDs the case's slides and counts them.
func (s *Service) attachSlides(ctx context.Context, tx *db.Tx, id int64, slideIDs []int64) error {
	if slideIDs != nil {
		if err := upload.Attach(ctx, tx, id, slideIDs); err != nil {
			return err
		}
	}
	_, err := db.Exec(ctx, tx, tx.Builder().Update("consultations").Set("slide_count", upload.CountInCase(id)).Where("id = ?", id))
	return apperr.Wrap(err, "count slides")
}

// Delete removes a case that was never submitted.
func (s *Service) Delete(ctx context.Context, id int64) error {
	p := access.FromContext(ctx)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.rowToWrite(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := Check(p, ActDelete, before.State); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("consultations").Set("deleted_at", s.now()).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete case")
		}
		if err := upload.Release(ctx, tx, id); err != nil {
			return err
		}
		return s.record(ctx, tx, id, ActDelete, before.State, before.State, "", before, nil)
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
