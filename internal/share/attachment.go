package share

import (
	"context"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"

	"telepath/internal/consultation"
	"telepath/internal/files"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// maxAttachment bounds an attachment served to a visitor.
const maxAttachment = 64 << 20

// Attachment serves one attachment of the shared case for a visit.
// It returns the bytes, their stored type and the name they are sent under.
//
// An image (by its stored type, its name or its first bytes) is sent with
// the share's watermark drawn into its pixels, like the slides' tiles:
// JPEG as JPEG, PNG, GIF (first frame), WebP and BMP as PNG. An image that
// cannot be stamped — unreadable, more pixels than files.MaxPixels, or of
// a kind not decoded here (SVG, HEIC, TIFF) — is refused rather than sent
// unmarked. Other files (PDF, documents) are sent as stored.
func (s *Service) Attachment(ctx context.Context, ticket string, id int64) ([]byte, string, string, error) {
	r, err := s.byTicket(ctx, ticket)
	if err != nil {
		return nil, "", "", err
	}
	if !r.WithAttachments {
		return nil, "", "", unavailable()
	}
	_, d, err := s.asOwner(ctx, r)
	if err != nil {
		return nil, "", "", err
	}
	i := slices.IndexFunc(d.Attachments, func(a consultation.Attachment) bool { return a.ID == id })
	if i < 0 {
		return nil, "", "", apperr.New(apperr.NotFound, "error.not_found")
	}
	a := d.Attachments[i]
	b, ct, err := s.deps.File(ctx, a.FileID, maxAttachment)
	if err != nil {
		return nil, "", "", err
	}
	name := a.Filename
	if r.Deidentify {
		name = fmt.Sprintf("attachment-%d%s", i+1, path.Ext(a.Filename))
	}
	if isImage(b, ct, name) {
		if b, ct, name, err = s.stamped(ctx, r, b, name); err != nil {
			return nil, "", "", err
		}
	}
	return b, ct, name, s.db.InTx(ctx, func(tx *db.Tx) error { return s.visit(ctx, tx, r, "", "attachment:"+strconv.FormatInt(id, 10)) })
}

// stamped is an image attachment with the share's watermark drawn in, its
// type and its name with the extension of its new format.
func (s *Service) stamped(ctx context.Context, r *shareRow, b []byte, name string) ([]byte, string, string, error) {
	out, format, err := s.deps.Slides.StampImage(b, s.watermark(ctx, r))
	if err != nil {
		switch apperr.CodeOf(err) {
		case apperr.TooLarge:
			err = apperr.New(apperr.TooLarge, "share.image_too_large").With("max", files.MaxPixels/1_000_000)
		case apperr.Invalid:
			err = apperr.New(apperr.Invalid, "share.image_unreadable")
		}
		return nil, "", "", err
	}
	ext := "." + format
	if format == "jpeg" && (strings.EqualFold(path.Ext(name), ".jpg") || strings.EqualFold(path.Ext(name), ".jpeg")) {
		ext = path.Ext(name)
	}
	return out, "image/" + format, strings.TrimSuffix(name, path.Ext(name)) + ext, nil
}

// imageExts are the names of image files, readable here or not.
var imageExts = []string{".jpg", ".jpeg", ".jfif", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".svg", ".heic", ".heif", ".avif", ".ico"}

// isImage: the file is a picture by its stored type, its name or its bytes.
func isImage(b []byte, ct, name string) bool {
	return strings.HasPrefix(ct, "image/") || slices.Contains(imageExts, strings.ToLower(path.Ext(name))) ||
		strings.HasPrefix(http.DetectContentType(b), "image/")
}
