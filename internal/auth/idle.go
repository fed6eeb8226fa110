package auth

import (
	"context"
	"sync"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// A session's last request is kept exactly in memory and written to the
// database at a grain finer than the idle limit (a quarter of it, at most a
// minute), so that other processes see it in time without a write per
// request. The idle check takes the later of the two.
type lastSeen struct {
	mu    sync.Mutex
	at    map[int64]time.Time
	swept time.Time
}

// get returns the later of the remembered last request and stored.
func (l *lastSeen) get(id int64, stored time.Time) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t, ok := l.at[id]; ok && t.After(stored) {
		return t
	}
	return stored
}

func (l *lastSeen) set(id int64, now time.Time, forget time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.at[id] = now
	if now.Sub(l.swept) > forget {
		for k, t := range l.at {
			if now.Sub(t) > forget {
				delete(l.at, k)
			}
		}
		l.swept = now
	}
}

// touch records a request of session id; stored is its last_seen_at.
func (s *Service) touch(ctx context.Context, id int64, stored, now time.Time) error {
	s.seen.set(id, now, s.cfg.IdleTimeout)
	if now.Sub(stored) <= min(time.Minute, s.cfg.IdleTimeout/4) {
		return nil
	}
	_, err := db.Exec(ctx, s.db, s.db.Builder().Update("sessions").Set("last_seen_at", now).Where("id = ?", id))
	return apperr.Wrap(err, "touch session")
}
