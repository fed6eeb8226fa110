package diagnosis

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// handoverRoutes serves the expert's handover and referral of a case; the
// case's assignment is the consultation service's to change.
func (s *Service) handoverRoutes(api *httpx.API) {
	api.Mount("Diagnosis", []httpx.Route{
		{Method: "POST", Path: "/api/diagnosis/{id}/handover", Roles: access.Experts, Handler: httpx.Action(s.handOver), ID: "diagnosis-handover", Summary: "Hand the case and its draft over to a colleague of the center (spec: /diagnosis/handover/{id}, which the router cannot hold beside /diagnosis/{id}/…)"},
		{Method: "POST", Path: "/api/diagnosis/handover/recall/{id}", Roles: access.Experts, Handler: httpx.ActionByID(s.deps.Cases.RecallHandover), ID: "diagnosis-handover-recall", Summary: "Take a handed-over case back before the colleague starts on it"},
		{Method: "POST", Path: "/api/diagnosis/{id}/referral", Roles: access.Experts, Handler: httpx.Action(s.referral), ID: "diagnosis-referral", Summary: "Refer the case to a different expert of the center, with a reason"},
	})
}

func (s *Service) handOver(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		ExpertID int64  `json:"expert_id,omitempty"`
		Note     string `json:"note,omitempty" maxLength:"2000"`
	}
}) error {
	return s.deps.Cases.HandOver(ctx, in.ID, in.Body.ExpertID, in.Body.Note)
}

// expertBody has the name of consultation's input of the same shape, so that
// the API document keeps one schema (ExpertBodyBody) for both.
type expertBody struct {
	httpx.IDPath
	Body struct {
		ExpertID int64  `json:"expert_id,omitempty"`
		Reason   string `json:"reason,omitempty" maxLength:"1000"`
	}
}

func (s *Service) referral(ctx context.Context, in *expertBody) error {
	return s.deps.Cases.ExpertReferral(ctx, in.ID, in.Body.ExpertID, in.Body.Reason)
}
