package gallery

import (
	"context"
	"io"
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
		{Method: "POST", Path: "/api/gallery/{id}/{file_id}/copy", Roles: access.GalleryEditors, Handler: httpx.Value(s.saveCopy), ID: "gallery-copy", Summary: "Save a processed copy (uploaded JPEG) as a new image of the case", MaxBody: body},
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

func (s *Service) saveCopy(ctx context.Context, in *struct {
	ImagePath
	Body CopyInput
}) (*GalleryImage, error) {
	return s.SaveCopy(ctx, in.ID, in.FileID, in.Body)
}

func (s *Service) delete(ctx context.Context, in *ImagePath) error {
	return s.Delete(ctx, in.ID, in.FileID)
}

func (s *Service) rotate(ctx context.Context, in *struct{ Body RotateInput }) (*GalleryImage, error) {
	return s.Rotate(ctx, in.Body)
}
