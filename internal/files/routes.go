package files

import (
	"context"
	"io"
	"mime/multipart"
	"os"
	"path/filepath"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
)

// Routes registers POST /api/common/upload, GET /api/files/{id} and its thumbnail.
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Files", []httpx.Route{
		{Method: "POST", Path: "/api/common/upload", Roles: access.Any, Handler: httpx.Value(s.upload), ID: "file-upload", Summary: "Upload a file (multipart field file, at most 200 MB)", MaxBody: MaxAttachment + 1<<20},
		{Method: "GET", Path: "/api/files/{id}", Roles: access.Any, Handler: httpx.Raw(s.download), ID: "file-download", Summary: "Download a file", Read: &httpx.Read{Action: "read.file", Object: "file"}},
		{Method: "GET", Path: "/api/files/{id}/thumb", Roles: access.Any, Handler: httpx.Raw(s.thumb), ID: "file-thumb", Summary: "A small JPEG of an image file (made once and kept; ETag, cached by the browser)", Read: &httpx.Read{Action: "read.file_thumb", Object: "file"}},
	})
}

// upload stores the multipart field file as an attachment.
func (s *Service) upload(ctx context.Context, in *struct {
	RawBody multipart.Form
}) (*File, error) {
	fhs := in.RawBody.File["file"]
	if len(fhs) != 1 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("file", "field.required")
	}
	fh := fhs[0]
	if fh.Size > MaxAttachment {
		return nil, apperr.New(apperr.TooLarge, "file.too_large")
	}
	r, err := fh.Open()
	if err != nil {
		return nil, apperr.Wrap(err, "open upload")
	}
	defer r.Close()
	return s.Save(ctx, "attachment", fh.Filename, fh.Header.Get("Content-Type"), r)
}

// thumb sends the thumbnail of an image the caller may see. A stored file
// never changes, so neither does its thumbnail: the browser keeps it.
func (s *Service) thumb(ctx context.Context, in *struct {
	httpx.IDPath
	IfNoneMatch string `header:"If-None-Match"`
}) (*huma.StreamResponse, error) {
	if _, err := s.open(ctx, in.ID); err != nil {
		return nil, err
	}
	t, err := s.Thumbnail(ctx, in.ID, MaxImageBytes)
	if err != nil {
		return nil, err
	}
	return ServeThumb(t, in.IfNoneMatch, "private, max-age=31536000, immutable")
}

// download streams a file the caller may see, shown in place only when safe.
func (s *Service) download(ctx context.Context, in *httpx.IDPath) (*huma.StreamResponse, error) {
	f, err := s.open(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	r, err := os.Open(filepath.Join(s.dir, f.Path))
	if err != nil {
		return nil, apperr.Wrap(err, "open file")
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		defer r.Close()
		ct, inline := servedAs(f.ContentType)
		disposition := "attachment"
		if inline {
			disposition = "inline"
		}
		hc.SetHeader("Content-Type", ct)
		hc.SetHeader("Content-Length", strconv.FormatInt(f.Size, 10))
		hc.SetHeader("Content-Disposition", disposition+"; filename*=UTF-8''"+urlEscape(f.Filename))
		hc.SetHeader("X-Content-Type-Options", "nosniff")
		hc.SetHeader("Cache-Control", "private, max-age=3600")
		hc.SetHeader("Content-Security-Policy", "sandbox")
		io.Copy(hc.BodyWriter(), r)
	}}, nil
}
