package frozen

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Paraffin registers the paraffin (permanent) case that follows a reported
// frozen case (spec 2 §7 after_frozen_paraffin_block): a draft of the
// booking hospital, prefilled from the frozen case, which the site
// completes with its paraffin slides and submits like any case. The two
// stay linked so that frozen–paraffin concordance can be counted.
func (s *Service) Paraffin(ctx context.Context, id int64) (*Appointment, error) {
	return s.move(ctx, id, ActParaffin, func(tx *db.Tx, a *Appointment) (map[string]any, error) {
		frozen, err := s.deps.Cases.Registration(ctx, tx, *a.ConsultationID)
		if err != nil {
			return nil, err
		}
		caseID, err := s.deps.Cases.RegisterDraft(ctx, tx, a.HospitalID, paraffinOf(frozen, a), frozen.PathologyNumber)
		if err != nil {
			return nil, err
		}
		return map[string]any{"paraffin_case_id": caseID, "concordance": "", "concordance_note": "", "concordance_by": nil, "concordance_at": nil}, nil
	})
}

// paraffinOf is the paraffin case's registration: the frozen case's patient
// and clinical data, the frozen case's number as the original pathology
// number, and the frozen tissue as a paraffin block. The library and the
// pathology number are the site's to choose.
func paraffinOf(frozen consultation.CaseInput, a *Appointment) consultation.CaseInput {
	in := frozen
	in.LibraryID, in.PathologyNumber, in.ExpertID = nil, "", nil
	in.OriginalPathologyNumber = frozen.PathologyNumber
	in.Specimens, in.Attachments, in.SlideIDs = nil, nil, nil
	if site := strings.TrimSpace(a.SpecimenSite); site != "" {
		in.Specimens = []consultation.SpecimenInput{{Name: site, Part: site, SpecimenType: "ex_paraffin_block", Count: 1,
			Blocks: []consultation.BlockInput{{Name: "F1"}}}}
	}
	return in
}

// ConcordanceInput is a judgement of the paraffin diagnosis against the frozen one.
type ConcordanceInput struct {
	Concordance string `json:"concordance" enum:"concordant,discordant,deferred" doc:"concordant; discordant (the paraffin diagnosis contradicts the frozen verdict); deferred (the frozen diagnosis deferred to paraffin)"`
	Note        string `json:"note,omitempty" maxLength:"500" doc:"What differs; required when discordant"`
}

const maxConcordanceNote = 500

// Judge records how the published paraffin diagnosis compares with the
// frozen one: by the paraffin case's expert, or by the center (its
// allocator, center administrator, or an administrator). A later judgement
// replaces an earlier one.
func (s *Service) Judge(ctx context.Context, id int64, in ConcordanceInput) (*Appointment, error) {
	note := strings.TrimSpace(in.Note)
	var v apperr.Validation
	if !slices.Contains([]string{Concordant, Discordant, Deferred}, in.Concordance) {
		v.Add("concordance", "field.invalid")
	}
	if in.Concordance == Discordant && note == "" {
		v.Add("note", "frozen.discordance_note_required")
	}
	if utf8.RuneCountInString(note) > maxConcordanceNote {
		v.Add("note", "field.too_long", "max", maxConcordanceNote)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s.move(ctx, id, ActConcordance, func(*db.Tx, *Appointment) (map[string]any, error) {
		return map[string]any{"concordance": in.Concordance, "concordance_note": note,
			"concordance_by": access.FromContext(ctx).UserID, "concordance_at": s.clock.Now()}, nil
	})
}
