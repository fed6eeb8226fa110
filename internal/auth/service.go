// Package auth signs users in and out, keeps their sessions, and answers who
// the caller of a request is.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Config holds the sign-in and session policy.
type Config struct {
	Captcha           bool
	CaptchaTestAnswer string        // fixed answer for scripted tests; never set in production
	IdleTimeout       time.Duration // session ends after this long without a request
	MaxSession        time.Duration // and after this long in all
	MaxFailures       int           // consecutive wrong passwords before the account locks
	LockFor           time.Duration
	LoginPerMinute    int // sign-in attempts allowed per IP address
}

// DefaultConfig is the policy of the spec and the foundation issue.
func DefaultConfig() Config {
	return Config{Captcha: true, IdleTimeout: 30 * time.Minute, MaxSession: 12 * time.Hour,
		MaxFailures: 5, LockFor: 15 * time.Minute, LoginPerMinute: 20}
}

// Service signs users in and resolves sessions.
type Service struct {
	db      *db.DB
	cfg     Config
	key     *loginKey
	limiter *ipLimiter
	audit   *audit.Log
	now     func() time.Time
	// captchaSetting is the administrator's captcha_enable; the operator's
	// Config.Captcha switches the captcha off whatever it says.
	captchaSetting func(context.Context) bool
}

// UseCaptchaSetting makes the captcha follow the system configuration.
func (s *Service) UseCaptchaSetting(on func(context.Context) bool) { s.captchaSetting = on }

func (s *Service) captchaOn(ctx context.Context) bool {
	return s.cfg.Captcha && (s.captchaSetting == nil || s.captchaSetting(ctx))
}

// New returns the service, creating the login key on first start.
func New(ctx context.Context, d *db.DB, cfg Config, log *audit.Log) (*Service, error) {
	key, err := loadOrCreateKey(ctx, d)
	if err != nil {
		return nil, err
	}
	return &Service{db: d, cfg: cfg, key: key, limiter: newIPLimiter(cfg.LoginPerMinute, cfg.LoginPerMinute),
		audit: log, now: func() time.Time { return time.Now().UTC() }}, nil
}

// Config returns the policy in force.
func (s *Service) Config() Config { return s.cfg }

// PublicKey returns the PEM public key the browser encrypts passwords with.
func (s *Service) PublicKey() string { return s.key.publicPEM }

// Decrypt returns a plain password from the browser's encrypted form.
func (s *Service) Decrypt(field, b64 string) (string, error) { return s.key.Decrypt(field, b64) }

// LoginInput is what the sign-in form sends.
type LoginInput struct {
	Username    string `json:"username,omitempty" maxLength:"64"`
	Password    string `json:"password,omitempty" maxLength:"1024" doc:"RSA-OAEP (SHA-256) encrypted with the key from /api/auth/public_key, base64"`
	CaptchaKey  string `json:"captcha_key,omitempty" maxLength:"64"`
	CaptchaCode string `json:"captcha_code,omitempty" maxLength:"16"`
}

// Session is a signed-in session's token.
type Session struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
	User      UserRef   `json:"user"`
}

// UserRef names a user.
type UserRef struct {
	ID       int64  `json:"id" db:"id"`
	Username string `json:"username" db:"username"`
	Name     string `json:"name" db:"name"`
}

type loginUser struct {
	UserRef
	PasswordHash string     `db:"password_hash"`
	Status       int        `db:"status"`
	FailedLogins int        `db:"failed_logins"`
	LockedUntil  *time.Time `db:"locked_until"`
}

