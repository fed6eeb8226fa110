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
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Config holds the sign-in and session policy.
type Config struct {
	Captcha           bool
	CaptchaTestAnswer string        // fixed answer for scripted tests; only in test mode
	IdleTimeout       time.Duration // session ends after this long without a request
	MaxSession        time.Duration // and after this long in all
	MaxFailures       int           // wrong passwords from one address before it must wait (see throttle.go); in a session, before it ends
	LockFor           time.Duration // the longest wait
	LoginPerMinute    int           // sign-in attempts allowed per IP address (three times as many captchas)
}

// DefaultConfig is the policy of the spec and the foundation issue.
func DefaultConfig() Config {
	return Config{Captcha: true, IdleTimeout: 30 * time.Minute, MaxSession: 12 * time.Hour,
		MaxFailures: 5, LockFor: 15 * time.Minute, LoginPerMinute: 20}
}

// Service signs users in and resolves sessions.
type Service struct {
	db             *db.DB
	cfg            Config
	key            *loginKey
	captchaKey     []byte
	limiter        *ipLimiter
	captchaLimiter *ipLimiter
	gate           *hashGate
	seen           *lastSeen
	failureSweep   every
	nonceSweep     every
	audit          *audit.Log
	now            func() time.Time
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
	captchaKey, err := loadOrCreateCaptchaKey(ctx, d)
	if err != nil {
		return nil, err
	}
	return &Service{
		db: d, cfg: cfg, key: key, captchaKey: captchaKey, audit: log,
		limiter:        newIPLimiter(cfg.LoginPerMinute, cfg.LoginPerMinute),
		captchaLimiter: newIPLimiter(3*cfg.LoginPerMinute, 3*cfg.LoginPerMinute),
		gate:           newHashGate(2*runtime.GOMAXPROCS(0), 3*time.Second),
		seen:           &lastSeen{at: map[int64]time.Time{}},
		failureSweep:   every{period: time.Hour},
		nonceSweep:     every{period: 10 * time.Minute},
		now:            clock.Clock{}.Now,
	}, nil
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.now = c.Now }

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
	PasswordHash string `db:"password_hash"`
	Status       int    `db:"status"`
}

// Login checks the captcha and the credentials and opens a session. An
// unknown user name and a wrong password get the same answers, in the same
// time (a dummy hash is checked), and the same waits (throttle.go).
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
	// One attempt per user name at a time, so that each sees the failures before it.
	release, err := s.gate.enter(ctx, username)
	if err != nil {
		return nil, err
	}
	defer release()
	st, err := s.loginState(ctx, username, meta.IP, now)
	if err != nil {
		return nil, err
	}
	if st.wait > 0 {
		s.audit.Record(ctx, audit.Entry{Action: "auth.login", Username: username, Outcome: audit.Denied, Message: "throttled"})
		return nil, throttledErr(st.wait)
	}
	if err := s.checkCaptcha(ctx, in.CaptchaKey, in.CaptchaCode, st.suspicious); err != nil {
		s.audit.Record(ctx, audit.Entry{Action: "auth.login", Username: username, Outcome: audit.Failure, Message: "captcha"})
		return nil, err
	}
	password, err := s.key.Decrypt("password", in.Password)
	if err != nil {
		return nil, err
	}
	var u loginUser
	err = db.Get(ctx, s.db, &u, s.db.Builder().Select("id", "username", "name", "password_hash", "status").
		From("users").Where("username = ? AND deleted_at IS NULL", username))
	known := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.Wrap(err, "load user")
	}
	if !known {
		u.PasswordHash = dummyHash
	}
	if !CheckPassword(u.PasswordHash, password) || !known {
		if err := s.countFailure(ctx, username, meta.IP, now); err != nil {
			return nil, err
		}
		entry := audit.Entry{Action: "auth.login", Username: username, Outcome: audit.Failure, Message: "bad credentials"}
		if known {
			entry.ObjectType, entry.ObjectID, entry.UserID = "user", u.ID, u.ID
		}
		s.audit.Record(ctx, entry)
		return nil, apperr.New(apperr.Unauthorized, "auth.bad_credentials")
	}
	if u.Status != 1 {
		s.audit.Record(ctx, audit.Entry{Action: "auth.login", UserID: u.ID, Username: u.Username, Outcome: audit.Denied, Message: "disabled"})
		return nil, apperr.New(apperr.Forbidden, "auth.disabled")
	}
	token, err := s.openSession(ctx, u.UserRef, meta, now)
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

func (s *Service) openSession(ctx context.Context, u UserRef, meta access.Meta, now time.Time) (string, error) {
	userID := u.ID
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
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("last_login_at", now).Where("id = ?", userID)); err != nil {
			return err
		}
		if err := clearFailures(ctx, tx, u.Username, meta.IP); err != nil {
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
	LockedAt   *time.Time `db:"locked_at"`
	Username   string     `db:"username"`
	Name       string     `db:"name"`
	Status     int        `db:"status"`
	MustChange bool       `db:"must_change_password"`
	Deleted    *time.Time `db:"deleted_at"`
}

