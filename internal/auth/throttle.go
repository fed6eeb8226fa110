package auth

import (
	"context"
	"math"
	"sync"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Wrong passwords are counted per user name, as typed (known or not, so that
// the answers tell nothing about which accounts exist), twice: for the
// client address that sent them and for all addresses together (ip "*").
// After MaxFailures from one address that address waits before its next
// attempt, 30 s and then twice as long after each further failure, up to
// LockFor; other addresses are not slowed, so nobody can lock a user out.
// MaxFailures from all addresses together make the account suspicious: its
// sign-in then needs a captcha even where the captcha is off. A success from
// an address clears its count and the account's; an administrator clears
// them all; counts quiet for a day are forgotten.
const (
	firstWait      = 30 * time.Second
	forgetFailures = 24 * time.Hour
	allAddresses   = "*"
)

// loginState is what the failure counts say about the next attempt.
type loginState struct {
	wait       time.Duration // this address must wait so long before trying again
	suspicious bool          // the account needs a captcha
}

type failureRow struct {
	IP           string     `db:"ip"`
	Failures     int        `db:"failures"`
	BlockedUntil *time.Time `db:"blocked_until"`
	UpdatedAt    time.Time  `db:"updated_at"`
}

func (s *Service) loginState(ctx context.Context, username, ip string, now time.Time) (loginState, error) {
	var rows []failureRow
	err := db.Select(ctx, s.db, &rows, s.db.Builder().Select("ip", "failures", "blocked_until", "updated_at").
		From("login_failures").Where("username = ? AND ip IN (?, ?)", username, ip, allAddresses))
	if err != nil {
		return loginState{}, apperr.Wrap(err, "load login failures")
	}
	var st loginState
	for _, r := range rows {
		switch {
		case now.Sub(r.UpdatedAt) > forgetFailures:
		case r.IP == allAddresses:
			st.suspicious = r.Failures >= s.cfg.MaxFailures
		case r.BlockedUntil != nil && now.Before(*r.BlockedUntil):
			st.wait = r.BlockedUntil.Sub(now)
		}
	}
	return st, nil
}

// waitAfter is how long an address waits after its n-th wrong password.
func (s *Service) waitAfter(n int) time.Duration {
	if n < s.cfg.MaxFailures {
		return 0
	}
	doublings := min(n-s.cfg.MaxFailures, 20)
	return min(s.cfg.LockFor, firstWait<<doublings)
}

// countFailure records a wrong password for username from ip. When the
// address must now wait, the user row (if there is one) shows it to the
// administrators as locked until then.
func (s *Service) countFailure(ctx context.Context, username, ip string, now time.Time) error {
	s.sweepFailures(ctx, now)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, addr := range []string{ip, allAddresses} {
			var n int
			q := tx.Rebind(`INSERT INTO login_failures (username, ip, failures, updated_at) VALUES (?, ?, 1, ?)
				ON CONFLICT (username, ip) DO UPDATE SET updated_at = excluded.updated_at,
					failures = CASE WHEN login_failures.updated_at < ? THEN 1 ELSE login_failures.failures + 1 END
				RETURNING failures`)
			if err := tx.GetContext(ctx, &n, q, username, addr, now, now.Add(-forgetFailures)); err != nil {
				return apperr.Wrap(err, "count login failure")
			}
			wait := s.waitAfter(n)
			if addr == allAddresses || wait == 0 {
				continue
			}
			until := now.Add(wait)
			if _, err := db.Exec(ctx, tx, tx.Builder().Update("login_failures").Set("blocked_until", until).
				Where("username = ? AND ip = ?", username, addr)); err != nil {
				return apperr.Wrap(err, "block address")
			}
			if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("locked_until", until).
				Where("username = ? AND deleted_at IS NULL AND (locked_until IS NULL OR locked_until < ?)", username, until)); err != nil {
				return apperr.Wrap(err, "mark user")
			}
		}
		return nil
	})
}

// clearFailures forgets the counts of username from ip and from all addresses.
func clearFailures(ctx context.Context, tx *db.Tx, username, ip string) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Delete("login_failures").Where("username = ? AND ip IN (?, ?)", username, ip, allAddresses))
	return apperr.Wrap(err, "clear login failures")
}

// ClearThrottle forgets every wrong password counted for the user, from
// every address, and the user's lock mark, in the caller's transaction: an
// administrator's "unlock".
func ClearThrottle(ctx context.Context, tx *db.Tx, userID int64, username string) error {
	if _, err := db.Exec(ctx, tx, tx.Builder().Delete("login_failures").Where("username = ?", username)); err != nil {
		return apperr.Wrap(err, "clear login failures")
	}
	_, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("locked_until", nil).Where("id = ?", userID))
	return apperr.Wrap(err, "unlock")
}

// sweepFailures drops forgotten counts now and then, which bounds the
// table (the per-address rate limit bounds how fast it grows).
func (s *Service) sweepFailures(ctx context.Context, now time.Time) {
	if s.failureSweep.due(now) {
		db.Exec(ctx, s.db, s.db.Builder().Delete("login_failures").Where("updated_at < ?", now.Add(-forgetFailures))) //nolint:errcheck
	}
}

// every says yes at most once per period: for sweeps of expired rows.
type every struct {
	mu     sync.Mutex
	period time.Duration
	last   time.Time
}

func (e *every) due(now time.Time) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if now.Sub(e.last) < e.period {
		return false
	}
	e.last = now
	return true
}

func throttledErr(wait time.Duration) error {
	return apperr.New(apperr.TooMany, "auth.throttled").With("seconds", int(math.Ceil(wait.Seconds())))
}
