package app_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/notify"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// raise writes one notification of event for user in its own transaction.
func (e *env) raise(user int64, event string) {
	e.t.Helper()
	if err := e.app.DB.InTx(context.Background(), func(tx *db.Tx) error {
		return e.app.Notify.Raise(context.Background(), tx, []notify.Note{testNote(user, event)}, nil)
	}); err != nil {
		e.t.Fatal(err)
	}
}

func testNote(user int64, event string) notify.Note {
	return notify.Note{UserID: user, Kind: notify.KindNotice, Event: event, Link: "/message/list", Key: "notify.notice",
		Params: map[string]any{"content": event}}
}

// until collects the notification events of c up to and including the
// one whose event is last, and returns their events in order.
func (c *sseClient) until(t *testing.T, last string) []string {
	t.Helper()
	var got []string
	for {
		ev := c.wait(t, "notification", 5*time.Second)
		name := eventName(ev)
		got = append(got, name)
		if name == last {
			return got
		}
	}
}

func eventName(ev sseEvent) string {
	_, rest, _ := strings.Cut(ev.Data, `"event":"`)
	name, _, _ := strings.Cut(rest, `"`)
	return name
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// A transaction that took a lower notification id but commits after a
// higher one was delivered is still replayed to a stream that reconnects
// with the higher one as Last-Event-ID, exactly once: streams go by the
// position given at commit, not by id. On SQLite writes do not
// interleave; the same reconnects are checked in commit order.
func TestReplayFollowsCommitOrder(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		token := e.login("expert")
		open := e.stream(t, e.srv.URL, token, "") // open throughout
		open.wait(t, "hello", time.Second)
		first := e.stream(t, e.srv.URL, token, "")
		first.wait(t, "hello", time.Second)

		ctx := context.Background()
		var late chan error
		if e.app.DB.Dialect == db.Postgres {
			// "late" takes its id first and commits last.
			inserted, release := make(chan struct{}), make(chan struct{})
			late = make(chan error, 1)
			go func() {
				late <- e.app.DB.InTx(ctx, func(tx *db.Tx) error {
					if err := e.app.Notify.Raise(ctx, tx, []notify.Note{testNote(f.expert, "test.late")}, nil); err != nil {
						return err
					}
					close(inserted)
					<-release
					return nil
				})
			}()
			<-inserted
			e.raise(f.expert, "test.early")
			ev := first.wait(t, "notification", 2*time.Second)
			if eventName(ev) != "test.early" {
				t.Fatalf("first stream got %+v", ev)
			}
			first.cancel()
			close(release)
			if err := <-late; err != nil {
				t.Fatal(err)
			}
			var ids struct {
				Late  int64 `db:"late"`
				Early int64 `db:"early"`
			}
			if err := e.app.DB.Get(&ids, `SELECT (SELECT id FROM notifications WHERE event = 'test.late') AS late, (SELECT id FROM notifications WHERE event = 'test.early') AS early`); err != nil {
				t.Fatal(err)
			}
			if ids.Late >= ids.Early {
				t.Fatalf("not interleaved: late id %d, early id %d", ids.Late, ids.Early)
			}
			// The reconnect says it saw "early": it gets "late", once.
			again := e.stream(t, e.srv.URL, token, ev.ID)
			again.wait(t, "hello", time.Second)
			e.raise(f.expert, "test.marker")
			if got := again.until(t, "test.marker"); count(got, "test.late") != 1 || count(got, "test.early") != 0 || len(got) != 2 {
				t.Fatalf("after reconnecting at %s: %v", ev.ID, got)
			}
		} else {
			e.raise(f.expert, "test.early")
			ev := first.wait(t, "notification", 2*time.Second)
			first.cancel()
			e.raise(f.expert, "test.late")
			again := e.stream(t, e.srv.URL, token, ev.ID)
			again.wait(t, "hello", time.Second)
			e.raise(f.expert, "test.marker")
			if got := again.until(t, "test.marker"); strings.Join(got, ",") != "test.late,test.marker" {
				t.Fatalf("after reconnecting at %s: %v", ev.ID, got)
			}
		}

		// The stream open throughout got each once, with rising event ids;
		// a reconnect at its last id replays nothing.
		var seen []string
		var last sseEvent
		for len(seen) < 3 {
			ev := open.wait(t, "notification", 5*time.Second)
			if last.ID != "" && !idBelow(last.ID, ev.ID) {
				t.Fatalf("event id %s after %s", ev.ID, last.ID)
			}
			seen, last = append(seen, eventName(ev)), ev
		}
		if count(seen, "test.early") != 1 || count(seen, "test.late") != 1 || seen[2] != "test.marker" {
			t.Fatalf("open stream: %v", seen)
		}
		open.cancel()
		after := e.stream(t, e.srv.URL, token, last.ID)
		after.wait(t, "hello", time.Second)
		e.raise(f.expert, "test.marker2")
		if got := after.until(t, "test.marker2"); len(got) != 1 {
			t.Fatalf("replayed again: %v", got)
		}
	})
}

func idBelow(a, b string) bool {
	return len(a) < len(b) || len(a) == len(b) && a < b
}

