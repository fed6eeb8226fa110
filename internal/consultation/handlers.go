package consultation

import (
	"context"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// The handlers of the route table that shape a request for a service method.

type idsBody struct {
	Body struct {
		IDs []int64 `json:"ids,omitempty" maxItems:"1000"`
	}
}

// reasonBody carries an optional reason (required by some actions, which
// say so in their own error).
type reasonBody struct {
	httpx.IDPath
	Body *struct {
		Reason string `json:"reason,omitempty" maxLength:"1000"`
	}
}

func (b *reasonBody) reason() string {
	if b.Body == nil {
		return ""
	}
	return b.Body.Reason
}

type expertBody struct {
	httpx.IDPath
	Body struct {
		ExpertID int64  `json:"expert_id,omitempty"`
		Reason   string `json:"reason,omitempty" maxLength:"1000"`
	}
}

func (s *Service) caseSlides(ctx context.Context, id int64) ([]Slide, error) {
	d, err := s.Detail(ctx, id)
	if err != nil {
		return nil, err
	}
	return d.Slides, nil
}

func (s *Service) caseAttachments(ctx context.Context, id int64) ([]Attachment, error) {
	d, err := s.Detail(ctx, id)
	if err != nil {
		return nil, err
	}
	return d.Attachments, nil
}

func (s *Service) postMessage(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		Content string `json:"content,omitempty" maxLength:"2000"`
	}
}) (*Message, error) {
	return s.PostMessage(ctx, in.ID, in.Body.Content)
}

func (s *Service) centerExperts(ctx context.Context, in *struct {
	CenterID  int64 `query:"center_id" minimum:"1"`
	LibraryID int64 `query:"library_id" doc:"The case's library: experts bound to it come first, marked subspecialty"`
}) ([]PersonRef, error) {
	var lib *int64
	if in.LibraryID > 0 {
		lib = &in.LibraryID
	}
	return s.CenterExperts(ctx, in.CenterID, lib)
}

func (s *Service) statusLabels(ctx context.Context) ([]StatusLabel, error) {
	return s.StatusLabels(ctx), nil
}

func returnReasons(ctx context.Context) ([]string, error) { return ReturnReasons(i18n.From(ctx)), nil }

func (s *Service) register(ctx context.Context, in CaseInput) (*Detail, error) {
	return s.Save(ctx, 0, in, false)
}

func (s *Service) saveNewDraft(ctx context.Context, in CaseInput) (*Detail, error) {
	return s.Save(ctx, 0, in, true)
}

func (s *Service) change(ctx context.Context, id int64, in CaseInput) (*Detail, error) {
	return s.Save(ctx, id, in, false)
}

func (s *Service) saveDraft(ctx context.Context, id int64, in CaseInput) (*Detail, error) {
	return s.Save(ctx, id, in, true)
}

func (s *Service) batchSubmit(ctx context.Context, in *idsBody) ([]Outcome, error) {
	return s.BatchSubmit(ctx, in.Body.IDs)
}

func (s *Service) askRecall(ctx context.Context, in *reasonBody) error {
	return s.Recall(ctx, in.ID, in.reason())
}

func (s *Service) batchRecall(ctx context.Context, in *struct {
	Body struct {
		IDs    []int64 `json:"ids,omitempty" maxItems:"1000"`
		Reason string  `json:"reason,omitempty" maxLength:"1000"`
	}
}) ([]Outcome, error) {
	return s.BatchRecall(ctx, in.Body.IDs, in.Body.Reason)
}

// answerRecall answers a recall request with decision (agree, reject, ignore).
func (s *Service) answerRecall(decision string) func(context.Context, *reasonBody) error {
	return func(ctx context.Context, in *reasonBody) error {
		return s.RecallDecision(ctx, in.ID, decision, in.reason())
	}
}

func (s *Service) batchAgreeRecall(ctx context.Context, in *idsBody) ([]Outcome, error) {
	return s.BatchAgreeRecall(ctx, in.Body.IDs)
}

func (s *Service) collect(ctx context.Context, in *struct {
	Body struct {
		ConsultID int64 `json:"consult_id,omitempty"`
	}
}) error {
	if in.Body.ConsultID <= 0 {
		return apperr.New(apperr.Invalid, "error.validation").Field("consult_id", "field.required")
	}
	return s.Collect(ctx, in.Body.ConsultID)
}

func (s *Service) bindExpert(ctx context.Context, in *expertBody) error {
	return s.BindExpert(ctx, in.ID, in.Body.ExpertID)
}

func (s *Service) batchBindExpert(ctx context.Context, in *struct {
	Body struct {
		IDs      []int64 `json:"ids,omitempty" maxItems:"1000"`
		ExpertID int64   `json:"expert_id,omitempty"`
	}
}) ([]Outcome, error) {
	return s.BatchBindExpert(ctx, in.Body.IDs, in.Body.ExpertID)
}

func (s *Service) bindStaff(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		StaffID int64 `json:"staff_id,omitempty"`
	}
}) error {
	return s.BindStaff(ctx, in.ID, in.Body.StaffID)
}

func (s *Service) referral(ctx context.Context, in *expertBody) error {
	return s.Referral(ctx, in.ID, in.Body.ExpertID, in.Body.Reason)
}

func (s *Service) returnToSite(ctx context.Context, in *reasonBody) error {
	return s.ReturnToSite(ctx, in.ID, in.reason())
}

func (s *Service) charge(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		Items []ChargeLineInput `json:"items,omitempty" maxItems:"50"`
	}
}) error {
	return s.Charge(ctx, in.ID, in.Body.Items)
}

// exportCharges sends the filtered charge list as an Excel file.
func (s *Service) exportCharges(ctx context.Context, in *struct{ Body listquery.Body }) (*huma.StreamResponse, error) {
	httpx.ReadFilter(ctx, in.Body.Request())
	b, err := s.ExportCharges(ctx, in.Body.Request())
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		hc.SetHeader("Content-Disposition", "attachment; filename=charges.xlsx")
		hc.BodyWriter().Write(b)
	}}, nil
}
