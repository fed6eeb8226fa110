package consultation

import (
	"context"
	"slices"
	"strings"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
)

// FormSettings are the diagnosis settings the registration form uses
// (spec 2 §7 settings keys), as the case's center has them.
type FormSettings struct {
	RoutineFixed string   `json:"routine_fixed" doc:"Fixative filled into routine specimens left empty"`
	CellFixed    string   `json:"cell_fixed" doc:"Fixative filled into cytology specimens left empty"`
	Infectious   []string `json:"infectious_specimen" doc:"What an infectious specimen may carry (offered when the case is flagged infectious)"`
}

// FormOptionsQuery names the center a registration is sent to.
type FormOptionsQuery struct {
	CenterID int64 `query:"center_id" doc:"A center the caller's hospital sends cases to (0: the settings without a center)"`
}

// FormOptions returns the settings the registration form offers for a
// case sent to a center of the caller's hospital; any other center is not
// found.
func (s *Service) FormOptions(ctx context.Context, in *FormOptionsQuery) (FormSettings, error) {
	p := access.FromContext(ctx)
	if len(p.HospitalIDs) == 0 {
		return FormSettings{}, apperr.New(apperr.NotFound, "error.not_found")
	}
	if in.CenterID != 0 {
		h, err := s.deps.Org.Hospital(ctx, p.HospitalIDs[0])
		if err != nil {
			return FormSettings{}, err
		}
		if !slices.Contains(h.CenterIDs, in.CenterID) {
			return FormSettings{}, apperr.New(apperr.NotFound, "error.not_found")
		}
	}
	return s.formSettings(ctx, in.CenterID), nil
}

func (s *Service) formSettings(ctx context.Context, center int64) FormSettings {
	out := FormSettings{Infectious: []string{}}
	if s.deps.FormSettings != nil {
		out = s.deps.FormSettings(ctx, center)
	}
	return out
}

// checkInfectious reads what an infectious specimen carries: each item one
// of the center's infectious_specimen options, at most once; naming any
// flags the case infectious.
func (s *Service) checkInfectious(ctx context.Context, in *CaseInput) error {
	var items []string
	for _, a := range in.InfectiousAgents {
		if a = strings.TrimSpace(a); a != "" && !slices.Contains(items, a) {
			items = append(items, a)
		}
	}
	in.InfectiousAgents = items
	if len(items) == 0 {
		return nil
	}
	in.InfectiousSpecimen = true
	var center int64
	if in.CenterID != nil {
		center = *in.CenterID
	}
	options := s.formSettings(ctx, center).Infectious
	for _, a := range items {
		if !slices.Contains(options, a) {
			return apperr.New(apperr.Invalid, "error.validation").Field("infectious_agents", "case.infectious_unknown", "item", a)
		}
	}
	return nil
}