// Login checks the captcha and the credentials and opens a session. A wrong
// user name and a wrong password give the same answer.
func (s *Service) Login(ctx context.Context, in LoginInput) (*Session, error) {
	meta := access.MetaFrom(ctx)
	now := s.now()
	if !s.limiter.allow(meta.IP, now) {
		s.audit.Record(ctx, audit.Entry{Action: "auth.login", Username: in.Username, Outcome: audit.Denied, Message: "rate limited"})
		return nil, apperr.New(apperr.TooMany, "auth.too_many_attempts")
	}
	username := strings.TrimSpace(in.Username)
	var v apperr.Validation
	if username == "" {
		v.Add("username", "field.required")
	}
	if in.Password == "" {
		v.Add("password", "field.required")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.checkCaptcha(ctx, in.CaptchaKey, in.CaptchaCode); err != nil {
		s.audit.Record(ctx, audit.Entry{Action: "auth.login", Username: username, Outcome: audit.Failure, Message: "captcha"})
		return nil, err
	}
	password, err := s.key.Decrypt("password", in.Password)
	if err != nil {
		return nil, err
	}
	var u loginUser
	err = db.Get(ctx, s.db, &u, s.db.Builder().
		Select("id", "username", "name", "password_hash", "status", "failed_logins", "locked_until").
		From("users").Where("username = ? AND deleted_at IS NULL", username))
	if errors.Is(err, sql.ErrNoRows) {
		CheckPassword(dummyHash, password)
		s.audit.Record(ctx, audit.Entry{Action: "auth.login", Username: username, Outcome: audit.Failure, Message: "bad credentials"})
		return nil, apperr.New(apperr.Unauthorized, "auth.bad_credentials")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load user")
	}
	if u.LockedUntil != nil && now.Before(*u.LockedUntil) {
		s.audit.Record(ctx, audit.Entry{Action: "auth.login", UserID: u.ID, Username: u.Username, Outcome: audit.Denied, Message: "locked"})
		return nil, lockedErr(u.LockedUntil.Sub(now))
	}
	if !CheckPassword(u.PasswordHash, password) {
		return nil, s.loginFailed(ctx, u, now)
	}
	if u.Status != 1 {
		s.audit.Record(ctx, audit.Entry{Action: "auth.login", UserID: u.ID, Username: u.Username, Outcome: audit.Denied, Message: "disabled"})
		return nil, apperr.New(apperr.Forbidden, "auth.disabled")
	}
	token, err := s.openSession(ctx, u.ID, meta, now)
	if err != nil {
		return nil, err
	}
	s.audit.Record(ctx, audit.Entry{Action: "auth.login", ObjectType: "user", ObjectID: u.ID, UserID: u.ID, Username: u.Username, Role: s.rolesOf(ctx, u.ID)})
	return &Session{Token: token, ExpiresAt: now.Add(s.cfg.MaxSession), User: u.UserRef}, nil
}

// rolesOf lists a user's roles, comma-separated, for the sign-in record.
func (s *Service) rolesOf(ctx context.Context, userID int64) string {
	var roles []string
	if err := db.Select(ctx, s.db, &roles, s.db.Builder().Select("role").From("user_roles").Where("user_id = ?", userID).OrderBy("role")); err != nil {
		return ""
	}
	return strings.Join(roles, ",")
}

func lockedErr(left time.Duration) error {
	return apperr.New(apperr.Forbidden, "auth.locked").With("minutes", int(math.Ceil(left.Minutes())))
}

// loginFailed counts a wrong password and locks the account at the limit.
func (s *Service) loginFailed(ctx context.Context, u loginUser, now time.Time) error {
	failures := u.FailedLogins + 1
	var lockedUntil any
	if failures >= s.cfg.MaxFailures {
		lockedUntil, failures = now.Add(s.cfg.LockFor), 0
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("users").
			Set("failed_logins", failures).Set("locked_until", lockedUntil).Where("id = ?", u.ID))
		return err
	})
	if err != nil {
		return apperr.Wrap(err, "count failed login")
	}
	msg := "bad credentials"
	if lockedUntil != nil {
		msg = "bad credentials; account locked"
	}
	s.audit.Record(ctx, audit.Entry{Action: "auth.login", ObjectType: "user", ObjectID: u.ID, UserID: u.ID, Username: u.Username, Outcome: audit.Failure, Message: msg})
	if lockedUntil != nil {
		return lockedErr(s.cfg.LockFor)
	}
	return apperr.New(apperr.Unauthorized, "auth.bad_credentials")
}

