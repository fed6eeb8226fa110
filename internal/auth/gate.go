package auth

import (
	"context"
	"sync"
	"time"

	"telepath/internal/platform/apperr"
)

// hashGate bounds the password checks running at once. An argon2id check
// holds 19 MiB for tens of milliseconds: unbounded, a burst of concurrent
// guesses drives the process to gigabytes. One check per account at a time
// (which also makes each check see the failures counted before it) and a
// few in all; a caller waits briefly for a slot and is then told to come
// back later (429).
type hashGate struct {
	all  chan struct{}
	wait time.Duration
	mu   sync.Mutex
	busy map[string]*accountSlot
}

type accountSlot struct {
	ch   chan struct{}
	refs int
}

func newHashGate(total int, wait time.Duration) *hashGate {
	return &hashGate{all: make(chan struct{}, total), wait: wait, busy: map[string]*accountSlot{}}
}

var errBusy = apperr.New(apperr.TooMany, "auth.busy")

// enter waits for the account's slot and one of the overall slots; the
// returned func gives them back.
func (g *hashGate) enter(ctx context.Context, account string) (func(), error) {
	g.mu.Lock()
	slot := g.busy[account]
	if slot == nil {
		slot = &accountSlot{ch: make(chan struct{}, 1)}
		g.busy[account] = slot
	}
	slot.refs++
	g.mu.Unlock()
	forget := func() {
		g.mu.Lock()
		if slot.refs--; slot.refs == 0 {
			delete(g.busy, account)
		}
		g.mu.Unlock()
	}
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	select {
	case slot.ch <- struct{}{}:
	case <-timer.C:
		forget()
		return nil, errBusy
	case <-ctx.Done():
		forget()
		return nil, errBusy
	}
	select {
	case g.all <- struct{}{}:
	case <-timer.C:
		<-slot.ch
		forget()
		return nil, errBusy
	case <-ctx.Done():
		<-slot.ch
		forget()
		return nil, errBusy
	}
	return func() {
		<-g.all
		<-slot.ch
		forget()
	}, nil
}