// Authenticate resolves a bearer token (httpx.Authenticator). Sessions end
// when revoked, idle too long, past their maximum age, or when the user is
// disabled or deleted. A session whose screen is locked, or whose user must
// first choose a new password, is refused (423, 403) unless ctx says the
// route accepts it (access.WithAllowed).
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
	if r.LockedAt != nil && !access.Allowed(ctx, access.ScreenLocked) {
		return nil, apperr.New(apperr.Locked, "auth.screen_locked")
	}
	if r.MustChange && !access.Allowed(ctx, access.PasswordChange) {
		return nil, apperr.New(apperr.Forbidden, "auth.password_change_required")
	}
	if err := s.touch(ctx, r.ID, r.LastSeenAt, now); err != nil {
		return nil, err
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
		Select("s.id", "s.user_id", "s.last_seen_at", "s.expires_at", "s.revoked_at", "s.locked_at",
			"u.username", "u.name", "u.status", "u.must_change_password", "u.deleted_at").
		From("sessions s").Join("users u ON u.id = s.user_id")
}

// live reports whether a session may still act: not revoked, neither idle
// nor past its maximum age, its user enabled and not deleted.
func (s *Service) live(r sessionRow, now time.Time) bool {
	lastSeen := s.seen.get(r.ID, r.LastSeenAt)
	return r.RevokedAt == nil && !now.After(r.ExpiresAt) && now.Sub(lastSeen) <= s.cfg.IdleTimeout && r.Status == 1 && r.Deleted == nil
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
	// A locked screen or a password still to change shows no slides either.
	if !s.live(r, s.now()) || r.LockedAt != nil || r.MustChange {
		return nil, apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	p := &access.Principal{UserID: r.UserID, SessionID: r.ID, Username: r.Username, Name: r.Name}
	if err := s.loadBindings(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// UserPrincipal returns the principal of an enabled user by id, without a
// session, for what is done on a user's behalf (a shared case is read as
// its owner). A disabled, deleted or unknown user is an Unauthorized error.
func (s *Service) UserPrincipal(ctx context.Context, userID int64) (*access.Principal, error) {
	var u struct {
		Username string     `db:"username"`
		Name     string     `db:"name"`
		Status   int        `db:"status"`
		Deleted  *time.Time `db:"deleted_at"`
	}
	err := db.Get(ctx, s.db, &u, s.db.Builder().Select("username", "name", "status", "deleted_at").From("users").Where("id = ?", userID))
	if errors.Is(err, sql.ErrNoRows) || err == nil && (u.Status != 1 || u.Deleted != nil) {
		return nil, apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load user")
	}
	p := &access.Principal{UserID: userID, Username: u.Username, Name: u.Name}
	if err := s.loadBindings(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

func (s *Service) loadBindings(ctx context.Context, p *access.Principal) error {
	var rows []struct {
		Kind   string `db:"kind"`
		Role   string `db:"role"`
		ID     int64  `db:"ref"`
		Config string `db:"cfg"`
	}
	q := s.db.Rebind(`SELECT 'r' AS kind, role, 0 AS ref, CAST(config AS TEXT) AS cfg FROM user_roles WHERE user_id = ?
		UNION ALL SELECT 'c', '', center_id, '' FROM user_centers WHERE user_id = ?
		UNION ALL SELECT 'h', '', hospital_id, '' FROM user_hospitals WHERE user_id = ?`)
	if err := s.db.SelectContext(ctx, &rows, q, p.UserID, p.UserID, p.UserID); err != nil {
		return apperr.Wrap(err, "load roles")
	}
	configs := map[string]string{}
	for _, r := range rows {
		switch r.Kind {
		case "r":
			p.Roles = append(p.Roles, r.Role)
			configs[r.Role] = r.Config
		case "c":
			p.CenterIDs = append(p.CenterIDs, r.ID)
		case "h":
			p.HospitalIDs = append(p.HospitalIDs, r.ID)
		}
	}
	access.SortRoles(p.Roles)
	narrowByRoleConfig(p, configs)
	return nil
}

// narrowByRoleConfig applies the role configuration that says where a user
// works (spec 2 §6; user/role/config):
//   - an allocator configured with centers (center_ids) works in those of
//     their centers only: they see, count and allot only those centers'
//     cases and frozen appointments. A center administrator keeps every
//     center they administer; an allocator without configured centers keeps
//     all of theirs.
//   - a site account configured with a site (site_id) acts for that
//     hospital only, among the hospitals it is bound to: its lists, counts,
//     registrations and requests are that hospital's.
//
// A configured center or hospital the user is no longer bound to is not
// granted: the intersection may be empty, and then nothing is seen.
func narrowByRoleConfig(p *access.Principal, configs map[string]string) {
	if p.IsAdmin() || p.Has(access.Root) {
		return
	}
	var cfg struct {
		CenterIDs []int64 `json:"center_ids"`
		SiteID    *int64  `json:"site_id"`
	}
	if raw, ok := configs[access.Allocator]; ok && !p.Has(access.CenterAdmin) && json.Unmarshal([]byte(raw), &cfg) == nil && len(cfg.CenterIDs) > 0 {
		p.CenterIDs = slices.DeleteFunc(p.CenterIDs, func(id int64) bool { return !slices.Contains(cfg.CenterIDs, id) })
	}
	cfg.SiteID = nil
	if raw, ok := configs[access.Site]; ok && json.Unmarshal([]byte(raw), &cfg) == nil && cfg.SiteID != nil {
		p.HospitalIDs = slices.DeleteFunc(p.HospitalIDs, func(id int64) bool { return id != *cfg.SiteID })
	}
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

// RevokeSessions ends every open session of a user except keep (0: all).
func RevokeSessions(ctx context.Context, tx *db.Tx, userID, keep int64, now time.Time) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Update("sessions").Set("revoked_at", now).
		Where("user_id = ? AND id <> ? AND revoked_at IS NULL", userID, keep))
	if err != nil {
		return apperr.Wrap(err, "revoke sessions")
	}
	return nil
}
