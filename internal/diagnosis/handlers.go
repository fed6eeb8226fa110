package diagnosis

import (
	"context"

	"telepath/internal/consultation"
	"telepath/internal/platform/httpx"
)

// NoteBody is a case action's optional note or reason.
type NoteBody struct {
	httpx.IDPath
	Body *struct {
		Note   string `json:"note,omitempty" maxLength:"2000"`
		Reason string `json:"reason,omitempty" maxLength:"2000"`
	}
}

// Text is the note, or else the reason.
func (b *NoteBody) Text() string {
	if b.Body == nil {
		return ""
	}
	if b.Body.Note != "" {
		return b.Body.Note
	}
	return b.Body.Reason
}

func (s *Service) toReview(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		ReviewerID int64 `json:"reviewer_id,omitempty"`
	}
}) error {
	return s.ToReview(ctx, in.ID, in.Body.ReviewerID)
}

func (s *Service) approveReview(ctx context.Context, in *NoteBody) error {
	return s.Review(ctx, in.ID, true, in.Text())
}

func (s *Service) returnReview(ctx context.Context, in *NoteBody) error {
	return s.Review(ctx, in.ID, false, in.Text())
}

func (s *Service) publish(ctx context.Context, in *struct {
	httpx.IDPath
	Body *PublishInput
}) error {
	var p PublishInput
	if in.Body != nil {
		p = *in.Body
	}
	return s.Publish(ctx, in.ID, p)
}

func (s *Service) returnCase(ctx context.Context, in *NoteBody) error {
	return s.Return(ctx, in.ID, in.Text())
}

func (s *Service) delay(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		Days   int    `json:"days,omitempty"`
		Reason string `json:"reason,omitempty" maxLength:"2000"`
	}
}) error {
	return s.Delay(ctx, in.ID, in.Body.Days, in.Body.Reason)
}

func (s *Service) viewSlide(ctx context.Context, in *struct {
	httpx.IDPath
	SlideID int64 `path:"slide_id" minimum:"1"`
}) (int, error) {
	return s.ViewSlide(ctx, in.ID, in.SlideID)
}

func (s *Service) supplementToReview(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		ReviewerID int64 `json:"reviewer_id,omitempty"`
	}
}) error {
	return s.SupplementToReview(ctx, in.ID, in.Body.ReviewerID)
}

func (s *Service) approveSupplement(ctx context.Context, in *NoteBody) error {
	return s.SupplementReview(ctx, in.ID, true, in.Text())
}

func (s *Service) returnSupplement(ctx context.Context, in *NoteBody) error {
	return s.SupplementReview(ctx, in.ID, false, in.Text())
}

func (s *Service) discardSupplement(ctx context.Context, in *struct {
	httpx.IDPath
	SupplementID int64 `path:"supplement_id" minimum:"1"`
}) error {
	return s.DiscardSupplement(ctx, in.ID, in.SupplementID)
}

func (s *Service) expertChoices(choice string) func(context.Context, int64) ([]consultation.PersonRef, error) {
	return func(ctx context.Context, id int64) ([]consultation.PersonRef, error) {
		return s.ExpertChoices(ctx, id, choice)
	}
}

// neighbour finds the caller's previous (dir -1) or next (dir 1) case in the worklist.
func (s *Service) neighbour(dir int) func(context.Context, int64) (int64, error) {
	return func(ctx context.Context, id int64) (int64, error) { return s.Neighbour(ctx, id, dir) }
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
