package auth

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

func encrypt(t *testing.T, s *Service, pw string) string {
	t.Helper()
	c, err := Encrypt(s.PublicKey(), pw)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// withCaptcha turns the captcha on with a fixed answer and returns a sign-in
// that solves it.
func withCaptcha(t *testing.T, s *Service) func(ip, user, pw string) error {
	s.cfg.Captcha, s.cfg.CaptchaTestAnswer = true, "1234"
	return func(ip, user, pw string) error {
		c, err := s.NewCaptcha(ctxFrom(ip))
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Login(ctxFrom(ip), LoginInput{Username: user, Password: encrypt(t, s, pw), CaptchaKey: c.Key, CaptchaCode: "1234"})
		return err
	}
}

// Five wrong passwords every fifteen minutes from one address used to keep
// an account locked for ever; now they only slow that address down.
func TestThrottleOutsiderCannotLockUserOut(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := setup(t, d)
		try := withCaptcha(t, s)
		for round := 0; round < 3; round++ {
			for i := 0; i < 5; i++ {
				try("10.9.0.1", "doc", "Wrong@2026")
			}
			c.advance(15 * time.Minute)
			for i := 0; i < 5; i++ {
				try("10.9.0.1", "doc", "Wrong@2026")
			}
			if err := try("10.9.0.2", "doc", "Secret@2026"); err != nil {
				t.Fatalf("round %d: the user is locked out: %v", round, err)
			}
		}
	})
}

// The wait grows with every wrong password from the same address and ends.
func TestThrottleGrows(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := setup(t, d)
		try := withCaptcha(t, s)
		for i := 0; i < 5; i++ {
			if err := try("10.9.1.1", "doc", "Wrong@2026"); !apperr.Is(err, "auth.bad_credentials") {
				t.Fatalf("failure %d: %v", i+1, err)
			}
		}
		if err := try("10.9.1.1", "doc", "Secret@2026"); apperr.CodeOf(err) != apperr.TooMany {
			t.Fatalf("after five failures: %v", err)
		}
		c.advance(31 * time.Second)
		if err := try("10.9.1.1", "doc", "Wrong@2026"); !apperr.Is(err, "auth.bad_credentials") {
			t.Fatalf("after the first wait: %v", err)
		}
		c.advance(31 * time.Second)
		if err := try("10.9.1.1", "doc", "Secret@2026"); apperr.CodeOf(err) != apperr.TooMany {
			t.Fatalf("the second wait is not longer: %v", err)
		}
		c.advance(30 * time.Second)
		if err := try("10.9.1.1", "doc", "Secret@2026"); err != nil {
			t.Fatalf("after the second wait: %v", err)
		}
		if err := try("10.9.1.1", "doc", "Wrong@2026"); !apperr.Is(err, "auth.bad_credentials") {
			t.Fatalf("a success starts the count again: %v", err)
		}
	})
}

// With an idle limit of a minute, a user active every 40 seconds stays in.
func TestIdleShortLimit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := setup(t, d)
		s.cfg.IdleTimeout = time.Minute
		token := login(t, s)
		for i := 0; i < 10; i++ {
			c.advance(40 * time.Second)
			if _, err := s.Authenticate(context.Background(), token, access.Meta{}); err != nil {
				t.Fatalf("active user signed out after %d steps: %v", i+1, err)
			}
		}
		c.advance(61 * time.Second)
		if _, err := s.Authenticate(context.Background(), token, access.Meta{}); apperr.CodeOf(err) != apperr.Unauthorized {
			t.Fatalf("after 61 s idle: %v", err)
		}
	})
}

// A challenge answered on one process cannot be answered again on another
// process sharing the database.
func TestCaptchaSingleUseAcrossProcesses(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s1, c := setup(t, d)
		withCaptcha(t, s1)
		s2, err := New(context.Background(), d, s1.cfg, &audit.Log{DB: d})
		if err != nil {
			t.Fatal(err)
		}
		s2.now = c.now
		ch, err := s1.NewCaptcha(ctxFrom("10.9.2.1"))
		if err != nil {
			t.Fatal(err)
		}
		in := LoginInput{Username: "doc", Password: encrypt(t, s1, "Secret@2026"), CaptchaKey: ch.Key, CaptchaCode: "1234"}
		if _, err := s2.Login(ctxFrom("10.9.2.1"), in); err != nil {
			t.Fatalf("first use: %v", err)
		}
		for _, s := range []*Service{s1, s2} {
			if _, err := s.Login(ctxFrom("10.9.2.1"), in); !apperr.Is(err, "error.validation") {
				t.Fatalf("second use: %v", err)
			}
		}
	})
}

// Making a challenge touches no database.
func TestCaptchaNeedsNoDatabase(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := setup(t, d)
		withCaptcha(t, s)
		closed := dbtest.Open(t, d.Dialect)
		closed.Close()
		s.db = closed
		if _, err := s.NewCaptcha(ctxFrom("10.9.3.1")); err != nil {
			t.Fatalf("challenge: %v", err)
		}
	})
}

// Wrong passwords for one account from many addresses make its sign-in ask
// for a captcha, even with the captcha switched off; the real user signs in
// by answering it.
func TestSuspicionDemandsCaptcha(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := setup(t, d)
		s.cfg.CaptchaTestAnswer = "1234"
		for i := 0; i < 5; i++ {
			s.Login(ctxFrom("10.9.4."+itoa(i+1)), LoginInput{Username: "doc", Password: encrypt(t, s, "Wrong@2026")})
			s.Login(ctxFrom("10.9.4."+itoa(i+1)), LoginInput{Username: "nobody", Password: encrypt(t, s, "Wrong@2026")})
		}
		for _, user := range []string{"doc", "nobody"} { // the same for an unknown name
			_, err := s.Login(ctxFrom("10.9.4.99"), LoginInput{Username: user, Password: encrypt(t, s, "Secret@2026")})
			var ae *apperr.Error
			if !errors.As(err, &ae) || len(ae.Fields["captcha_code"]) == 0 {
				t.Fatalf("%s: no captcha asked: %v", user, err)
			}
		}
		ch, err := s.Challenge(ctxFrom("10.9.4.99"))
		if err != nil || !ch.Enabled {
			t.Fatalf("challenge: %v %+v", err, ch)
		}
		if _, err := s.Login(ctxFrom("10.9.4.99"), LoginInput{Username: "doc", Password: encrypt(t, s, "Secret@2026"), CaptchaKey: ch.Key, CaptchaCode: "1234"}); err != nil {
			t.Fatalf("with the captcha: %v", err)
		}
	})
}

func itoa(i int) string { return strconv.Itoa(i) }

// The gate lets one password check per account run at a time and a few in
// all; the rest wait briefly, then are refused with 429.
func TestHashGate(t *testing.T) {
	g := newHashGate(2, 20*time.Millisecond)
	ctx := context.Background()
	leaveA, err := g.enter(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.enter(ctx, "a"); apperr.CodeOf(err) != apperr.TooMany {
		t.Fatalf("second check for one account: %v", err)
	}
	leaveB, err := g.enter(ctx, "b")
	if err != nil {
		t.Fatalf("another account: %v", err)
	}
	if _, err := g.enter(ctx, "c"); apperr.CodeOf(err) != apperr.TooMany {
		t.Fatalf("over the overall limit: %v", err)
	}
	leaveA()
	leaveB()
	leave, err := g.enter(ctx, "a")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	leave()
	if len(g.busy) != 0 {
		t.Fatalf("slots kept: %v", g.busy)
	}
}
