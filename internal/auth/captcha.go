package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"time"

	"github.com/mojocn/base64Captcha"

	"telepath/internal/platform/access"
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

// A challenge is not stored: its key carries a nonce and an expiry signed
// with a server key (shared by the processes through the settings table),
// and a second signature over them and the answer. Making one costs no
// database write; answering one records its nonce, so that it is answered
// once, on whichever process.
const (
	nonceLen  = 12
	expiryLen = 4
	idTagLen  = 8
	ansTagLen = 12
	keyLen    = nonceLen + expiryLen + idTagLen + ansTagLen
)

// NewCaptcha returns a fresh challenge when the captcha is on.
func (s *Service) NewCaptcha(ctx context.Context) (*Captcha, error) {
	if !s.captchaOn(ctx) {
		return &Captcha{Enabled: false}, nil
	}
	return s.Challenge(ctx)
}

// Challenge returns a fresh challenge whatever the settings say: a sign-in
// asks for one when its account is under suspicion. Each address gets a few
// a minute.
func (s *Service) Challenge(ctx context.Context) (*Captcha, error) {
	now := s.now()
	if !s.captchaLimiter.allow(access.MetaFrom(ctx).IP, now) {
		return nil, apperr.New(apperr.TooMany, "auth.captcha_too_many")
	}
	_, q, answer := captchaDriver.GenerateIdQuestionAnswer()
	if s.cfg.CaptchaTestAnswer != "" {
		q, answer = s.cfg.CaptchaTestAnswer, s.cfg.CaptchaTestAnswer
	}
	item, err := captchaDriver.DrawCaptcha(q)
	if err != nil {
		return nil, apperr.Wrap(err, "draw captcha")
	}
	head := make([]byte, nonceLen+expiryLen, keyLen)
	if _, err := rand.Read(head[:nonceLen]); err != nil {
		return nil, apperr.Wrap(err, "captcha nonce")
	}
	binary.BigEndian.PutUint32(head[nonceLen:], uint32(now.Add(captchaTTL).Unix()))
	key := append(head, s.captchaTag("id", head, "")[:idTagLen]...)
	key = append(key, s.captchaTag("answer", head, answer)[:ansTagLen]...)
	return &Captcha{Enabled: true, Key: base64.RawURLEncoding.EncodeToString(key), Image: item.EncodeB64string()}, nil
}

func (s *Service) captchaTag(kind string, head []byte, answer string) []byte {
	m := hmac.New(sha256.New, s.captchaKey)
	m.Write([]byte(kind + "\x00"))
	m.Write(head)
	m.Write([]byte("\x00" + strings.ToLower(strings.TrimSpace(answer))))
	return m.Sum(nil)
}

// checkCaptcha consumes the challenge: right or wrong, a key works once. It
// is needed when the captcha is on, or when demanded (a suspicious account).
func (s *Service) checkCaptcha(ctx context.Context, key, code string, demanded bool) error {
	if !demanded && !s.captchaOn(ctx) {
		return nil
	}
	if key == "" || strings.TrimSpace(code) == "" {
		return apperr.New(apperr.Invalid, "error.validation").Field("captcha_code", "auth.captcha_required")
	}
	expired := apperr.New(apperr.Invalid, "error.validation").Field("captcha_code", "auth.captcha_expired")
	raw, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil || len(raw) != keyLen {
		return expired
	}
	head := raw[:nonceLen+expiryLen]
	expires := time.Unix(int64(binary.BigEndian.Uint32(head[nonceLen:])), 0).UTC()
	if !hmac.Equal(raw[nonceLen+expiryLen:nonceLen+expiryLen+idTagLen], s.captchaTag("id", head, "")[:idTagLen]) || s.now().After(expires) {
		return expired
	}
	fresh, err := s.useNonce(ctx, hex.EncodeToString(head[:nonceLen]), expires)
	if err != nil {
		return err
	}
	if !fresh {
		return expired
	}
	if !hmac.Equal(raw[nonceLen+expiryLen+idTagLen:], s.captchaTag("answer", head, code)[:ansTagLen]) {
		return apperr.New(apperr.Invalid, "error.validation").Field("captcha_code", "auth.captcha_wrong")
	}
	return nil
}

// useNonce records a challenge as answered; false when it already was.
func (s *Service) useNonce(ctx context.Context, nonce string, expires time.Time) (bool, error) {
	now := s.now()
	if s.nonceSweep.due(now) {
		db.Exec(ctx, s.db, s.db.Builder().Delete("captcha_uses").Where("expires_at < ?", now)) //nolint:errcheck
	}
	res, err := db.Exec(ctx, s.db, s.db.Builder().Insert("captcha_uses").Columns("nonce", "expires_at").
		Values(nonce, expires).Suffix("ON CONFLICT (nonce) DO NOTHING"))
	if err != nil {
		return false, apperr.Wrap(err, "use captcha")
	}
	n, err := res.RowsAffected()
	return n == 1, apperr.Wrap(err, "use captcha")
}
