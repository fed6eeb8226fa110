package gallery

import (
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"os"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/files"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
)

// Routes registers the gallery endpoints (spec 1 §4 Gallery; spec 2 §7
// POST /rotate_image).
func (s *Service) Routes(api *httpx.API) {
	const body = 1 << 20
	api.Mount("Gallery", []httpx.Route{
		{Method: "GET", Path: "/api/consultation/resources/{id}/gallery", Roles: access.CaseReaders, Handler: httpx.ByID(s.Get), ID: "gallery-get", Summary: "The image attachments of a case, in gallery order, with their labels", Read: &httpx.Read{Action: "read.gallery"}},
		{Method: "PUT", Path: "/api/consultation/resources/{id}/gallery", Roles: access.GalleryEditors, Handler: httpx.Value(s.arrange), ID: "gallery-arrange", Summary: "Order a case's images and check those printed in the report (every image, in order)", MaxBody: body},
		{Method: "GET", Path: "/api/gallery/attachment/{id}", Roles: access.CaseReaders, Handler: httpx.ByID(s.Attachment), ID: "gallery-attachment", Summary: "One attachment with its case (the /attach/{id} page)", Read: &httpx.Read{Action: "read.attachment", Object: "file"}},
		{Method: "GET", Path: "/api/gallery/{id}/{file_id}/image", Roles: access.CaseReaders, Handler: httpx.Raw(s.image), ID: "gallery-image", Summary: "A gallery image as edited, or its thumbnail (thumb=true)", Read: &httpx.Read{Action: "read.gallery_image"}},
		{Method: "PUT", Path: "/api/gallery/{id}/{file_id}/labels", Roles: access.GalleryEditors, Handler: httpx.Value(s.saveLabels), ID: "gallery-labels", Summary: "Replace the annotation labels of an image", MaxBody: body},
		{Method: "POST", Path: "/api/gallery/{id}/{file_id}/restore", Roles: access.GalleryEditors, Handler: httpx.Value(s.restore), ID: "gallery-restore", Summary: "Give an image its original back (labels cleared)"},
		{Method: "POST", Path: "/api/gallery/{id}/{file_id}/copy", Roles: access.GalleryEditors, Handler: httpx.Value(s.saveCopy), ID: "gallery-copy", Summary: "Save a processed copy as a new image of the case (multipart: file, the JPEG; labels, a JSON array of labels carried over)", MaxBody: DefaultMaxEditBytes + body},
		{Method: "DELETE", Path: "/api/gallery/{id}/{file_id}", Roles: access.GalleryEditors, Handler: httpx.Action(s.delete), ID: "gallery-delete", Summary: "Remove an image from the case"},
		{Method: "POST", Path: "/api/rotate_image", Roles: access.GalleryEditors, Handler: httpx.Value(s.rotate), ID: "gallery-rotate", Summary: "Rotate and/or crop an image, overwriting it (labels cleared; restore gives the original back)", MaxBody: 8 << 10},
	})
}

// ImagePath addresses one image of a case's gallery.
type ImagePath struct {
	httpx.IDPath
	FileID int64 `path:"file_id" minimum:"1"`
}

func (s *Service) arrange(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		Items []GalleryOrderItem `json:"items" maxItems:"500"`
	}
}) (*Gallery, error) {
	return s.Arrange(ctx, in.ID, in.Body.Items)
}

func (s *Service) image(ctx context.Context, in *struct {
	ImagePath
	Thumb       bool   `query:"thumb"`
	Version     int64  `query:"v" doc:"The version the thumbnail is of: kept by the browser when it is the current one"`
	IfNoneMatch string `header:"If-None-Match"`
}) (*huma.StreamResponse, error) {
	if in.Thumb {
		t, current, err := s.Thumbnail(ctx, in.ID, in.FileID)
		if err != nil {
			return nil, err
		}
		cache := "private, no-cache"
		if in.Version == current {
			cache = "private, max-age=31536000, immutable"
		}
		return files.ServeThumb(t, in.IfNoneMatch, cache)
	}
	f, path, err := s.ImageFile(ctx, in.ID, in.FileID)
	if err != nil {
		return nil, err
	}
	r, err := os.Open(path)
	if err != nil {
		return nil, apperr.Wrap(err, "open image")
	}
	ct := f.ContentType
	switch ct {
	case "image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp":
	default:
		ct = "application/octet-stream"
	}
	return stream(ct, f.Size, r), nil
}

// stream sends an image as the files domain sends downloads: never sniffed, never run.
func stream(ct string, size int64, r io.Reader) *huma.StreamResponse {
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		if c, ok := r.(io.Closer); ok {
			defer c.Close()
		}
		hc.SetHeader("Content-Type", ct)
		hc.SetHeader("Content-Length", strconv.FormatInt(size, 10))
		hc.SetHeader("Cache-Control", "private, no-cache")
		hc.SetHeader("X-Content-Type-Options", "nosniff")
		hc.SetHeader("Content-Security-Policy", "sandbox")
		io.Copy(hc.BodyWriter(), r)
	}}
}

func (s *Service) saveLabels(ctx context.Context, in *struct {
	ImagePath
	Body struct {
		Labels []ImageLabel `json:"labels" maxItems:"200"`
	}
}) (*GalleryImage, error) {
	return s.SaveLabels(ctx, in.ID, in.FileID, in.Body.Labels)
}

func (s *Service) restore(ctx context.Context, in *ImagePath) (*GalleryImage, error) {
	return s.Restore(ctx, in.ID, in.FileID)
}

// saveCopy reads the multipart fields file (the processed JPEG) and labels
// (a JSON array, optional).
func (s *Service) saveCopy(ctx context.Context, in *struct {
	ImagePath
	RawBody multipart.Form
}) (*GalleryImage, error) {
	fhs := in.RawBody.File["file"]
	if len(fhs) != 1 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("file", "field.required")
	}
	if fhs[0].Size > s.MaxEditBytes {
		return nil, apperr.New(apperr.TooLarge, "gallery.too_large").With("max", s.MaxEditBytes>>20)
	}
	r, err := fhs[0].Open()
	if err != nil {
		return nil, apperr.Wrap(err, "open upload")
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, s.MaxEditBytes+1))
	if err != nil {
		return nil, apperr.Wrap(err, "read upload")
	}
	c := CopyInput{Name: fhs[0].Filename, Data: data}
	if v := in.RawBody.Value["labels"]; len(v) > 0 && v[0] != "" {
		if json.Unmarshal([]byte(v[0]), &c.Labels) != nil {
			return nil, apperr.New(apperr.Invalid, "error.validation").Field("labels", "field.invalid")
		}
	}
	return s.SaveCopy(ctx, in.ID, in.FileID, c)
}

func (s *Service) delete(ctx context.Context, in *ImagePath) error {
	return s.Delete(ctx, in.ID, in.FileID)
}

func (s *Service) rotate(ctx context.Context, in *struct{ Body RotateInput }) (*GalleryImage, error) {
	return s.Rotate(ctx, in.Body)
}
