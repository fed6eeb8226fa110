package advice

import (
	"context"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the advice endpoints: what the expert orders (spec 2 §7
// Diagnosis advice), what the site and third parties do with it.
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Advice", []httpx.Route{
		{Method: "POST", Path: "/api/diagnosis/{id}/advice", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.OrderAdvice), ID: "advice-order", Summary: "Order special exams or technical re-work from the site", MaxBody: 64 << 10},
		{Method: "GET", Path: "/api/diagnosis/{id}/advice", Roles: access.CaseReaders, Handler: httpx.ByID(s.adviceOfKind("")), ID: "advice-of-case", Summary: "Advice of a case, both kinds", Read: &httpx.Read{Action: "read.case_advice"}},
		{Method: "DELETE", Path: "/api/diagnosis/{id}/advice", Roles: access.Experts, Handler: httpx.Action(s.cancelAdvice(AdviceSpecial)), ID: "advice-cancel", Summary: "Withdraw pending advice for special exams (body: ids)"},
		{Method: "DELETE", Path: "/api/diagnosis/{id}/doctor_advice", Roles: access.Experts, Handler: httpx.Action(s.cancelAdvice(AdviceTechnical)), ID: "doctor_advice-cancel", Summary: "Withdraw pending advice for technical re-work (body: ids)"},
		{Method: "POST", Path: "/api/diagnosis/{id}/advice/{advice_id}", Roles: access.Experts, Handler: httpx.Value(s.updateAdvice), ID: "advice-update", Summary: "Change a pending advice item of the case"},
		{Method: "POST", Path: "/api/advice/detail_store/{id}", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.StoreAdviceResults), ID: "advice-results-store", Summary: "Record the result of each marker of an executed special exam, replacing earlier ones (id: advice)", MaxBody: 64 << 10},
		{Method: "GET", Path: "/api/third/advice", Roles: access.Thirds, Handler: httpx.Value(s.thirdAdvice), ID: "third-advice", Summary: "Exams passed to the calling third party (pending=true: unanswered only)", Read: &httpx.Read{Action: "read.advice_list", Object: "advice_list"}},
		{Method: "POST", Path: "/api/third/addadvice/{id}", Roles: access.Thirds, Handler: httpx.Action(s.thirdResult), ID: "third-add-advice", Summary: "The third party's result of an exam passed to them (id: advice)"},
	})
}

// The advice handlers of the route table; kind is special or technical
// where a path serves one kind.

func (s *Service) adviceOfKind(kind string) func(context.Context, int64) ([]Advice, error) {
	return func(ctx context.Context, id int64) ([]Advice, error) { return s.CaseAdvice(ctx, id, kind) }
}

func (s *Service) cancelAdvice(kind string) func(context.Context, *struct {
	httpx.IDPath
	Body struct {
		IDs []int64 `json:"ids,omitempty" maxItems:"100"`
	}
}) error {
	return func(ctx context.Context, in *struct {
		httpx.IDPath
		Body struct {
			IDs []int64 `json:"ids,omitempty" maxItems:"100"`
		}
	}) error {
		return s.CancelAdvice(ctx, in.ID, kind, in.Body.IDs)
	}
}

type resultIn struct {
	httpx.IDPath
	Body *resultBody
}

func (s *Service) executeAdvice(kind string) func(context.Context, *resultIn) error {
	return func(ctx context.Context, in *resultIn) error {
		return s.ExecuteAdvice(ctx, kind, in.ID, in.Body.text())
	}
}

func (s *Service) transferAdvice(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		ThirdID int64 `json:"third_id,omitempty"`
	}
}) error {
	return s.TransferAdvice(ctx, in.ID, in.Body.ThirdID)
}

// caseThirds lists the third parties a case's advice may be passed to.
func (s *Service) caseThirds(ctx context.Context, id int64) ([]consultation.PersonRef, error) {
	r, err := s.deps.Cases.Case(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.Thirds(ctx, r)
}

func (s *Service) updateAdvice(ctx context.Context, in *struct {
	httpx.IDPath
	AdviceID int64 `path:"advice_id" minimum:"1"`
	Body     AdviceItem
}) ([]Advice, error) {
	return s.UpdateAdvice(ctx, in.ID, in.AdviceID, in.Body)
}

func (s *Service) thirdAdvice(ctx context.Context, in *struct {
	Pending bool `query:"pending"`
}) ([]Advice, error) {
	return s.ThirdAdvice(ctx, in.Pending)
}

func (s *Service) thirdResult(ctx context.Context, in *resultIn) error {
	return s.ThirdResult(ctx, in.ID, in.Body.text())
}

// Lend gives consultation the handlers of the advice routes under
// /api/consultation, which its route table lists.
func (s *Service) Lend() consultation.AdviceHandlers {
	return consultation.AdviceHandlers{
		OfCase:           httpx.ByID(s.adviceOfKind(AdviceSpecial)),
		TechnicalOfCase:  httpx.ByID(s.adviceOfKind(AdviceTechnical)),
		Execute:          httpx.Action(s.executeAdvice(AdviceSpecial)),
		ExecuteTechnical: httpx.Action(s.executeAdvice(AdviceTechnical)),
		Transfer:         httpx.Action(s.transferAdvice),
		Thirds:           httpx.ByID(s.caseThirds),
		List:             httpx.ListOf(s.AdviceList),
		Count:            httpx.CountsOf(s.AdviceCount),
		Export:           httpx.Raw(s.exportAdvice(AdviceSpecial, "advice_list")),
		ExportTechnical:  httpx.Raw(s.exportAdvice(AdviceTechnical, "doctor_advice_list")),
	}
}
