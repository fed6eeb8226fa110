package diagnosis

import (
	"context"

	"telepath/internal/consultation"
	"telepath/internal/platform/httpx"
)

type noteBody struct {
	httpx.IDPath
	Body *struct {
		Note   string `json:"note,omitempty" maxLength:"2000"`
		Reason string `json:"reason,omitempty" maxLength:"2000"`
	}
}

func (b *noteBody) text() string {
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

func (s *Service) approveReview(ctx context.Context, in *noteBody) error {
	return s.Review(ctx, in.ID, true, in.text())
}

func (s *Service) returnReview(ctx context.Context, in *noteBody) error {
	return s.Review(ctx, in.ID, false, in.text())
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

func (s *Service) returnCase(ctx context.Context, in *noteBody) error {
	return s.Return(ctx, in.ID, in.text())
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

func (s *Service) invite(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		InviteeIDs []int64 `json:"invitee_ids,omitempty" maxItems:"10"`
		Message    string  `json:"message,omitempty" maxLength:"2000"`
	}
}) error {
	return s.Invite(ctx, in.ID, in.Body.InviteeIDs, in.Body.Message)
}

func (s *Service) replyInvitation(ctx context.Context, in *struct {
	httpx.IDPath
	InviteID int64 `path:"invite_id" minimum:"1"`
	Body     struct {
		Reply string `json:"reply,omitempty" maxLength:"10000"`
	}
}) error {
	return s.Reply(ctx, in.ID, in.InviteID, in.Body.Reply)
}

func (s *Service) myInvitations(ctx context.Context, in *struct {
	Sent bool `query:"sent"`
}) ([]Invitation, error) {
	return s.MyInvitations(ctx, in.Sent)
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

func (s *Service) approveSupplement(ctx context.Context, in *noteBody) error {
	return s.SupplementReview(ctx, in.ID, true, in.text())
}

func (s *Service) returnSupplement(ctx context.Context, in *noteBody) error {
	return s.SupplementReview(ctx, in.ID, false, in.text())
}

func (s *Service) discardSupplement(ctx context.Context, in *struct {
	httpx.IDPath
	SupplementID int64 `path:"supplement_id" minimum:"1"`
}) error {
	return s.DiscardSupplement(ctx, in.ID, in.SupplementID)
}

func (s *Service) verify(ctx context.Context, in *struct {
	Code string `path:"code" maxLength:"32"`
}) (*Verification, error) {
	return s.Verify(ctx, in.Code)
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

func (s *Service) createTemplate(ctx context.Context, in TemplateInput) (*Template, error) {
	return s.SaveTemplate(ctx, 0, in)
}

func (s *Service) createTerm(ctx context.Context, in TermInput) (*Term, error) {
	return s.SaveTerm(ctx, 0, in)
}
