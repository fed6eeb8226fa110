package audit

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// twoProcesses opens the same fresh database twice, as two server
// processes would.
func twoProcesses(t *testing.T, dialect db.Dialect) (*db.DB, *db.DB) {
	t.Helper()
	if dialect == db.Postgres {
		u := dbtest.URL(t)
		return dbtest.OpenPostgres(t, u), dbtest.OpenPostgres(t, u)
	}
	dir := t.TempDir()
	open := func() *db.DB {
		d, err := db.Open(context.Background(), "", dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	a := open()
	return a, open()
}

func asUser(id int64) context.Context {
	ctx := access.WithPrincipal(context.Background(), &access.Principal{UserID: id, Username: fmt.Sprint("u", id), Roles: []string{access.Site}})
	return access.WithMeta(ctx, access.Meta{IP: "10.0.0.9", UserAgent: "test-agent"})
}

// sealed writes n records of changes and n reads, seals them and checks the chain.
func sealed(t *testing.T, d *db.DB, n int) {
	t.Helper()
	ctx := asUser(7)
	l := &Log{DB: d}
	for i := range n {
		if err := Write(ctx, d, d.Dialect, Entry{Action: "user.update", ObjectType: "user", ObjectID: i, Before: map[string]any{"name": "a"}, After: map[string]any{"name": "b"}}); err != nil {
			t.Fatal(err)
		}
		l.RecordRead(ctx, access.ReadEvent{Action: "read.case", Object: "consultation", ObjectID: int64(i + 1), CaseID: int64(i + 1)})
	}
	if _, err := Seal(ctx, d); err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(ctx, d)
	if err != nil || !rep.OK || rep.Checked != int64(2*n) || rep.Pending != 0 {
		t.Fatalf("fresh chain: %+v %v", rep, err)
	}
}

func idOfSeq(t *testing.T, d *db.DB, seq int) int64 {
	var id int64
	if err := d.Get(&id, d.Rebind("SELECT id FROM audit_logs WHERE seq = ?"), seq); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestVerifyFindsTheFirstBrokenRecord: a record changed, removed or
// re-linked in the database, by any means, is named by Verify.
func TestVerifyFindsTheFirstBrokenRecord(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, reason string
		tamper       func(d *db.DB, id int64) string
		broken       int // the seq Verify names (0: the tampered one)
	}{
		{"Modified", "modified", func(d *db.DB, id int64) string {
			return fmt.Sprintf("UPDATE audit_logs SET message = 'nothing happened' WHERE id = %d", id)
		}, 0},
		{"ModifiedOutcome", "modified", func(d *db.DB, id int64) string {
			return fmt.Sprintf("UPDATE audit_logs SET outcome = 'success', user_id = 1 WHERE id = %d", id)
		}, 0},
		{"Deleted", "missing", func(d *db.DB, id int64) string {
			return fmt.Sprintf("DELETE FROM audit_logs WHERE id = %d", id)
		}, 6},
		{"Relinked", "relinked", func(d *db.DB, id int64) string {
			return fmt.Sprintf("UPDATE audit_logs SET prev_hash = 'x' WHERE id = %d", id)
		}, 0},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		fresh := func() {
			d.MustExec("DELETE FROM audit_logs")
			d.MustExec("UPDATE audit_chain SET seq = 0, hash = ''")
			sealed(t, d, 5)
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				fresh()
				id := idOfSeq(t, d, 5)
				d.MustExec(c.tamper(d, id))
				rep, err := Verify(context.Background(), d)
				if err != nil {
					t.Fatal(err)
				}
				want := int64(5)
				if c.broken != 0 {
					want = int64(c.broken)
				}
				if rep.OK || rep.Broken == nil || rep.Broken.Seq != want || rep.Broken.Reason != c.reason {
					t.Fatalf("got %+v %+v", rep, rep.Broken)
				}
				if c.broken == 0 && rep.Broken.ID != id {
					t.Fatalf("names record %d, want %d", rep.Broken.ID, id)
				}
			})
		}
		t.Run("LastRecordsDeleted", func(t *testing.T) {
			fresh()
			d.MustExec(d.Rebind("DELETE FROM audit_logs WHERE seq >= ?"), 9)
			rep, _ := Verify(context.Background(), d)
			if rep.OK || rep.Broken == nil || rep.Broken.Seq != 9 || rep.Broken.ID != 0 || rep.Broken.Reason != "missing" {
				t.Fatalf("got %+v %+v", rep, rep.Broken)
			}
		})
		t.Run("LastRecordRehashed", func(t *testing.T) {
			// Changing the last record and recomputing its own hash still
			// disagrees with the chain head.
			fresh()
			id := idOfSeq(t, d, 10)
			d.MustExec(d.Rebind("UPDATE audit_logs SET message = 'forged' WHERE id = ?"), id)
			var r chained
			if err := d.Get(&r, d.Rebind("SELECT "+chainedColumns+" FROM audit_logs WHERE id = ?"), id); err != nil {
				t.Fatal(err)
			}
			d.MustExec(d.Rebind("UPDATE audit_logs SET hash = ? WHERE id = ?"), digest(*r.PrevHash, 10, &r), id)
			rep, _ := Verify(context.Background(), d)
			if rep.OK || rep.Broken == nil || rep.Broken.ID != id || rep.Broken.Reason != "modified" {
				t.Fatalf("got %+v %+v", rep, rep.Broken)
			}
		})
	})
}

