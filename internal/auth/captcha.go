package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"time"

	"github.com/mojocn/base64Captcha"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

const captchaTTL = 5 * time.Minute

var captchaDriver = base64Captcha.NewDriverDigit(48, 140, 4, 0.6, 60)

// Captcha is a challenge image and the key to answer it with.
type Captcha struct {
	Enabled bool   `json:"enabled"`
	Key     string `json:"key"`
	Image   string `json:"image" doc:"data:image/png;base64 URL"`
}

// NewCaptcha stores a fresh challenge for five minutes and returns its image.
func (s *Service) NewCaptcha(ctx context.Context) (*Captcha, error) {
	if !s.captchaOn(ctx) {
		return &Captcha{Enabled: false}, nil
	}
	_, q, answer := captchaDriver.GenerateIdQuestionAnswer()
	if s.cfg.CaptchaTestAnswer != "" {
		q, answer = s.cfg.CaptchaTestAnswer, s.cfg.CaptchaTestAnswer
	}
	item, err := captchaDriver.DrawCaptcha(q)
	if err != nil {
		return nil, apperr.Wrap(err, "draw captcha")
	}
	kb := make([]byte, 16)
	rand.Read(kb)
	key := base64.RawURLEncoding.EncodeToString(kb)
	now := s.now()
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		// Expired challenges are swept as new ones are made.
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("captchas").Where("expires_at < ?", now)); err != nil {
			return err
		}
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("captchas").Columns("key", "answer_hash", "expires_at").
			Values(key, hashAnswer(key, answer), now.Add(captchaTTL)))
		return err
	})
	if err != nil {
		return nil, apperr.Wrap(err, "store captcha")
	}
	return &Captcha{Enabled: true, Key: key, Image: item.EncodeB64string()}, nil
}

// checkCaptcha consumes the challenge: right or wrong, a key works once.
func (s *Service) checkCaptcha(ctx context.Context, key, code string) error {
	if !s.captchaOn(ctx) {
		return nil
	}
	if key == "" || strings.TrimSpace(code) == "" {
		return apperr.New(apperr.Invalid, "error.validation").Field("captcha_code", "auth.captcha_required")
	}
	var stored struct {
		AnswerHash string    `db:"answer_hash"`
		ExpiresAt  time.Time `db:"expires_at"`
	}
	var found bool
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		err := db.Get(ctx, tx, &stored, tx.Builder().Select("answer_hash", "expires_at").From("captchas").Where("key = ?", key))
		if err != nil {
			return nil
		}
		found = true
		_, err = db.Exec(ctx, tx, tx.Builder().Delete("captchas").Where("key = ?", key))
		return err
	})
	if err != nil {
		return apperr.Wrap(err, "check captcha")
	}
	if !found || s.now().After(stored.ExpiresAt) {
		return apperr.New(apperr.Invalid, "error.validation").Field("captcha_code", "auth.captcha_expired")
	}
	if hashAnswer(key, strings.TrimSpace(code)) != stored.AnswerHash {
		return apperr.New(apperr.Invalid, "error.validation").Field("captcha_code", "auth.captcha_wrong")
	}
	return nil
}

func hashAnswer(key, answer string) string {
	h := sha256.Sum256([]byte(key + "\x00" + strings.ToLower(answer)))
	return hex.EncodeToString(h[:])
}
