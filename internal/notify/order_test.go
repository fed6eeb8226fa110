package notify

import (
	"context"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
	"telepath/internal/platform/i18n"
)

// Announcements may come late, out of order or not at all (on SQLite each
// is posted after its commit by its own goroutine; a lost LISTEN
// connection misses some): the hub still delivers every committed
// notification once, in commit order, and a resync ends with a hello.
func TestHubDeliversInCommitOrder(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		user, err := db.InsertID(ctx, d, d.Builder().Insert("users").Columns("username", "password_hash", "created_at", "updated_at").
			Values("reader", "x", now, now))
		if err != nil {
			t.Fatal(err)
		}
		s := New(d, Deps{})
		if err := s.hub.start(ctx); err != nil {
			t.Fatal(err)
		}
		c := &client{user: user, lang: i18n.EN, ch: make(chan frame, clientBuffer), gone: make(chan struct{})}
		s.hub.add(c)
		write := func(event string) string {
			batch := newBatch()
			if err := d.InTx(ctx, func(tx *db.Tx) error {
				return s.insert(ctx, tx, batch, []Note{{UserID: user, Kind: KindNotice, Event: event, Key: "notify.notice"}})
			}); err != nil {
				t.Fatal(err)
			}
			return batch
		}
		received := func() []frame {
			var out []frame
			for len(c.ch) > 0 {
				out = append(out, <-c.ch)
			}
			return out
		}
		a, b := write("a"), write("b")
		s.hub.deliver(ctx, announcement{Batch: b}) // b's news first
		s.hub.deliver(ctx, announcement{Batch: a})
		got := received()
		if len(got) != 2 || got[0].id >= got[1].id {
			t.Fatalf("delivered %+v, want a then b", got)
		}

		write("missed") // its announcement is lost
		s.hub.deliver(ctx, announcement{Resync: true})
		got = received()
		if len(got) != 2 || got[0].event != "notification" || got[0].id <= 0 || got[1].event != "hello" || string(got[1].data) != `{"unread":3}` {
			t.Fatalf("resync delivered %+v", got)
		}
		s.hub.deliver(ctx, announcement{Resync: true})
		if got := received(); len(got) != 1 || got[0].event != "hello" {
			t.Fatalf("a second resync delivered %+v", got)
		}
	})
}

// A full delivery queue does not block the writers: the announcements
// that did not fit are dropped, and the hub then delivers what they stood
// for and tells every stream to fetch its lists again.
func TestFullQueueResynchronises(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		now := time.Now().UTC()
		user, err := db.InsertID(ctx, d, d.Builder().Insert("users").Columns("username", "password_hash", "created_at", "updated_at").
			Values("reader", "x", now, now))
		if err != nil {
			t.Fatal(err)
		}
		s := New(d, Deps{})
		// Before its start position is known, the hub delivers nothing
		// old: it learns the position instead.
		if err := d.InTx(ctx, func(tx *db.Tx) error {
			return s.insert(ctx, tx, newBatch(), []Note{{UserID: user, Kind: KindNotice, Event: "old", Key: "notify.notice"}})
		}); err != nil {
			t.Fatal(err)
		}
		c := &client{user: user, lang: i18n.EN, ch: make(chan frame, clientBuffer), gone: make(chan struct{})}
		s.hub.add(c)
		s.hub.deliver(ctx, announcement{Batch: "x"})
		if len(c.ch) != 0 || s.hub.seen <= 0 {
			t.Fatalf("before the start: %d frames, position %d", len(c.ch), s.hub.seen)
		}
		for range cap(s.hub.in) + 1 {
			s.hub.post(announcement{Users: []int64{user + 1}, Topics: []string{TopicCases}})
		}
		if !s.hub.behind.Load() {
			t.Fatal("the overflow went unnoticed")
		}
		if err := d.InTx(ctx, func(tx *db.Tx) error {
			return s.insert(ctx, tx, newBatch(), []Note{{UserID: user, Kind: KindNotice, Event: "dropped", Key: "notify.notice"}})
		}); err != nil {
			t.Fatal(err)
		}
		go s.hub.Run(ctx)
		var got []string
		for len(got) < 2 {
			select {
			case f := <-c.ch:
				got = append(got, f.event)
			case <-time.After(5 * time.Second):
				t.Fatalf("got %v", got)
			}
		}
		if got[0] != "notification" || got[1] != "hello" {
			t.Fatalf("got %v", got)
		}
	})
}
