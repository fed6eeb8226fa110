package diagnosis

import (
	"context"

	"telepath/internal/platform/httpx"
)

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