func (s *Service) openSession(ctx context.Context, userID int64, meta access.Meta, now time.Time) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", apperr.Wrap(err, "token")
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	ua := meta.UserAgent
	if len(ua) > 255 {
		ua = ua[:255]
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").
			Set("failed_logins", 0).Set("locked_until", nil).Set("last_login_at", now).Where("id = ?", userID)); err != nil {
			return err
		}
		// Ended sessions are swept at sign-in; they hold no meaning after expiry.
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("sessions").Where("user_id = ? AND expires_at < ?", userID, now)); err != nil {
			return err
		}
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("sessions").
			Columns("token_hash", "user_id", "ip", "user_agent", "created_at", "last_seen_at", "expires_at").
			Values(hashToken(token), userID, meta.IP, ua, now, now, now.Add(s.cfg.MaxSession)))
		return err
	})
	if err != nil {
		return "", apperr.Wrap(err, "open session")
	}
	return token, nil
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

type sessionRow struct {
	ID         int64      `db:"id"`
	UserID     int64      `db:"user_id"`
	LastSeenAt time.Time  `db:"last_seen_at"`
	ExpiresAt  time.Time  `db:"expires_at"`
	RevokedAt  *time.Time `db:"revoked_at"`
	Username   string     `db:"username"`
	Name       string     `db:"name"`
	Status     int        `db:"status"`
	Deleted    *time.Time `db:"deleted_at"`
}

