package notify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// DueFunc lists the open cases whose reminder or deadline fell in (since, until].
type DueFunc func(ctx context.Context, since, until time.Time) ([]consultation.Due, error)

// Timeouts sends the timeout reminders: at a case's reminder time and at
// its deadline, its expert and the allocators of its center hear of it,
// once. Each (case, kind, due time) is a key written with its
// notifications, in one transaction per case: a crash or a failure leaves
// a case either sent with its key or not at all, and the next tick (or the
// next server, looking back) sends what is left. Several processes may
// tick at once: the key's primary key lets only one of them send (the
// other's insert waits for the first transaction and then finds the key).
type Timeouts struct {
	s     *Service
	due   DueFunc
	since time.Time
	// Lookback is how far back the first run looks for reminders missed
	// while no server ran.
	Lookback time.Duration
}

// Timeouts returns the timeout scheduler over due.
func (s *Service) Timeouts(due DueFunc) *Timeouts {
	return &Timeouts{s: s, due: due, Lookback: 24 * time.Hour}
}

// Run ticks every interval until ctx ends.
func (t *Timeouts) Run(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if _, err := t.Tick(ctx); err != nil && ctx.Err() == nil {
			t.s.hub.Log.Warn("timeout reminders", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Tick sends the reminders that are due now and returns how many
// notifications it wrote. A case that fails does not hold back the others;
// the next tick tries it again.
func (t *Timeouts) Tick(ctx context.Context) (int, error) {
	now := t.s.now()
	// From the last tick that sent everything, at most Lookback back (a
	// case that keeps failing does not widen the window for ever).
	since := t.since
	if since.Before(now.Add(-t.Lookback)) {
		since = now.Add(-t.Lookback)
	}
	cases, err := t.due(ctx, since, now)
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, c := range cases {
		n, err := t.send(ctx, c, since, now)
		if err != nil {
			errs = append(errs, fmt.Errorf("case %d: %w", c.ID, err))
			if ctx.Err() != nil {
				break
			}
			continue
		}
		sent += n
	}
	if len(errs) == 0 {
		t.since = now
	}
	return sent, errors.Join(errs...)
}

// send writes, in one transaction, the keys and the notifications of what
// fell due for case c in (since, now], and returns how many it wrote.
func (t *Timeouts) send(ctx context.Context, c consultation.Due, since, now time.Time) (int, error) {
	var notes []Note
	err := t.s.db.InTx(ctx, func(tx *db.Tx) error {
		notes = nil
		if c.Status == consultation.StatusCompleted {
			n, err := t.released(ctx, tx, c, since, now)
			if err != nil {
				return err
			}
			notes = n
		} else {
			for _, k := range []struct {
				kind string
				at   *time.Time
			}{{"remind", c.RemindAt}, {"due", c.TimeoutAt}} {
				if k.at == nil || !k.at.After(since) || k.at.After(now) {
					continue
				}
				first, err := t.key(ctx, tx, c.ID, k.kind, *k.at, now)
				if err != nil {
					return err
				}
				if !first {
					continue // sent before
				}
				n, err := t.reminders(ctx, c, k.kind)
				if err != nil {
					return err
				}
				notes = append(notes, n...)
			}
		}
		hint := make([]int64, 0, len(notes))
		for _, n := range notes {
			hint = append(hint, n.UserID)
		}
		return t.s.Raise(ctx, tx, notes, hint, TopicCases)
	})
	if err != nil {
		return 0, err
	}
	return len(notes), nil
}

// key writes the idempotency key of (case, kind, due time) and reports
// whether it is new: false when it was sent before.
func (t *Timeouts) key(ctx context.Context, tx *db.Tx, id int64, kind string, due, now time.Time) (bool, error) {
	res, err := db.Exec(ctx, tx, tx.Builder().Insert("timeout_notices").Columns("consult_id", "kind", "due_at", "sent_at").
		Values(id, kind, due.UTC(), now).Suffix("ON CONFLICT DO NOTHING"))
	if err != nil {
		return false, apperr.Wrap(err, "timeout key")
	}
	n, err := res.RowsAffected()
	return n > 0, apperr.Wrap(err, "timeout key")
}

// reminders are the notifications of a case's reminder or deadline.
func (t *Timeouts) reminders(ctx context.Context, c consultation.Due, kind string) ([]Note, error) {
	users, err := t.recipients(ctx, c)
	if err != nil {
		return nil, err
	}
	id := c.ID
	level := Important
	if kind == "due" {
		level = VeryImportant
	}
	at := ""
	if c.TimeoutAt != nil {
		at = t.s.clock.Local(*c.TimeoutAt).Format("2006-01-02 15:04")
	}
	out := make([]Note, 0, len(users))
	for _, u := range users {
		w := allocators
		if c.ExpertID != nil && u == *c.ExpertID {
			w = expert
		}
		out = append(out, Note{UserID: u, Kind: KindTimeout, Level: level, Event: "timeout." + kind, CaseID: &id,
			Link: caseLink(w, id), Key: "notify.timeout." + kind,
			Params: map[string]any{"no": c.ConsultNo, "patient": c.PatientName, "urgent": c.Expedite == 1, "at": at}})
	}
	return out, nil
}

// recipients of a case's timeout: its expert and its center's allocators.
func (t *Timeouts) recipients(ctx context.Context, c consultation.Due) ([]int64, error) {
	out := one(c.ExpertID)
	if c.CenterID != nil {
		a, err := t.s.deps.Audience(ctx, Audience{Roles: []string{access.Allocator}, CenterIDs: []int64{*c.CenterID}})
		if err != nil {
			return nil, err
		}
		out = append(out, a...)
	}
	return out, nil
}

// Due is the function the scheduler asks for due cases.
func (t *Timeouts) Due() DueFunc { return t.due }

// released tells the site that a report whose hesitation period ended
// is out, once.
func (t *Timeouts) released(ctx context.Context, tx *db.Tx, c consultation.Due, since, now time.Time) ([]Note, error) {
	if c.ReleaseAt == nil || !c.ReleaseAt.After(since) || c.ReleaseAt.After(now) {
		return nil, nil
	}
	if first, err := t.key(ctx, tx, c.ID, "release", *c.ReleaseAt, now); err != nil || !first {
		return nil, err
	}
	users, err := t.s.deps.Audience(ctx, Audience{Roles: []string{access.Site, access.Clinical}, HospitalIDs: []int64{c.HospitalID}})
	if err != nil {
		return nil, err
	}
	id := c.ID
	out := make([]Note, 0, len(users))
	for _, u := range users {
		out = append(out, Note{UserID: u, Kind: KindCase, Event: "case.report_published", CaseID: &id, Link: caseLink(site, id),
			Key: "notify.case.report_published", Params: map[string]any{"no": c.ConsultNo, "patient": c.PatientName, "urgent": c.Expedite == 1}})
	}
	return out, nil
}
