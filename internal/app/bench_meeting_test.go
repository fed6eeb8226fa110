package app_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// BenchmarkMeetingViewport measures how long the presenter's view takes
// to reach the followers' live streams: from before the presenter's POST
// …/signal to the frame read by each follower's stream, p50 and p99.
//   - one: 1 meeting, 20 followers, 300 views one after the other;
//   - fifty: 50 meetings of 20 followers each (1,000 streams) at once,
//     each presenter sending 40 views, one every 50 ms (the viewer's pace).
//
// The meetings are written straight into the tables (the followers are
// generated users who need not see the case). Run:
//
//	go test ./internal/app -run '^$' -bench MeetingViewport -benchtime 1x
func BenchmarkMeetingViewport(b *testing.B) {
	for _, d := range dbtest.Dialects() {
		b.Run(string(d)+"/one", func(b *testing.B) { benchMeetings(b, d, 1, 300, 0) })
		b.Run(string(d)+"/fifty", func(b *testing.B) { benchMeetings(b, d, 50, 40, 50*time.Millisecond) })
	}
}

const meetingFollowers = 20

func benchMeetings(b *testing.B, dialect db.Dialect, meetings, views int, pace time.Duration) {
	e := newEnvTB(b, dialect, nil)
	f := e.fixture()
	id, slide := e.meetingCase(f, "BL2026-09901")
	tokens := benchUsers(b, e, meetings*meetingFollowers)
	expert := e.login("expert")
	now := time.Now().UTC()
	ids := make([]int64, meetings)
	for m := range meetings {
		if err := e.app.DB.Get(&ids[m], e.app.DB.Rebind(`INSERT INTO meetings (consult_id, created_by, presenter_id, created_at) VALUES (?, ?, ?, ?) RETURNING id`),
			id, f.expert, f.expert, now); err != nil {
			b.Fatal(err)
		}
		e.app.DB.Exec(e.app.DB.Rebind(`INSERT INTO meeting_members (meeting_id, user_id, invited_at, joined_at) VALUES (?, ?, ?, ?)`), ids[m], f.expert, now, now)
		for i := range meetingFollowers {
			if _, err := e.app.DB.Exec(e.app.DB.Rebind(`INSERT INTO meeting_members (meeting_id, user_id, invited_at, joined_at)
				SELECT ?, id, ?, ? FROM users WHERE username = ?`), ids[m], now, now, benchName(m*meetingFollowers+i)); err != nil {
				b.Fatal(err)
			}
		}
	}

	var mu sync.Mutex
	var delays []time.Duration
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: len(tokens) + 100, DisableCompression: true}}
	var ready, done sync.WaitGroup
	want := views * meetingFollowers * meetings
	for _, tok := range tokens {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			var once sync.Once
			defer once.Do(ready.Done) // a stream that fails counts as ready (and delivers nothing)
			req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/events", nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Accept", "text/event-stream")
			res, err := client.Do(req)
			if err != nil {
				return
			}
			defer res.Body.Close()
			sc := bufio.NewScanner(res.Body)
			hello, event := false, ""
			for sc.Scan() {
				line := sc.Text()
				switch {
				case strings.HasPrefix(line, "event: "):
					event = line[7:]
					if event == "hello" && !hello {
						hello = true
						once.Do(ready.Done)
					}
				case strings.HasPrefix(line, "data: ") && event == "meeting":
					got := time.Now()
					var ev struct {
						Signal struct {
							Sent int64 `json:"sent"`
						} `json:"signal"`
					}
					json.Unmarshal([]byte(line[6:]), &ev)
					mu.Lock()
					delays = append(delays, got.Sub(time.UnixMicro(ev.Signal.Sent)))
					n := len(delays)
					mu.Unlock()
					if n >= want {
						cancel()
					}
				}
			}
		}()
	}
	ready.Wait()
	b.ResetTimer()
	start := time.Now()
	var senders sync.WaitGroup
	for _, mid := range ids {
		senders.Add(1)
		go func() {
			defer senders.Done()
			for v := range views {
				body := map[string]any{"kind": "view", "slide_id": slide, "x": 0.5, "y": 0.5, "zoom": 1 + float64(v)/10, "seq": v + 1, "sent": time.Now().UnixMicro()}
				if r := e.do("POST", "/api/consultation/meeting/"+itoa(mid)+"/signal", expert, body); r.Status != 200 {
					b.Errorf("signal: %d %s", r.Status, r)
					return
				}
				if pace > 0 {
					time.Sleep(pace)
				}
			}
		}()
	}
	senders.Wait()
	select {
	case <-ctx.Done():
	case <-time.After(30 * time.Second):
		cancel()
	}
	done.Wait()
	b.StopTimer()
	elapsed := time.Since(start)
	slices.Sort(delays)
	if len(delays) == 0 {
		b.Fatal("no view delivered")
	}
	p := func(q float64) time.Duration { return delays[min(len(delays)-1, int(q*float64(len(delays))))] }
	b.ReportMetric(float64(p(0.5).Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(p(0.99).Microseconds())/1000, "p99_ms")
	b.ReportMetric(float64(len(delays))/elapsed.Seconds(), "deliveries/s")
	b.ReportMetric(float64(want-len(delays)), "lost")
}

func benchName(i int) string { return "bench" + pad4(i) }

func pad4(i int) string {
	s := itoa(int64(i))
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}
