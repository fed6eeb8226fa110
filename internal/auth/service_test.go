package auth

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// testClock is a settable time source.
type testClock struct{ t time.Time }

func (c *testClock) now() time.Time          { return c.t }
func (c *testClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func discard() *slog.Logger                  { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
func ctxFrom(ip string) context.Context {
	return access.WithMeta(context.Background(), access.Meta{IP: ip})
}

func setup(t *testing.T, d *db.DB) (*Service, *testClock) {
	t.Helper()
	ctx := context.Background()
	cfg := DefaultConfig()
	cfg.Captcha = false
	s, err := New(ctx, d, cfg, &audit.Log{DB: d})
	if err != nil {
		t.Fatal(err)
	}
	c := &testClock{t: time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)}
	s.now = c.now
	hash, _ := HashPassword("Secret@2026")
	now := c.t
	_, err = d.Exec(d.Rebind(`INSERT INTO users (username, name, password_hash, status, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)`),
		"doc", "Doc", hash, now, now)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

func login(t *testing.T, s *Service) string {
	t.Helper()
	enc, err := Encrypt(s.PublicKey(), "Secret@2026")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.Login(ctxFrom("10.0.0.1"), LoginInput{Username: "doc", Password: enc})
	if err != nil {
		t.Fatal(err)
	}
	return sess.Token
}

func TestSessionLifetime(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := setup(t, d)
		ctx := context.Background()
		t.Run("IdleEnds", func(t *testing.T) {
			token := login(t, s)
			c.advance(29 * time.Minute)
			if _, err := s.Authenticate(ctx, token, access.Meta{}); err != nil {
				t.Fatalf("29 minutes idle: %v", err)
			}
			c.advance(31 * time.Minute)
			if _, err := s.Authenticate(ctx, token, access.Meta{}); apperr.CodeOf(err) != apperr.Unauthorized {
				t.Fatalf("31 minutes idle: %v", err)
			}
		})
		t.Run("MaxAgeEnds", func(t *testing.T) {
			token := login(t, s)
			for i := 0; i < 28; i++ { // active every 25 minutes for 11 h 40 min
				c.advance(25 * time.Minute)
				if _, err := s.Authenticate(ctx, token, access.Meta{}); err != nil {
					t.Fatalf("active session ended after %d steps: %v", i, err)
				}
			}
			c.advance(25 * time.Minute) // 12 h 05 min in all, though only 25 minutes idle
			if _, err := s.Authenticate(ctx, token, access.Meta{}); apperr.CodeOf(err) != apperr.Unauthorized {
				t.Fatalf("after 12 hours: %v", err)
			}
		})
		t.Run("RateLimitPerIP", func(t *testing.T) {
			bad, _ := Encrypt(s.PublicKey(), "Wrong@2026")
			var limited bool
			for i := 0; i < 30; i++ {
				_, err := s.Login(ctxFrom("10.0.0.3"), LoginInput{Username: "nobody", Password: bad})
				limited = limited || apperr.CodeOf(err) == apperr.TooMany
			}
			if !limited {
				t.Fatal("30 attempts in a minute were not limited")
			}
			if _, err := s.Login(ctxFrom("10.0.0.4"), LoginInput{Username: "nobody", Password: bad}); apperr.CodeOf(err) == apperr.TooMany {
				t.Fatal("another address was limited")
			}
		})
	})
}

func TestPasswordPolicy(t *testing.T) {
	for _, tc := range []struct {
		pw, key string
	}{
		{"Ab1!", "password.too_short"},
		{"abcdefgh", "password.classes"},
		{"abcdefg1", "password.classes"},
		{"abcdefG1", "password.common"},
		{"kestrEl91", ""},
		{"kestrel!9", ""},
		{"病理会诊Ab12", ""},
		{"Telepath@2026", ""},
		{"Aa123456", "password.common"},
		{"P@ssw0rd", "password.common"},
		{"Password123!", "password.common"},
		{"Qq123456", "password.common"},
		{"Dragon2026!", "password.common"},
		{"Drag0n#Fly2026", ""},
		{"Dr.Zhang#2026", "password.contains_username"},
		{"ZHANG@hospital1", "password.contains_username"},
	} {
		err := CheckPolicy("password", tc.pw, "zhang")
		var got string
		if ae, ok := err.(*apperr.Error); ok {
			got = ae.Fields["password"][0].Key
		}
		if got != tc.key {
			t.Errorf("%q: got %q want %q", tc.pw, got, tc.key)
		}
	}
}

func TestHash(t *testing.T) {
	h, err := HashPassword("Secret@2026")
	if err != nil || !CheckPassword(h, "Secret@2026") || CheckPassword(h, "secret@2026") || CheckPassword("garbage", "x") {
		t.Fatal("hash round trip")
	}
}
