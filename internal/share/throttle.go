package share

import (
	"context"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Wrong codes are counted per share, as the sign-in throttle counts wrong
// passwords (auth/throttle.go), twice: for the client address and for all
// addresses together (ip "*"). After maxFailures from one address that
// address waits 30 s, then twice as long after each further failure, up
// to maxWait. After shareFailures from all addresses the share answers
// only one try a minute, from anywhere: a 6-character code then takes
// years to guess. The owner is never held back: a share's list and cancel
// need no code, and no account is locked. A right code clears the
// address's count; counts quiet for a day are forgotten.
const (
	maxFailures    = 5
	shareFailures  = 20
	firstWait      = 30 * time.Second
	maxWait        = 15 * time.Minute
	shareWait      = time.Minute
	forgetFailures = 24 * time.Hour
	allAddresses   = "*"
)

// waitFor is how long ip must still wait before trying a code of share id.
func (s *Service) waitFor(ctx context.Context, id int64, ip string, now time.Time) (time.Duration, error) {
	var rows []struct {
		BlockedUntil *time.Time `db:"blocked_until"`
		UpdatedAt    time.Time  `db:"updated_at"`
	}
	err := db.Select(ctx, s.db, &rows, s.db.Builder().Select("blocked_until", "updated_at").From("share_failures").
		Where("share_id = ? AND ip IN (?, ?)", id, ip, allAddresses))
	if err != nil {
		return 0, apperr.Wrap(err, "load share failures")
	}
	var wait time.Duration
	for _, r := range rows {
		if r.BlockedUntil != nil && now.Before(*r.BlockedUntil) && now.Sub(r.UpdatedAt) <= forgetFailures {
			wait = max(wait, r.BlockedUntil.Sub(now))
		}
	}
	return wait, nil
}

// countFailure records a wrong code for share id from ip.
func (s *Service) countFailure(ctx context.Context, id int64, ip string, now time.Time) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, addr := range []string{ip, allAddresses} {
			var n int
			q := tx.Rebind(`INSERT INTO share_failures (share_id, ip, failures, updated_at) VALUES (?, ?, 1, ?)
				ON CONFLICT (share_id, ip) DO UPDATE SET updated_at = excluded.updated_at,
					failures = CASE WHEN share_failures.updated_at < ? THEN 1 ELSE share_failures.failures + 1 END
				RETURNING failures`)
			if err := tx.GetContext(ctx, &n, q, id, addr, now, now.Add(-forgetFailures)); err != nil {
				return apperr.Wrap(err, "count share failure")
			}
			var wait time.Duration
			switch {
			case addr == allAddresses && n >= shareFailures:
				wait = shareWait
			case addr != allAddresses && n >= maxFailures:
				wait = min(maxWait, firstWait<<min(n-maxFailures, 10))
			}
			if wait == 0 {
				continue
			}
			if _, err := db.Exec(ctx, tx, tx.Builder().Update("share_failures").Set("blocked_until", now.Add(wait)).
				Where("share_id = ? AND ip = ?", id, addr)); err != nil {
				return apperr.Wrap(err, "block share address")
			}
		}
		return nil
	})
}

// clearFailures forgets the wrong codes of ip for share id.
func clearFailures(ctx context.Context, tx *db.Tx, id int64, ip string) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Delete("share_failures").Where("share_id = ? AND ip = ?", id, ip))
	return apperr.Wrap(err, "clear share failures")
}
