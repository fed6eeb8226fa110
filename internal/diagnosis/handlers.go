package diagnosis

import (
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/consultation"
	"telepath/internal/platform/apperr"
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

func (s *Service) reportPreview(ctx context.Context, in *struct {
	httpx.IDPath
	DiagnosisID int64  `query:"diagnosis_id" doc:"A version to print instead of the current one"`
	Host        string `header:"Host"`
	Proto       string `header:"X-Forwarded-Proto"`
}) (*huma.StreamResponse, error) {
	scheme := "http"
	if in.Proto == "https" { // present only when set by a trusted proxy (httpx.Wrap)
		scheme = "https"
	}
	pdf, err := s.Preview(ctx, in.ID, in.DiagnosisID, scheme+"://"+in.Host)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", "application/pdf")
		hc.SetHeader("Content-Disposition", fmt.Sprintf("inline; filename=report-%d.pdf", in.ID))
		hc.SetHeader("Cache-Control", "private, no-store")
		hc.BodyWriter().Write(pdf)
	}}, nil
}

// ShotPath addresses one screenshot of a case.
type ShotPath struct {
	httpx.IDPath
	ShotID int64 `path:"shot_id" minimum:"1"`
}

func (s *Service) saveShot(ctx context.Context, in *struct {
	httpx.IDPath
	RawBody multipart.Form
}) (*Shot, error) {
	fhs := in.RawBody.File["file"]
	if len(fhs) != 1 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("file", "field.required")
	}
	if fhs[0].Size > MaxShotBytes {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("file", "shot.too_large", "max", MaxShotBytes>>20)
	}
	r, err := fhs[0].Open()
	if err != nil {
		return nil, apperr.Wrap(err, "open upload")
	}
	defer r.Close()
	img, err := io.ReadAll(io.LimitReader(r, MaxShotBytes+1))
	if err != nil {
		return nil, apperr.Wrap(err, "read upload")
	}
	var slideID int64
	if v := formValue(in.RawBody, "slide_id"); v != "" {
		if slideID, err = strconv.ParseInt(v, 10, 64); err != nil || slideID <= 0 {
			return nil, apperr.New(apperr.Invalid, "error.validation").Field("slide_id", "shot.slide_unknown")
		}
	}
	sh, err := s.SaveShot(ctx, in.ID, img, slideID, formValue(in.RawBody, "caption"))
	if err != nil {
		return nil, err
	}
	return sh, nil
}

func (s *Service) shotImage(ctx context.Context, in *ShotPath) (*huma.StreamResponse, error) {
	sh, err := s.shotVisible(ctx, in.ID, in.ShotID)
	if err != nil {
		return nil, err
	}
	b, ct, err := s.deps.Files.Bytes(ctx, sh.FileID, MaxShotBytes)
	if err != nil {
		return nil, err
	}
	if ct != "image/jpeg" && ct != "image/png" {
		ct = "application/octet-stream"
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", ct)
		hc.SetHeader("Content-Length", strconv.Itoa(len(b)))
		hc.SetHeader("Cache-Control", "private, max-age=3600")
		hc.SetHeader("Content-Security-Policy", "sandbox")
		hc.BodyWriter().Write(b)
	}}, nil
}

func (s *Service) updateShot(ctx context.Context, in *struct {
	httpx.IDPath
	ShotID int64 `path:"shot_id" minimum:"1"`
	Body   ShotUpdate
}) (*Shot, error) {
	return s.UpdateShot(ctx, in.ID, in.ShotID, in.Body)
}

func (s *Service) deleteShot(ctx context.Context, in *ShotPath) error {
	return s.DeleteShot(ctx, in.ID, in.ShotID)
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