// When the listener's connection to PostgreSQL drops, what is committed
// before it listens again still reaches the open streams: it resumes from
// the last position it delivered, and every stream gets a new hello (the
// browser fetches its lists again).
func TestListenerReconnectResyncs(t *testing.T) {
	if len(dbtest.Dialects()) < 2 {
		t.Skip("needs TELEPATH_TEST_POSTGRES_URL")
	}
	t.Parallel()
	e := newEnv(t, db.Postgres, nil)
	select {
	case <-e.app.Notify.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("listener not ready")
	}
	f := e.fixture()
	s := e.stream(t, e.srv.URL, e.login("expert"), "")
	s.wait(t, "hello", time.Second)
	var pid int64
	const listener = "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()"
	if err := e.app.DB.Get(&pid, listener, notify.ListenerName); err != nil {
		t.Fatalf("listener connection: %v", err)
	}
	var killed bool
	if err := e.app.DB.Get(&killed, "SELECT pg_terminate_backend($1)", pid); err != nil || !killed {
		t.Fatalf("terminate %d: %v %v", pid, killed, err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var n int
		if err := e.app.DB.Get(&n, "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()", notify.ListenerName); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the listener's connection is still there")
		}
	}
	e.raise(f.expert, "test.missed")
	var committed time.Time
	if err := e.app.DB.Get(&committed, "SELECT clock_timestamp()"); err != nil {
		t.Fatal(err)
	}
	ev := s.wait(t, "notification", 10*time.Second)
	if eventName(ev) != "test.missed" {
		t.Fatalf("got %+v", ev)
	}
	// Its NOTIFY was sent while nobody listened: it came by the resync,
	// from a listener connected after the commit. (Its row in
	// pg_stat_activity was once missing just as the event arrived, on a
	// loaded machine: it is read again for a few seconds.)
	var started time.Time
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		err := e.app.DB.Get(&started, "SELECT backend_start FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()", notify.ListenerName)
		if err == nil {
			break
		}
		if !errors.Is(err, sql.ErrNoRows) || time.Now().After(deadline) {
			t.Fatalf("the listener's connection after the resync: %v", err)
		}
	}
	if !started.After(committed) {
		t.Fatalf("the listener was back (%s) before the commit (%s): the test proves nothing", started, committed)
	}
	if h := s.wait(t, "hello", time.Second); !strings.Contains(h.Data, `"unread":1`) {
		t.Fatalf("resync hello %+v", h)
	}
	// And it listens again.
	e.raise(f.expert, "test.after")
	if ev := s.wait(t, "notification", 2*time.Second); eventName(ev) != "test.after" {
		t.Fatalf("got %+v", ev)
	}
}

// Each case's reminders are sent in a transaction of their own, with
// their keys: a case that fails half-way (here its notifications cannot be
// written) keeps neither key nor notification, the others are sent, and
// the next scheduler (a restart) sends it once and nothing twice.
func TestTimeoutTickOneCaseAtATime(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		ids := []string{
			e.submittedCase(f, "BL2026-00351", f.expert),
			e.submittedCase(f, "BL2026-00352", f.expert),
			e.submittedCase(f, "BL2026-00353", f.expert),
		}
		past := time.Now().UTC().Add(-time.Minute)
		for _, id := range ids {
			if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE consultations SET remind_at = ?, timeout_at = ? WHERE id = ?"), past.Add(-time.Hour), past, id); err != nil {
				t.Fatal(err)
			}
		}
		broken := ids[1]
		due := e.app.Timeouts.Due()
		failing := func(ctx context.Context, since, until time.Time) ([]consultation.Due, error) {
			cases, err := due(ctx, since, until)
			for i := range cases {
				if itoa(cases[i].ID) == broken {
					nobody := int64(1) << 40 // no such user: the notifications' insert fails
					cases[i].ExpertID = &nobody
				}
			}
			return cases, err
		}
		ctx := context.Background()
		crashing := e.app.Notify.Timeouts(failing)
		n, err := crashing.Tick(ctx)
		if err == nil || n != 8 {
			t.Fatalf("tick with a failing case: %d %v, want 8 and an error", n, err)
		}
		var keys, notes int
		if err := e.app.DB.Get(&keys, e.app.DB.Rebind("SELECT COUNT(*) FROM timeout_notices WHERE consult_id = ?"), broken); err != nil {
			t.Fatal(err)
		}
		if err := e.app.DB.Get(&notes, e.app.DB.Rebind("SELECT COUNT(*) FROM notifications WHERE consult_id = ? AND kind = 'timeout'"), broken); err != nil {
			t.Fatal(err)
		}
		if keys != 0 || notes != 0 {
			t.Fatalf("the failed case kept %d keys and %d notifications", keys, notes)
		}
		// It does not move on past the failure: the next tick tries again.
		if n, err := crashing.Tick(ctx); n != 0 || err == nil {
			t.Fatalf("second failing tick: %d %v", n, err)
		}
		restarted := e.app.Notify.Timeouts(due)
		if n, err := restarted.Tick(ctx); n != 4 || err != nil {
			t.Fatalf("after restart: %d %v, want 4", n, err)
		}
		if n, err := restarted.Tick(ctx); n != 0 || err != nil {
			t.Fatalf("again: %d %v", n, err)
		}
		sentOnce(t, e, 12)
	})
}

// sentOnce checks that every timeout notification went once to its user
// for its case and kind, want in all.
func sentOnce(t *testing.T, e *env, want int) {
	t.Helper()
	var rows []struct {
		Case  int64  `db:"consult_id"`
		Event string `db:"event"`
		User  int64  `db:"user_id"`
		N     int    `db:"n"`
	}
	if err := e.app.DB.Select(&rows, `SELECT consult_id, event, user_id, COUNT(*) AS n FROM notifications WHERE kind = 'timeout' GROUP BY consult_id, event, user_id`); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, r := range rows {
		if r.N != 1 {
			t.Errorf("case %d %s to user %d sent %d times", r.Case, r.Event, r.User, r.N)
		}
		total += r.N
	}
	if total != want {
		t.Fatalf("%d timeout notifications, want %d", total, want)
	}
}