// TestOneChainAcrossProcesses: two processes on one database, each with its
// writer, writing changes and reads at once, extend a single chain.
func TestOneChainAcrossProcesses(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, fresh *db.DB) {
		const writers, n = 3, 60
		var wg sync.WaitGroup
		var logs []*Log
		a, b := twoProcesses(t, fresh.Dialect)
		for _, d := range []*db.DB{a, b} {
			l := &Log{DB: d}
			l.Start()
			logs = append(logs, l)
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ctx := asUser(int64(w + 1))
					for i := range n {
						if err := Write(ctx, d, d.Dialect, Entry{Action: "user.update", ObjectType: "user", ObjectID: i}); err != nil {
							t.Error(err)
							return
						}
						l.RecordRead(ctx, access.ReadEvent{Action: "read.case", Object: "consultation", ObjectID: int64(i), CaseID: int64(i)})
					}
				}()
			}
		}
		wg.Wait()
		for _, l := range logs {
			if err := l.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Seal(context.Background(), b); err != nil {
			t.Fatal(err)
		}
		rep, err := Verify(context.Background(), a)
		if err != nil || !rep.OK || rep.Checked != 2*writers*n*2 || rep.Pending != 0 {
			t.Fatalf("%+v %v", rep, err)
		}
	})
}

// TestCloseWritesEveryQueuedRead: what is queued at shutdown is written and
// sealed; what comes after is written directly; a full queue makes the
// request write its own row. Nothing is dropped.
func TestCloseWritesEveryQueuedRead(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		l := &Log{DB: d}
		l.start(4) // a tiny queue: most reads find it full
		ctx := asUser(3)
		for i := range 200 {
			l.RecordRead(ctx, access.ReadEvent{Action: "read.case", Object: "consultation", ObjectID: int64(i), CaseID: int64(i)})
		}
		if err := l.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		l.RecordRead(ctx, access.ReadEvent{Action: "read.case", Object: "consultation", ObjectID: 999, CaseID: 999})
		var n int
		d.Get(&n, "SELECT COUNT(*) FROM audit_logs WHERE action = 'read.case' AND user_agent = 'test-agent' AND ip = '10.0.0.9'")
		if n != 201 {
			t.Fatalf("%d of 201 reads written", n)
		}
		if _, err := Seal(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		if rep, err := Verify(context.Background(), d); err != nil || !rep.OK || rep.Checked != 201 {
			t.Fatalf("%+v %v", rep, err)
		}
	})
}

// BenchmarkRecordRead is what a read pays on the request path: building its
// record and handing it to the writer (which is given time to keep up, as
// it has between requests).
func BenchmarkRecordRead(b *testing.B) {
	d := dbtest.Open(b, db.SQLite)
	l := &Log{DB: d}
	l.Start()
	defer l.Close(context.Background())
	ctx := asUser(3)
	ev := access.ReadEvent{Action: "read.case", Object: "consultation", ObjectID: 42, CaseID: 42}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%(queueSize/2) == 0 {
			b.StopTimer()
			l.Flush(context.Background())
			b.StartTimer()
		}
		l.RecordRead(ctx, ev)
	}
}

// BenchmarkWriter is the background writer's throughput: reads written and
// sealed into the chain per second.
func BenchmarkWriter(b *testing.B) {
	for _, dialect := range dbtest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			d := dbtest.Open(b, dialect)
			l := &Log{DB: d}
			l.Start()
			defer l.Close(context.Background())
			ctx := asUser(3)
			ev := access.ReadEvent{Action: "read.case", Object: "consultation", ObjectID: 42, CaseID: 42}
			b.ResetTimer()
			t0 := time.Now()
			for i := 0; i < b.N; i++ {
				if i%(queueSize/2) == 0 { // as fast as the writer goes, never past the queue
					if err := l.Flush(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
				l.RecordRead(ctx, ev)
			}
			if err := l.Flush(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "rows/s")
		})
	}
}
