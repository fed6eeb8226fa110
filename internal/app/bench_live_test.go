package app_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"telepath/internal/notify"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// BenchmarkLiveFanout opens 2,000 live event streams (one per user, each
// a signed-in expert of the demo center) on one server and measures:
//   - notice: notices "to the role expert", each written as 2,000
//     notification rows in one transaction and fanned out to every stream;
//   - single: events with one recipient each, raised back to back.
//
// It reports deliveries per second, the p50/p99 delay from the start of
// the write to the frame read by the client, and the heap the open
// streams hold (server and the benchmark's own 2,000 readers together,
// measured after a GC). Run:
//
//	go test ./internal/app -run '^$' -bench LiveFanout -benchtime 1x
func BenchmarkLiveFanout(b *testing.B) {
	for _, d := range dbtest.Dialects() {
		b.Run(string(d), func(b *testing.B) { benchFanout(b, d) })
	}
}

const fanoutClients = 2000

func benchFanout(b *testing.B, dialect db.Dialect) {
	e := newEnvTB(b, dialect, nil)
	ctx := context.Background()
	tokens := benchUsers(b, e, fanoutClients)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	type arrival struct {
		sent time.Time
		got  time.Time
	}
	var mu sync.Mutex
	var got []arrival
	var wg sync.WaitGroup
	tr := &http.Transport{MaxIdleConnsPerHost: fanoutClients + 10, DisableCompression: true}
	client := &http.Client{Transport: tr}
	cctx, cancel := context.WithCancel(ctx)
	ready := make(chan struct{}, fanoutClients)
	for _, tok := range tokens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(cctx, "GET", e.srv.URL+"/api/events", nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Accept", "text/event-stream")
			res, err := client.Do(req)
			if err != nil {
				ready <- struct{}{}
				return
			}
			defer res.Body.Close()
			sc := bufio.NewScanner(res.Body)
			first := true
			for sc.Scan() {
				line := sc.Text()
				if first && strings.HasPrefix(line, "event: hello") {
					first = false
					ready <- struct{}{}
				}
				i := strings.Index(line, `"title":"`)
				if !strings.HasPrefix(line, "data: ") || i < 0 {
					continue
				}
				rest := line[i+9:]
				n, err := strconv.ParseInt(rest[:strings.IndexByte(rest, '"')], 10, 64)
				if err != nil {
					continue
				}
				now := time.Now()
				mu.Lock()
				got = append(got, arrival{time.Unix(0, n), now})
				mu.Unlock()
			}
		}()
	}
	for range tokens {
		<-ready
	}
	if c := e.app.Notify.Hub().Clients(); c != fanoutClients {
		b.Fatalf("%d streams open", c)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/(1<<20), "MB-heap-2000-streams")
	b.ReportMetric(float64(runtime.NumGoroutine()), "goroutines")

	ids := make([]int64, 0, len(tokens))
	if err := e.app.DB.Select(&ids, "SELECT id FROM users WHERE username LIKE 'bench%' ORDER BY id"); err != nil {
		b.Fatal(err)
	}
	wait := func(n int, d time.Duration) {
		deadline := time.Now().Add(d)
		for time.Now().Before(deadline) {
			mu.Lock()
			k := len(got)
			mu.Unlock()
			if k >= n {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	report := func(name string, events int, start time.Time) {
		mu.Lock()
		arr := got
		got = nil
		mu.Unlock()
		if len(arr) == 0 {
			b.Fatalf("%s: nothing delivered", name)
		}
		last := start
		delays := make([]time.Duration, len(arr))
		for i, a := range arr {
			delays[i] = a.got.Sub(a.sent)
			last = maxTime(last, a.got)
		}
		slices.Sort(delays)
		el := last.Sub(start).Seconds()
		b.ReportMetric(float64(len(arr))/el, name+"-deliveries/s")
		b.ReportMetric(float64(events)/el, name+"-events/s")
		b.ReportMetric(float64(delays[len(delays)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(delays[len(delays)*99/100].Microseconds())/1000, name+"-p99-ms")
		b.ReportMetric(float64(len(arr)), name+"-delivered")
	}

	// Notices to all 2,000 streams.
	const notices = 10
	start := time.Now()
	for range notices {
		raise(b, e, ids, time.Now())
		time.Sleep(20 * time.Millisecond)
	}
	wait(notices*len(ids), 30*time.Second)
	report("notice", notices, start)

	// Single-recipient events, back to back.
	const singles = 2000
	start = time.Now()
	for i := range singles {
		raise(b, e, []int64{ids[i%len(ids)]}, time.Now())
	}
	wait(singles, 30*time.Second)
	report("single", singles, start)

	cancel()
	wg.Wait()
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// raise writes one notification to each of users in one transaction; its
// text is the time it was raised.
func raise(b *testing.B, e *env, users []int64, at time.Time) {
	ctx := context.Background()
	notes := make([]notify.Note, len(users))
	for i, u := range users {
		notes[i] = notify.Note{UserID: u, Kind: notify.KindNotice, Event: "bench", Key: "notify.notice",
			Params: map[string]any{"content": strconv.FormatInt(at.UnixNano(), 10)}}
	}
	if err := e.app.DB.InTx(ctx, func(tx *db.Tx) error { return e.app.Notify.Raise(ctx, tx, notes, nil) }); err != nil {
		b.Fatal(err)
	}
}

// benchUsers adds n signed-in users (experts of the demo center) and
// returns their session tokens.
func benchUsers(b *testing.B, e *env, n int) []string {
	var center, expert int64
	e.app.DB.Get(&center, "SELECT id FROM centers WHERE code = 'EC'")
	e.app.DB.Get(&expert, "SELECT id FROM users WHERE username = 'expert'")
	now := time.Now().UTC()
	tokens := make([]string, n)
	err := e.app.DB.InTx(context.Background(), func(tx *db.Tx) error {
		for i := range n {
			var id int64
			if err := tx.GetContext(context.Background(), &id, tx.Rebind(`INSERT INTO users (username, name, password_hash, status, created_at, updated_at)
				SELECT ?, ?, password_hash, 1, ?, ? FROM users WHERE id = ? RETURNING id`), fmt.Sprintf("bench%04d", i), fmt.Sprintf("Bench %d", i), now, now, expert); err != nil {
				return err
			}
			if _, err := tx.Exec(tx.Rebind("INSERT INTO user_roles (user_id, role) VALUES (?, 'expert')"), id); err != nil {
				return err
			}
			if _, err := tx.Exec(tx.Rebind("INSERT INTO user_centers (user_id, center_id) VALUES (?, ?)"), id, center); err != nil {
				return err
			}
			tokens[i] = fmt.Sprintf("bench-token-%d-%d", i, now.UnixNano())
			h := sha256.Sum256([]byte(tokens[i]))
			if _, err := tx.Exec(tx.Rebind(`INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)`),
				hex.EncodeToString(h[:]), id, now, now, now.Add(time.Hour)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return tokens
}
