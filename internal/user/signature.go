package user

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"image"
	_ "image/jpeg" // signatures may be JPEG
	_ "image/png"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Signature limits: a scanned or drawn signature is small.
const (
	MaxSignatureBytes = 512 << 10
	maxSignaturePx    = 2000
	minSignaturePx    = 20
)

// checkSignature validates an uploaded signature image and returns its
// content type.
func checkSignature(b []byte) (string, error) {
	if len(b) == 0 {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("file", "field.required")
	}
	if len(b) > MaxSignatureBytes {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("file", "signature.too_large", "max", MaxSignatureBytes>>10)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || (format != "jpeg" && format != "png") {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("file", "signature.bad_type")
	}
	if cfg.Width < minSignaturePx || cfg.Height < minSignaturePx || cfg.Width > maxSignaturePx || cfg.Height > maxSignaturePx {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("file", "signature.bad_size", "min", minSignaturePx, "max", maxSignaturePx)
	}
	// Decode it whole: a truncated file whose header parses would print as noise.
	if _, _, err := image.Decode(bytes.NewReader(b)); err != nil {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("file", "signature.bad_type")
	}
	return "image/" + format, nil
}

// SetSignature stores the caller's signature image (nil removes it).
func (s *Service) SetSignature(ctx context.Context, img []byte) error {
	ct := ""
	if img != nil {
		var err error
		if ct, err = checkSignature(img); err != nil {
			return err
		}
	}
	p := access.FromContext(ctx)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		var blob any
		if img != nil {
			blob = img
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("signature", blob).Set("signature_type", ct).Where("id = ?", p.UserID)); err != nil {
			return apperr.Wrap(err, "store signature")
		}
		action := "user.signature.set"
		if img == nil {
			action = "user.signature.remove"
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: action, ObjectType: "user", ObjectID: p.UserID,
			After: map[string]any{"bytes": len(img), "type": ct}})
	})
}

// Signature returns a user's signature image and its content type; nil
// when they have none. Callers check who may see it: the caller's own, or
// the signing expert's on a report the caller may read.
func (s *Service) Signature(ctx context.Context, userID int64) ([]byte, string, error) {
	var row struct {
		Signature []byte `db:"signature"`
		Type      string `db:"signature_type"`
	}
	err := db.Get(ctx, s.db, &row, s.db.Builder().Select("signature", "signature_type").From("users").Where("id = ?", userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", apperr.Wrap(err, "load signature")
	}
	return row.Signature, row.Type, nil
}