// Authenticate resolves a bearer token (httpx.Authenticator). Sessions end
// when revoked, idle too long, past their maximum age, or when the user is
// disabled or deleted.
func (s *Service) Authenticate(ctx context.Context, token string, _ access.Meta) (*access.Principal, error) {
	if len(token) > 128 {
		return nil, apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	var r sessionRow
	err := db.Get(ctx, s.db, &r, s.sessions().Where("s.token_hash = ?", hashToken(token)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load session")
	}
	now := s.now()
	if !s.live(r, now) {
		return nil, apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	// Touch at most once a minute: idle detection needs no finer grain.
	if now.Sub(r.LastSeenAt) > time.Minute {
		if _, err := db.Exec(ctx, s.db, s.db.Builder().Update("sessions").Set("last_seen_at", now).Where("id = ?", r.ID)); err != nil {
			return nil, apperr.Wrap(err, "touch session")
		}
	}
	p := &access.Principal{UserID: r.UserID, SessionID: r.ID, Username: r.Username, Name: r.Name}
	if err := s.loadBindings(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// sessions selects sessionRows.
func (s *Service) sessions() sq.SelectBuilder {
	return s.db.Builder().
		Select("s.id", "s.user_id", "s.last_seen_at", "s.expires_at", "s.revoked_at", "u.username", "u.name", "u.status", "u.deleted_at").
		From("sessions s").Join("users u ON u.id = s.user_id")
}

// live reports whether a session may still act: not revoked, neither idle
// nor past its maximum age, its user enabled and not deleted.
func (s *Service) live(r sessionRow, now time.Time) bool {
	return r.RevokedAt == nil && !now.After(r.ExpiresAt) && now.Sub(r.LastSeenAt) <= s.cfg.IdleTimeout && r.Status == 1 && r.Deleted == nil
}

// SessionPrincipal returns the principal of a live session by its id, for
// links issued to a session (signed slide URLs); it does not count as
// activity. An ended session is an Unauthorized error.
func (s *Service) SessionPrincipal(ctx context.Context, sessionID int64) (*access.Principal, error) {
	var r sessionRow
	err := db.Get(ctx, s.db, &r, s.sessions().Where("s.id = ?", sessionID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load session")
	}
	if !s.live(r, s.now()) {
		return nil, apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	p := &access.Principal{UserID: r.UserID, SessionID: r.ID, Username: r.Username, Name: r.Name}
	if err := s.loadBindings(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

func (s *Service) loadBindings(ctx context.Context, p *access.Principal) error {
	var rows []struct {
		Kind string `db:"kind"`
		Role string `db:"role"`
		ID   int64  `db:"ref"`
	}
	q := s.db.Rebind(`SELECT 'r' AS kind, role, 0 AS ref FROM user_roles WHERE user_id = ?
		UNION ALL SELECT 'c', '', center_id FROM user_centers WHERE user_id = ?
		UNION ALL SELECT 'h', '', hospital_id FROM user_hospitals WHERE user_id = ?`)
	if err := s.db.SelectContext(ctx, &rows, q, p.UserID, p.UserID, p.UserID); err != nil {
		return apperr.Wrap(err, "load roles")
	}
	for _, r := range rows {
		switch r.Kind {
		case "r":
			p.Roles = append(p.Roles, r.Role)
		case "c":
			p.CenterIDs = append(p.CenterIDs, r.ID)
		case "h":
			p.HospitalIDs = append(p.HospitalIDs, r.ID)
		}
	}
	access.SortRoles(p.Roles)
	return nil
}

// Logout revokes the caller's session.
func (s *Service) Logout(ctx context.Context) error {
	p := access.FromContext(ctx)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("sessions").Set("revoked_at", s.now()).Where("id = ?", p.SessionID)); err != nil {
			return apperr.Wrap(err, "revoke session")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "auth.logout", ObjectType: "user", ObjectID: p.UserID})
	})
}

// VerifyPassword checks the caller's password (screen unlock).
func (s *Service) VerifyPassword(ctx context.Context, encrypted string) error {
	p := access.FromContext(ctx)
	pw, err := s.key.Decrypt("password", encrypted)
	if err != nil {
		return err
	}
	var hash string
	if err := db.Get(ctx, s.db, &hash, s.db.Builder().Select("password_hash").From("users").Where("id = ?", p.UserID)); err != nil {
		return apperr.Wrap(err, "load password")
	}
	if !CheckPassword(hash, pw) {
		s.audit.Record(ctx, audit.Entry{Action: "auth.unlock_screen", ObjectType: "user", ObjectID: p.UserID, Outcome: audit.Failure})
		return apperr.New(apperr.Invalid, "error.validation").Field("password", "auth.password_wrong")
	}
	return nil
}

// ChangePassword sets the caller's new password and ends their other sessions.
func (s *Service) ChangePassword(ctx context.Context, oldEnc, newEnc string) error {
	p := access.FromContext(ctx)
	oldPw, err := s.key.Decrypt("old_password", oldEnc)
	if err != nil {
		return err
	}
	newPw, err := s.key.Decrypt("new_password", newEnc)
	if err != nil {
		return err
	}
	if err := CheckPolicy("new_password", newPw); err != nil {
		return err
	}
	var hash string
	if err := db.Get(ctx, s.db, &hash, s.db.Builder().Select("password_hash").From("users").Where("id = ?", p.UserID)); err != nil {
		return apperr.Wrap(err, "load password")
	}
	if !CheckPassword(hash, oldPw) {
		return apperr.New(apperr.Invalid, "error.validation").Field("old_password", "auth.password_wrong")
	}
	if oldPw == newPw {
		return apperr.New(apperr.Invalid, "error.validation").Field("new_password", "password.same_as_old")
	}
	newHash, err := HashPassword(newPw)
	if err != nil {
		return apperr.Wrap(err, "hash")
	}
	now := s.now()
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("password_hash", newHash).
			Set("password_changed_at", now).Set("updated_at", now).Where("id = ?", p.UserID)); err != nil {
			return apperr.Wrap(err, "set password")
		}
		if err := RevokeSessions(ctx, tx, p.UserID, p.SessionID, now); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "auth.change_password", ObjectType: "user", ObjectID: p.UserID})
	})
}

// RevokeSessions ends every open session of a user except keep (0: all).
func RevokeSessions(ctx context.Context, tx *db.Tx, userID, keep int64, now time.Time) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Update("sessions").Set("revoked_at", now).
		Where("user_id = ? AND id <> ? AND revoked_at IS NULL", userID, keep))
	if err != nil {
		return apperr.Wrap(err, "revoke sessions")
	}
	return nil
}
