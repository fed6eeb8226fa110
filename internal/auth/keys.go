package auth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/settings"
)

// loginKey is the RSA key the browser encrypts passwords with. It lives in
// the database so that every process behind a load balancer shares it.
type loginKey struct {
	priv      *rsa.PrivateKey
	publicPEM string
}

const keySetting = "auth.login_rsa_key"

var generateLoginKey = func() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, 2048) }

func loadOrCreateKey(ctx context.Context, d *db.DB) (*loginKey, error) {
	stored, err := sharedSetting(ctx, d, keySetting, func() (string, error) {
		priv, err := generateLoginKey()
		if err != nil {
			return "", err
		}
		return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: mustPKCS8(priv)})), nil
	})
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode([]byte(stored))
	if block == nil {
		return nil, errors.New("auth: stored login key is not PEM")
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("auth: parse login key: %w", err)
	}
	priv, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("auth: login key is not RSA")
	}
	pub, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		return nil, err
	}
	return &loginKey{priv: priv, publicPEM: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}))}, nil
}

const captchaSecretSetting = "auth.captcha_hmac_key"

// loadOrCreateCaptchaKey returns the key captcha challenges are signed with.
func loadOrCreateCaptchaKey(ctx context.Context, d *db.DB) ([]byte, error) {
	stored, err := sharedSetting(ctx, d, captchaSecretSetting, func() (string, error) {
		b := make([]byte, 32)
		_, err := rand.Read(b)
		return hex.EncodeToString(b), err
	})
	if err != nil {
		return nil, err
	}
	return hex.DecodeString(stored)
}

// sharedSetting returns a secret every process behind a load balancer
// shares, making it on first start. Another process may win the race; its
// secret is then the one read back.
func sharedSetting(ctx context.Context, d *db.DB, name string, make func() (string, error)) (string, error) {
	if stored, err := settings.Value(ctx, d, name); err == nil {
		return stored, nil
	}
	v, err := make()
	if err != nil {
		return "", err
	}
	_ = settings.Create(ctx, d, name, v, clock.Clock{}.Now()) // at start, before the application's clock
	stored, err := settings.Value(ctx, d, name)
	if err != nil {
		return "", fmt.Errorf("auth: %w", err)
	}
	return stored, nil
}

func mustPKCS8(k *rsa.PrivateKey) []byte {
	b, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		panic(err) // cannot fail for a freshly generated RSA key
	}
	return b
}

// Decrypt returns the plain password from its RSA-OAEP/SHA-256 base64 form.
func (k *loginKey) Decrypt(field, b64 string) (string, error) {
	bad := apperr.New(apperr.Invalid, "error.validation").Field(field, "auth.bad_encryption")
	if b64 == "" {
		return "", apperr.New(apperr.Invalid, "error.validation").Field(field, "field.required")
	}
	ct, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(ct) != k.priv.Size() {
		return "", bad
	}
	pt, err := rsa.DecryptOAEP(sha256.New(), nil, k.priv, ct, nil)
	if err != nil {
		return "", bad
	}
	return string(pt), nil
}

// Encrypt is what the browser does; tests and scripted clients use it.
func Encrypt(publicPEM, password string) (string, error) {
	block, _ := pem.Decode([]byte(publicPEM))
	if block == nil {
		return "", errors.New("not PEM")
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return "", err
	}
	pub, ok := k.(*rsa.PublicKey)
	if !ok {
		return "", errors.New("not RSA")
	}
	ct, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, pub, []byte(password), nil)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(ct), nil
}
