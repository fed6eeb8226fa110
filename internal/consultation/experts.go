package consultation

import (
	"context"
	"slices"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
)

// ForNewCases keeps the experts who take new cases (their role
// configuration); those bound to the library (a subspecialty, spec 2 §8:
// the library or one above it) come first and are marked. Without a
// library nobody is marked.
func (s *Service) ForNewCases(ctx context.Context, experts []PersonRef, libraryID *int64) ([]PersonRef, error) {
	var lineage []int64
	if libraryID != nil {
		lineage = []int64{*libraryID}
		if s.deps.Lineage != nil {
			l, err := s.deps.Lineage(ctx, *libraryID)
			if err != nil {
				return nil, err
			}
			lineage = l
		}
	}
	bound, other := []PersonRef{}, []PersonRef{}
	for _, e := range experts {
		if !e.TakesCases {
			continue
		}
		if slices.ContainsFunc(e.Subspecialties, func(id int64) bool { return slices.Contains(lineage, id) }) {
			e.Subspecialty = true
			bound = append(bound, e)
		} else {
			other = append(other, e)
		}
	}
	return append(bound, other...), nil
}

// checkExpert refuses to give r to expertID unless they are an enabled
// expert of its center who takes new cases; with nobody of the center
// taking cases: no expert on duty.
func (s *Service) checkExpert(ctx context.Context, r *Row, expertID int64) error {
	if r.CenterID == nil {
		return apperr.New(apperr.Invalid, "error.validation").Field("center_id", "field.required")
	}
	return s.checkAssignable(ctx, *r.CenterID, expertID, true)
}

// checkAssignable: expertID is an expert of the center who takes new
// cases. noneConflict: with nobody of the center taking cases, the refusal
// is case.no_expert_on_duty rather than a field error.
func (s *Service) checkAssignable(ctx context.Context, centerID, expertID int64, noneConflict bool) error {
	experts, err := s.deps.Members(ctx, centerID, access.Expert)
	if err != nil {
		return err
	}
	takers, err := s.ForNewCases(ctx, experts, nil)
	if err != nil {
		return err
	}
	if len(takers) == 0 && noneConflict {
		return apperr.New(apperr.Conflict, "case.no_expert_on_duty")
	}
	is := func(e PersonRef) bool { return e.ID == expertID }
	switch {
	case !slices.ContainsFunc(experts, is):
		return apperr.New(apperr.Invalid, "error.validation").Field("expert_id", "case.expert_unknown")
	case !slices.ContainsFunc(takers, is):
		return apperr.New(apperr.Invalid, "error.validation").Field("expert_id", "case.expert_not_taking")
	}
	return nil
}
