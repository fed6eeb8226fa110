package shots

import (
	"context"
	"io"
	"mime/multipart"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
)

// Routes registers the screenshot endpoints (spec 2 §7 save_shots).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Diagnosis", []httpx.Route{
		{Method: "POST", Path: "/api/diagnosis/{id}/save_shots", Roles: access.Experts, Handler: httpx.Value(s.saveShot), ID: "diagnosis-save-shot", Summary: "Save an image captured from a slide to the case (multipart: file JPEG or PNG at most 5 MB, slide_id, caption)", MaxBody: MaxShotBytes + 64<<10},
		{Method: "GET", Path: "/api/diagnosis/{id}/shots", Roles: access.CaseReaders, Handler: httpx.ByID(s.Shots), ID: "diagnosis-shots", Summary: "Screenshots saved to a case", Read: &httpx.Read{Action: "read.shots"}},
		{Method: "GET", Path: "/api/diagnosis/{id}/shots/{shot_id}/image", Roles: access.CaseReaders, Handler: httpx.Raw(s.shotImage), ID: "diagnosis-shot-image", Summary: "The image of a screenshot", Read: &httpx.Read{Action: "read.shot_image"}},
		{Method: "PATCH", Path: "/api/diagnosis/{id}/shots/{shot_id}", Roles: access.Experts, Handler: httpx.Value(s.updateShot), ID: "diagnosis-shot-update", Summary: "Select a screenshot for the report, or change its caption"},
		{Method: "DELETE", Path: "/api/diagnosis/{id}/shots/{shot_id}", Roles: access.Experts, Handler: httpx.Action(s.deleteShot), ID: "diagnosis-shot-delete", Summary: "Remove a screenshot from the case"},
	})
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
	b, ct, err := s.files.Bytes(ctx, sh.FileID, MaxShotBytes)
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
