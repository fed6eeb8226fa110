package diagnosis

import (
	"context"
	"slices"

	"telepath/internal/consultation"
	"telepath/internal/diagnosis/invitation"
	"telepath/internal/platform/access"
)

// Whom an expert may choose on a case (spec 2 §7 exp_list/*).
const (
	ChoiceOther  = "other"  // referral and handover: a colleague who does not hold the case
	ChoiceReview = "review" // second-level review: anyone but the author
	ChoiceInvite = "invite" // invitation: anyone not yet asked and still to answer
)

// ExpertChoices lists the experts of the case's center the caller may pick
// for a referral, a review or an invitation. The caller is never offered;
// a referral or handover offers only experts who take new cases, those
// bound to the case's library first.
func (s *Service) ExpertChoices(ctx context.Context, id int64, choice string) ([]consultation.PersonRef, error) {
	r, err := s.deps.Cases.Case(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.CenterID == nil {
		return []consultation.PersonRef{}, nil
	}
	all, err := s.deps.Experts(ctx, *r.CenterID)
	if err != nil {
		return nil, err
	}
	skip := []int64{access.FromContext(ctx).UserID}
	switch choice {
	case ChoiceOther:
		if r.ExpertID != nil {
			skip = append(skip, *r.ExpertID)
		}
	case ChoiceInvite:
		asked, err := invitation.Waiting(ctx, s.db, id)
		if err != nil {
			return nil, err
		}
		skip = append(skip, asked...)
	}
	out := []consultation.PersonRef{}
	for _, e := range all {
		if !slices.Contains(skip, e.ID) {
			out = append(out, e)
		}
	}
	if choice == ChoiceOther { // the case changes hands: only experts taking new cases
		return s.deps.Cases.ForNewCases(ctx, out, r.LibraryID)
	}
	return out, nil
}
