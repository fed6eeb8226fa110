package share

import (
	"bytes"
	"context"
	"errors"
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
	"telepath/internal/report"
)

// maxAttachment bounds an attachment served to a visitor; maxPDF a PDF,
// which is read whole into memory to be stamped.
const (
	maxAttachment = 64 << 20
	maxPDF        = 32 << 20
)

// Attachment serves one attachment of the shared case for a visit.
// It returns the bytes, their stored type and the name they are sent under.
//
// An image (by its stored type, its name or its first bytes) is sent with
// the share's watermark drawn into its pixels, like the slides' tiles:
// JPEG as JPEG, PNG, GIF (first frame), WebP and BMP as PNG. An image that
// cannot be stamped — unreadable, more pixels than files.MaxPixels, or of
// a kind not decoded here (SVG, HEIC, TIFF) — is refused rather than sent
// unmarked. A PDF (by its type, name or first bytes) is sent as a copy
// with the same watermark over every page, each page keeping its size;
// one that cannot be stamped — unreadable, encrypted, more than
// report.MaxStampPages pages or maxPDF bytes, or taking too long or too
// much memory to stamp (report.Stamper: in a child process with a time
// limit; a crafted file can make the reader spin) — is refused likewise.
// One image and a few PDFs are stamped at a time. Other files (documents)
// are sent as stored. The stored file is never changed.
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
	switch {
	case isPDF(b, ct, name):
		if b, err = s.stampedPDF(ctx, r, b); err != nil {
			return nil, "", "", err
		}
		ct = "application/pdf"
	case isImage(b, ct, name):
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

// stampedPDF is a PDF attachment with the share's watermark over every
// page.
func (s *Service) stampedPDF(ctx context.Context, r *shareRow, b []byte) ([]byte, error) {
	if len(b) > maxPDF {
		return nil, apperr.New(apperr.TooLarge, "share.pdf_too_large").With("max", maxPDF>>20)
	}
	out, err := s.pdf.Stamp(ctx, b, shareMark(s.watermark(ctx, r)))
	switch {
	case errors.Is(err, report.ErrStampTooCostly):
		return nil, apperr.New(apperr.TooLarge, "share.pdf_too_costly")
	case errors.Is(err, report.ErrTooManyPages):
		return nil, apperr.New(apperr.TooLarge, "share.pdf_too_many_pages").With("max", report.MaxStampPages)
	case errors.Is(err, report.ErrEncryptedPDF):
		return nil, apperr.New(apperr.Invalid, "share.pdf_encrypted")
	case errors.Is(err, report.ErrUnreadablePDF):
		return nil, apperr.New(apperr.Invalid, "share.pdf_unreadable")
	}
	return out, err
}

// isPDF: the file is a PDF by its stored type, its name or its bytes.
func isPDF(b []byte, ct, name string) bool {
	return ct == "application/pdf" || strings.EqualFold(path.Ext(name), ".pdf") || bytes.HasPrefix(b, []byte("%PDF-"))
}

// imageExts are the names of image files, readable here or not.
var imageExts = []string{".jpg", ".jpeg", ".jfif", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".svg", ".heic", ".heif", ".avif", ".ico"}

// isImage: the file is a picture by its stored type, its name or its bytes.
func isImage(b []byte, ct, name string) bool {
	return strings.HasPrefix(ct, "image/") || slices.Contains(imageExts, strings.ToLower(path.Ext(name))) ||
		strings.HasPrefix(http.DetectContentType(b), "image/")
}
