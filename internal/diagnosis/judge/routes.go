package judge

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the slide quality endpoints (spec 2 §7 judge).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Slide quality", []httpx.Route{
		{Method: "POST", Path: "/api/judge/slide/store", Roles: access.Experts, Handler: httpx.Value(s.judgeSlide), ID: "judge-slide-store", Summary: "Judge the quality of a slide of the caller's case (grade A–D; D needs a reason)"},
		{Method: "POST", Path: "/api/judge/slide/update", Roles: access.Experts, Handler: httpx.Value(s.changeJudgement), ID: "judge-slide-update", Summary: "Change the verdict on a slide's quality"},
	})
}

// Lend gives consultation the handler of the case's verdicts under
// /api/consultation, which its route table lists.
func (s *Service) Lend() httpx.Handler { return httpx.ByID(s.CaseJudgements) }

func (s *Service) judgeSlide(ctx context.Context, in *struct {
	Body struct {
		ConsultID int64 `json:"consult_id" minimum:"1"`
		SlideID   int64 `json:"slide_id" minimum:"1"`
		JudgementInput
	}
}) (*Judgement, error) {
	return s.JudgeSlide(ctx, in.Body.ConsultID, in.Body.SlideID, in.Body.JudgementInput)
}

func (s *Service) changeJudgement(ctx context.Context, in *struct {
	Body struct {
		ID int64 `json:"id" minimum:"1"`
		JudgementInput
	}
}) (*Judgement, error) {
	return s.UpdateJudgement(ctx, in.Body.ID, in.Body.JudgementInput)
}
