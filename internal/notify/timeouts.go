package notify

import (
	"context"
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
// once. Each (case, kind, due time) is a key written with the
// notifications, so a restart or a second process never sends it twice;
// on PostgreSQL one process at a time does the work (an advisory lock).
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

// timeoutLock is the advisory lock key of the timeout scheduler.
const timeoutLock = 0x7e1e9a70

// Tick sends the reminders that are due now and returns how many
// notifications it wrote.
func (t *Timeouts) Tick(ctx context.Context) (int, error) {
	now := t.s.now()
	since := t.since
	if since.IsZero() {
		since = now.Add(-t.Lookback)
	}
	cases, err := t.due(ctx, since, now)
	if err != nil {
		return 0, err
	}
	sent := 0
	err = t.s.db.InTx(ctx, func(tx *db.Tx) error {
		if tx.Dialect == db.Postgres {
			var got bool
			if err := tx.GetContext(ctx, &got, "SELECT pg_try_advisory_xact_lock($1)", timeoutLock); err != nil {
				return apperr.Wrap(err, "timeout lock")
			}
			if !got {
				return nil // another process is sending them
			}
		}
		var notes []Note
		var hint []int64
		for _, c := range cases {
			if c.Status == consultation.StatusCompleted {
				n, err := t.released(ctx, tx, c, since, now)
				if err != nil {
					return err
				}
				notes = append(notes, n...)
				for _, x := range n {
					hint = append(hint, x.UserID)
				}
				continue
			}
			for _, k := range []struct {
				kind string
				at   *time.Time
			}{{"remind", c.RemindAt}, {"due", c.TimeoutAt}} {
				if k.at == nil || !k.at.After(since) || k.at.After(now) {
					continue
				}
				res, err := db.Exec(ctx, tx, tx.Builder().Insert("timeout_notices").Columns("consult_id", "kind", "due_at", "sent_at").
					Values(c.ID, k.kind, k.at.UTC(), now).Suffix("ON CONFLICT DO NOTHING"))
				if err != nil {
					return apperr.Wrap(err, "timeout key")
				}
				if n, _ := res.RowsAffected(); n == 0 {
					continue // sent before
				}
				users, err := t.recipients(ctx, c)
				if err != nil {
					return err
				}
				id := c.ID
				level := Important
				if k.kind == "due" {
					level = VeryImportant
				}
				at := ""
				if c.TimeoutAt != nil {
					at = t.s.clock.Local(*c.TimeoutAt).Format("2006-01-02 15:04")
				}
				for _, u := range users {
					w := allocators
					if c.ExpertID != nil && u == *c.ExpertID {
						w = expert
					}
					notes = append(notes, Note{UserID: u, Kind: KindTimeout, Level: level, Event: "timeout." + k.kind, CaseID: &id,
						Link: caseLink(w, id), Key: "notify.timeout." + k.kind,
						Params: map[string]any{"no": c.ConsultNo, "patient": c.PatientName, "at": at, "urgent": c.Expedite == 1}})
				}
				hint = append(hint, users...)
			}
		}
		sent = len(notes)
		return t.s.Raise(ctx, tx, notes, hint, TopicCases)
	})
	if err == nil {
		t.since = now
	}
	return sent, err
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
	res, err := db.Exec(ctx, tx, tx.Builder().Insert("timeout_notices").Columns("consult_id", "kind", "due_at", "sent_at").
		Values(c.ID, "release", c.ReleaseAt.UTC(), now).Suffix("ON CONFLICT DO NOTHING"))
	if err != nil {
		return nil, apperr.Wrap(err, "release key")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, nil
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
