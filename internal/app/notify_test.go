package app_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"telepath/internal/app"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// inbox returns what notifications were written since the last call:
// event → the user names it went to, sorted.
type inbox struct {
	e    *env
	last int64
}

func (b *inbox) next() map[string][]string {
	b.e.t.Helper()
	var rows []struct {
		ID       int64  `db:"id"`
		Event    string `db:"event"`
		Username string `db:"username"`
	}
	if err := b.e.app.DB.Select(&rows, b.e.app.DB.Rebind(`SELECT n.id, n.event, u.username FROM notifications n JOIN users u ON u.id = n.user_id
		WHERE n.id > ? ORDER BY n.id`), b.last); err != nil {
		b.e.t.Fatal(err)
	}
	out := map[string][]string{}
	for _, r := range rows {
		out[r.Event] = append(out[r.Event], r.Username)
		b.last = max(b.last, r.ID)
	}
	for k := range out {
		slices.Sort(out[k])
	}
	return out
}

func (b *inbox) expect(t *testing.T, step string, want map[string][]string) {
	t.Helper()
	got := b.next()
	if len(got) != len(want) {
		t.Errorf("%s: got %v, want %v", step, got, want)
		return
	}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("%s: %s went to %v, want %v", step, k, got[k], w)
		}
	}
}

// Every case event reaches exactly the people of the case it concerns,
// and nobody of another hospital.
func TestCaseEventsReachTheirPeople(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		site, alloc, expert, expert2 := e.login("site"), e.login("allocator"), e.login("expert"), e.login("expert2")
		in := &inbox{e: e}
		register := func(number string) string {
			var c caseOut
			e.decode(e.expect(e.do("POST", "/api/consultation", site, registration(f, number, e.slide(f.hospital, "site"))), 200), &c)
			id := itoa(c.Data.ID)
			e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
			return id
		}
		id := register("BL2026-00301")
		in.expect(t, "registered", nil)
		e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
		in.expect(t, "submit", map[string][]string{"case.submitted": {"allocator", "center_admin"}})
		e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}), 200)
		in.expect(t, "assign", map[string][]string{"case.assigned": {"expert"}})
		e.expect(e.do("POST", "/api/consultation/resources/"+id+"/message", site, map[string]any{"content": "请尽快"}), 200)
		in.expect(t, "message", map[string][]string{"case.message": {"clinical", "expert"}})
		e.expect(e.do("POST", "/api/distribute/"+id+"/referral", alloc, map[string]any{"expert_id": f.expert2}), 200)
		in.expect(t, "referral", map[string][]string{"case.referred": {"expert2"}, "case.referred_away": {"expert"}})
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert2, nil), 200)
		e.expect(e.do("POST", d+"/save", expert2, map[string]any{"microscopic": "慢性炎。", "opinion": "慢性胃炎。"}), 200)
		in.expect(t, "lock and save", nil)
		e.expect(e.do("POST", d+"/delay", expert2, map[string]any{"days": 2, "reason": "需加做免疫组化"}), 200)
		in.expect(t, "delay", map[string][]string{"case.report_delayed": {"clinical", "site"}})
		var delayed struct {
			Data []struct {
				Title string `json:"title"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/message/list", site, nil, "user-language", "en-US"), 200), &delayed)
		if len(delayed.Data) == 0 || !strings.Contains(delayed.Data[0].Title, "is now expected by 20") {
			t.Errorf("the site's delay notice: %+v", delayed.Data)
		}
		e.expect(e.do("POST", d+"/toreview", expert2, map[string]any{"reviewer_id": f.expert}), 200)
		in.expect(t, "to review", map[string][]string{"case.review_requested": {"expert"}})
		e.expect(e.do("POST", d+"/reviewreturn", expert, map[string]any{"note": "请补充"}), 200)
		in.expect(t, "review returned", map[string][]string{"case.review_returned": {"expert2"}})
		e.expect(e.do("POST", d+"/toreview", expert2, map[string]any{"reviewer_id": f.expert}), 200)
		in.next()
		e.expect(e.do("POST", d+"/review_approve", expert, map[string]any{"note": "同意"}), 200)
		in.expect(t, "review approved", map[string][]string{"case.review_approved": {"expert2"}})
		e.expect(e.do("POST", d+"/publish", expert2, map[string]any{"confirm_unviewed": true}), 200)
		in.expect(t, "publish", map[string][]string{"case.report_published": {"clinical", "site"}})

		// Recall: asked by the site, answered by the allocator.
		id2 := register("BL2026-00302")
		e.expect(e.do("POST", "/api/consultation/submit/"+id2, site, nil), 200)
		e.expect(e.do("POST", "/api/distribute/"+id2+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}), 200)
		in.next()
		e.expect(e.do("POST", "/api/consultation/recall/"+id2, site, map[string]any{"reason": "信息有误"}), 200)
		in.expect(t, "recall", map[string][]string{"case.recall_requested": {"allocator", "center_admin", "expert"}})
		e.expect(e.do("POST", "/api/admin/consultation/"+id2+"/recall/agree", alloc, nil), 200)
		in.expect(t, "recall agreed", map[string][]string{"case.recall_agreed": {"clinical", "expert", "site"}})

		// Returned to the site by the center; given back by the expert.
		id3 := register("BL2026-00303")
		e.expect(e.do("POST", "/api/consultation/submit/"+id3, site, nil), 200)
		e.expect(e.do("POST", "/api/distribute/"+id3+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}), 200)
		in.next()
		e.expect(e.do("POST", "/api/diagnosis/"+id3+"/return", expert, map[string]any{"reason": "非本专业"}), 200)
		in.expect(t, "expert return", map[string][]string{"case.returned_to_center": {"allocator", "center_admin"}})
		e.expect(e.do("POST", "/api/distribute/"+id3+"/return", alloc, map[string]any{"reason": "切片质量差"}), 200)
		in.expect(t, "return to site", map[string][]string{"case.returned_to_site": {"clinical", "site"}})

		// The site (clinical) users of the case's hospital hear of its
		// messages and reports; the other hospital never heard of any of it.
		if n := e.count("notifications", "user_id = (SELECT id FROM users WHERE username = 'site2')"); n != 0 {
			t.Errorf("site2 got %d notifications", n)
		}
	})
}

// The message centre: one's own notifications only, read state, bad input.
func TestMessageCentre(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		e.submittedCase(f, "BL2026-00311", f.expert)
		expert, expert2 := e.login("expert"), e.login("expert2")
		var list struct {
			Data []struct {
				ID    int64  `json:"id"`
				Title string `json:"title"`
				Link  string `json:"link"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/message/list", expert, nil, "user-language", "en-US"), 200), &list)
		if len(list.Data) != 1 || !strings.Contains(list.Data[0].Title, "was assigned to you") || !strings.HasPrefix(list.Data[0].Link, "/diagnosis/item/") {
			t.Fatalf("expert's list: %+v", list.Data)
		}
		mine := list.Data[0].ID
		e.decode(e.expect(e.do("GET", "/api/message/list", expert2, nil), 200), &list)
		if len(list.Data) != 0 {
			t.Fatalf("expert2 sees %+v", list.Data)
		}
		t.Run("ErrNothingSelected", func(t *testing.T) {
			r := e.expect(e.do("POST", "/api/message/read", expert, map[string]any{"ids": []int64{}}, "user-language", "en-US"), 422)
			if !strings.Contains(r.String(), "Select at least one message") {
				t.Fatal(r)
			}
		})
		t.Run("OthersCannotRead", func(t *testing.T) {
			e.expect(e.do("POST", "/api/message/read", expert2, map[string]any{"ids": []int64{mine}}), 200)
			if n := e.count("notifications", "id = ? AND read_at IS NOT NULL", mine); n != 0 {
				t.Fatal("expert2 marked the expert's notification read")
			}
		})
		t.Run("Read", func(t *testing.T) {
			var c struct {
				Data map[string]int64 `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/message/count", expert, nil), 200), &c)
			if c.Data["unread"] != 1 {
				t.Fatalf("counts %v", c.Data)
			}
			e.expect(e.do("POST", "/api/message/read", expert, map[string]any{"ids": []int64{mine}}), 200)
			e.decode(e.expect(e.do("GET", "/api/message/count", expert, nil), 200), &c)
			if c.Data["unread"] != 0 || c.Data["all"] != 1 {
				t.Fatalf("counts %v", c.Data)
			}
		})
		t.Run("StreamRefusals", func(t *testing.T) {
			sse := []string{"Accept", "text/event-stream", "user-language", "en-US"}
			e.expect(e.do("GET", "/api/events", "", nil, sse...), 401)
			e.expect(e.do("GET", "/api/events", "not-a-session", nil, sse...), 401)
			// Event ids are positions: the position of the expert's notification.
			var pos int64
			if err := e.app.DB.Get(&pos, e.app.DB.Rebind("SELECT pos FROM notifications WHERE id = ?"), mine); err != nil {
				t.Fatal(err)
			}
			r := e.expect(e.do("GET", "/api/events", expert2, nil, append(sse, "Last-Event-ID", itoa(pos))...), 400)
			if !strings.Contains(r.String(), "last event id") {
				t.Fatal(r)
			}
			e.expect(e.do("GET", "/api/events", expert, nil, append(sse, "Last-Event-ID", "99999999")...), 400)
			e.expect(e.do("GET", "/api/events", expert, nil, append(sse, "Last-Event-ID", "abc")...), 400)
			// A ticket opens one stream, once.
			var tk struct {
				Data struct {
					Ticket string `json:"ticket"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("POST", "/api/events/ticket", expert, nil), 200), &tk)
			s := e.streamURL(t, "/api/events?ticket="+tk.Data.Ticket)
			s.wait(t, "hello", time.Second)
			r = e.expect(e.do("GET", "/api/events?ticket="+tk.Data.Ticket, "", nil, sse...), 401)
			if !strings.Contains(r.String(), "ticket is used up") {
				t.Fatal(r)
			}
			e.expect(e.do("GET", "/api/events?ticket=nonsense", "", nil, sse...), 401)
		})
	})
}

// sseClient reads one live event stream.
type sseClient struct {
	events chan sseEvent
	cancel func()
}

type sseEvent struct{ ID, Event, Data string }

func (e *env) stream(t *testing.T, base, token, last string) *sseClient {
	return e.open(t, base+"/api/events", token, last)
}

// streamURL opens a stream at path without a bearer token (a ticket in the query).
func (e *env) streamURL(t *testing.T, path string) *sseClient {
	return e.open(t, e.srv.URL+path, "", "")
}

func (e *env) open(t *testing.T, url, token, last string) *sseClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("user-language", "en-US")
	if last != "" {
		req.Header.Set("Last-Event-ID", last)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("stream: %d", res.StatusCode)
	}
	c := &sseClient{events: make(chan sseEvent, 100), cancel: func() { cancel(); res.Body.Close() }}
	t.Cleanup(c.cancel)
	go func() {
		sc := bufio.NewScanner(res.Body)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Event != "" || ev.Data != "" {
					c.events <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.Event = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.Data = line[6:]
			}
		}
		close(c.events)
	}()
	return c
}

// wait returns the next event named name, within d.
func (c *sseClient) wait(t *testing.T, name string, d time.Duration) sseEvent {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case ev, ok := <-c.events:
			if !ok {
				t.Fatalf("stream ended before %s", name)
			}
			if ev.Event == name {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %s within %s", name, d)
		}
	}
}

// The live stream: a notification arrives within a second; a reconnect
// with Last-Event-ID replays what came after it; the lists are hinted.
func TestLiveStream(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, alloc := e.login("expert"), e.login("allocator")
		s := e.stream(t, e.srv.URL, expert, "")
		s.wait(t, "hello", time.Second)
		a := e.stream(t, e.srv.URL, alloc, "")
		a.wait(t, "hello", time.Second)
		id := e.submittedCase(f, "BL2026-00321", f.expert)
		ev := s.wait(t, "notification", time.Second)
		if !strings.Contains(ev.Data, "was assigned to you") || !strings.Contains(ev.Data, `"unread":1`) || ev.ID == "" {
			t.Fatalf("event %+v", ev)
		}
		if c := a.wait(t, "changed", time.Second); !strings.Contains(c.Data, "cases") {
			t.Fatalf("allocator's hint %+v", c)
		}
		first := ev.ID
		s.cancel()
		// Missed while away: the message of the site.
		e.expect(e.do("POST", "/api/consultation/resources/"+id+"/message", e.login("site"), map[string]any{"content": "补充病史"}), 200)
		r := e.stream(t, e.srv.URL, expert, first)
		got := r.wait(t, "notification", time.Second)
		if !strings.Contains(got.Data, "补充病史") || got.ID <= first && len(got.ID) <= len(first) {
			t.Fatalf("replayed %+v after %s", got, first)
		}
	})
}

// At the reminder time and at the deadline the case's expert and the
// allocators hear of it once, whatever restarts in between.
func TestTimeoutReminders(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00331", f.expert)
		in := &inbox{e: e}
		in.next()
		past := time.Now().UTC().Add(-time.Minute)
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE consultations SET remind_at = ?, timeout_at = ? WHERE id = ?"), past.Add(-time.Hour), past, id); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		// A server started after the reminder time (the running one looks
		// forward from its start).
		first := e.app.Notify.Timeouts(e.app.Timeouts.Due())
		n, err := first.Tick(ctx)
		if err != nil || n != 4 {
			t.Fatalf("first tick: %d %v", n, err)
		}
		in.expect(t, "due", map[string][]string{"timeout.remind": {"allocator", "expert"}, "timeout.due": {"allocator", "expert"}})
		if n, _ := first.Tick(ctx); n != 0 {
			t.Fatalf("second tick sent %d", n)
		}
		// A restarted server looks back a day and finds them sent.
		again := e.app.Notify.Timeouts(e.app.Timeouts.Due())
		if n, err := again.Tick(ctx); n != 0 || err != nil {
			t.Fatalf("after restart: %d %v", n, err)
		}
		in.expect(t, "after restart", nil)

		// A report signed with a hesitation period reaches the site when
		// the period ends, once.
		expert := e.login("expert")
		id2 := e.submittedCase(f, "BL2026-00332", f.expert)
		in.next()
		e.expect(e.do("POST", "/api/diagnosis/"+id2+"/lock", expert, nil), 200)
		e.expect(e.do("POST", "/api/diagnosis/"+id2+"/save", expert, map[string]any{"opinion": "慢性胃炎。"}), 200)
		e.expect(e.do("POST", "/api/diagnosis/"+id2+"/publish", expert, map[string]any{"delayed": true, "confirm_unviewed": true}), 200)
		in.expect(t, "signed", map[string][]string{"case.report_to_release": {"publisher"}})
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE consultations SET release_at = ? WHERE id = ?"), past, id2); err != nil {
			t.Fatal(err)
		}
		if n, err := e.app.Notify.Timeouts(e.app.Timeouts.Due()).Tick(ctx); n != 2 || err != nil {
			t.Fatalf("release: %d %v", n, err)
		}
		in.expect(t, "released", map[string][]string{"case.report_published": {"clinical", "site"}})
		if n, _ := e.app.Notify.Timeouts(e.app.Timeouts.Due()).Tick(ctx); n != 0 {
			t.Fatalf("released twice: %d", n)
		}
	})
}

// Notices: to a target within the writer's scope, read and acknowledged
// per user, withdrawn; bad input writes nothing.
func TestNotices(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, cadmin, site, expert := e.login("admin"), e.login("center_admin"), e.login("site"), e.login("expert")
		in := &inbox{e: e}
		var h003, wc, adminID int64
		e.app.DB.Get(&h003, "SELECT id FROM hospitals WHERE code = 'H003'")
		e.app.DB.Get(&wc, "SELECT id FROM centers WHERE code = 'WC'")
		e.app.DB.Get(&adminID, "SELECT id FROM users WHERE username = 'admin'")
		en := []string{"user-language", "en-US"}
		type sent struct {
			Data struct {
				ID         int64 `json:"id"`
				Recipients int64 `json:"recipients"`
			} `json:"data"`
		}
		t.Run("ErrBadInput", func(t *testing.T) {
			r := e.expect(e.do("POST", "/api/admin/notice", admin, map[string]any{"kind": "text", "level": "normal", "target": "all", "content": "   "}, en...), 422)
			if !strings.Contains(r.String(), "Write the notice") {
				t.Fatal(r)
			}
			e.expect(e.do("POST", "/api/admin/notice", admin, map[string]any{"kind": "text", "level": "normal", "target": "hospital", "content": "x"}, en...), 422)
			for _, body := range []map[string]any{
				{"kind": "text", "level": "normal", "target": "hospital", "ids": []int64{h003}, "content": "x"},
				{"kind": "text", "level": "normal", "target": "center", "ids": []int64{wc}, "content": "x"},
				{"kind": "text", "level": "normal", "target": "users", "ids": []int64{adminID}, "content": "x"},
			} {
				r := e.expect(e.do("POST", "/api/admin/notice", cadmin, body, en...), 403)
				if !strings.Contains(r.String(), "your own centers") {
					t.Fatal(r)
				}
			}
			e.expect(e.do("POST", "/api/admin/notice", site, map[string]any{"kind": "text", "level": "normal", "target": "all", "content": "x"}), 403)
			if n := e.count("notices", "1=1"); n != 0 {
				t.Fatalf("%d notices written", n)
			}
			in.expect(t, "refused", nil)
		})
		t.Run("ToARole", func(t *testing.T) {
			e.expect(e.do("POST", "/api/admin/notice", admin, map[string]any{"kind": "urgent", "level": "important", "target": "role", "role": "expert", "content": "本周五专家例会"}), 200)
			in.expect(t, "role", map[string][]string{"notice.urgent": {"expert", "expert2"}})
		})
		t.Run("CenterAdminToAll", func(t *testing.T) {
			var s sent
			e.decode(e.expect(e.do("POST", "/api/admin/notice", cadmin, map[string]any{"kind": "text", "level": "normal", "target": "all", "content": "中心通知"}), 200), &s)
			got := in.next()["notice.text"]
			want := []string{"allocator", "center_admin", "clinical", "expert", "expert2", "publisher", "qc_expert", "site", "site2", "staff", "third", "uploader"}
			if !slices.Equal(got, want) {
				t.Fatalf("center_admin's 'all' reached %v", got)
			}
			var list struct {
				Data []struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/admin/notice/list", cadmin, nil), 200), &list)
			if len(list.Data) != 1 || list.Data[0].ID != s.Data.ID {
				t.Fatalf("center_admin's notices: %+v", list.Data)
			}
		})
		t.Run("VeryImportantUntilAcknowledged", func(t *testing.T) {
			var s sent
			e.decode(e.expect(e.do("POST", "/api/admin/notice", admin, map[string]any{"kind": "text", "level": "very_important", "target": "users", "ids": []int64{e.userID("site")}, "content": "今晚 22:00 系统升级"}), 200), &s)
			if s.Data.Recipients != 1 {
				t.Fatalf("%+v", s)
			}
			var pending struct {
				Data []struct {
					ID    int64  `json:"id"`
					Title string `json:"title"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/message/pending", site, nil), 200), &pending)
			if len(pending.Data) != 1 || pending.Data[0].Title != "今晚 22:00 系统升级" {
				t.Fatalf("pending %+v", pending.Data)
			}
			e.expect(e.do("POST", "/api/message/"+itoa(pending.Data[0].ID)+"/ack", expert, nil), 404)
			e.expect(e.do("POST", "/api/message/"+itoa(pending.Data[0].ID)+"/ack", site, nil), 200)
			e.decode(e.expect(e.do("GET", "/api/message/pending", site, nil), 200), &pending)
			if len(pending.Data) != 0 {
				t.Fatalf("still pending %+v", pending.Data)
			}
			var receipts struct {
				Data []struct {
					Username string  `json:"username"`
					ReadAt   *string `json:"read_at"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/admin/notice/"+itoa(s.Data.ID)+"/receipts", admin, nil), 200), &receipts)
			if len(receipts.Data) != 1 || receipts.Data[0].Username != "site" || receipts.Data[0].ReadAt == nil {
				t.Fatalf("receipts %+v", receipts.Data)
			}
			e.expect(e.do("GET", "/api/admin/notice/"+itoa(s.Data.ID)+"/receipts", cadmin, nil), 404)
		})
		t.Run("Withdraw", func(t *testing.T) {
			var s sent
			e.decode(e.expect(e.do("POST", "/api/admin/notice", admin, map[string]any{"kind": "text", "level": "normal", "target": "users", "ids": []int64{e.userID("site")}, "content": "发错了"}), 200), &s)
			count := func() int64 {
				var c struct {
					Data map[string]int64 `json:"data"`
				}
				e.decode(e.expect(e.do("GET", "/api/message/count", site, nil), 200), &c)
				return c.Data["unread"]
			}
			before := count()
			e.expect(e.do("POST", "/api/admin/notice/"+itoa(s.Data.ID)+"/withdraw", cadmin, nil), 404)
			e.expect(e.do("POST", "/api/admin/notice/"+itoa(s.Data.ID)+"/withdraw", admin, nil), 200)
			e.expect(e.do("POST", "/api/admin/notice/"+itoa(s.Data.ID)+"/withdraw", admin, nil), 409)
			if after := count(); after != before-1 {
				t.Fatalf("unread %d → %d", before, after)
			}
		})
	})
}

// Two server processes on one PostgreSQL database: an event raised
// through one reaches a stream held by the other, through LISTEN/NOTIFY.
func TestLiveEventsCrossProcesses(t *testing.T) {
	if len(dbtest.Dialects()) < 2 {
		t.Skip("needs TELEPATH_TEST_POSTGRES_URL")
	}
	t.Parallel()
	var url string
	one := newEnv(t, db.Postgres, func(c *app.Config) { url = c.DatabaseURL })
	two := newEnv(t, db.Postgres, func(c *app.Config) { c.DatabaseURL = url })
	for _, e := range []*env{one, two} {
		select {
		case <-e.app.Notify.Ready():
		case <-time.After(10 * time.Second):
			t.Fatal("listener not ready")
		}
	}
	f := one.fixture()
	s := two.stream(t, two.srv.URL, two.login("expert"), "")
	s.wait(t, "hello", time.Second)
	start := time.Now()
	one.submittedCase(f, "BL2026-00341", f.expert)
	ev := s.wait(t, "notification", 2*time.Second)
	if !strings.Contains(ev.Data, "was assigned to you") {
		t.Fatalf("%+v", ev)
	}
	t.Logf("delivered across processes in %s", time.Since(start))

	// Both processes' schedulers find the same reminders due at once (each
	// case in a transaction of its own): every one is sent once, by one of
	// them.
	past := time.Now().UTC().Add(-time.Minute)
	for i := range 5 {
		id := one.submittedCase(f, fmt.Sprintf("BL2026-0034%d", i+2), f.expert)
		if _, err := one.app.DB.Exec(one.app.DB.Rebind("UPDATE consultations SET remind_at = ?, timeout_at = ? WHERE id = ?"), past.Add(-time.Hour), past, id); err != nil {
			t.Fatal(err)
		}
	}
	sent := make(chan int, 2)
	for _, e := range []*env{one, two} {
		go func() {
			n, err := e.app.Notify.Timeouts(e.app.Timeouts.Due()).Tick(context.Background())
			if err != nil {
				t.Error(err)
			}
			sent <- n
		}()
	}
	a, b := <-sent, <-sent
	if a+b != 20 {
		t.Fatalf("two schedulers sent %d + %d notifications, want 20 (5 cases × 2 people × reminder and deadline)", a, b)
	}
	t.Logf("the schedulers sent %d and %d", a, b)
	sentOnce(t, one, 20)
}

// The events the diagnosis domain makes: invitations, advice, handover,
// supplements, the publisher, counter-audits — each to its people only.
func TestDiagnosisEventsReachTheirPeople(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, expert2, site, third, pub, admin := e.login("expert"), e.login("expert2"), e.login("site"), e.login("third"), e.login("publisher"), e.login("admin")
		in := &inbox{e: e}
		id := e.submittedCase(f, "BL2026-00351", f.expert)
		d := "/api/diagnosis/" + id
		in.next()

		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/invited", expert, map[string]any{"invitee_ids": []int64{f.expert2}, "message": "请帮忙看一下"}), 200)
		in.expect(t, "invite", map[string][]string{"case.invited": {"expert2"}})
		var inv struct {
			Data []struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/diagnosis/invitations", expert2, nil), 200), &inv)
		e.expect(e.do("POST", d+"/invited/"+itoa(inv.Data[0].ID), expert2, map[string]any{"reply": "同意"}), 200)
		in.expect(t, "invitation answered", map[string][]string{"case.invitation_answered": {"expert"}})

		var ad struct {
			Data []struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("POST", d+"/advice", expert, map[string]any{"kind": "special", "items": []any{
			map[string]any{"item": "immunohistochemisty", "markers": "CK", "block": "A1"},
		}}), 200), &ad)
		in.expect(t, "advice", map[string][]string{"case.advice_ordered": {"clinical", "site"}})
		e.allowThirds()
		e.expect(e.do("POST", "/api/consultation/advice/transfer/"+itoa(ad.Data[0].ID), site, map[string]any{"third_id": e.userID("third")}), 200)
		in.expect(t, "transfer", map[string][]string{"case.advice_transferred": {"expert"}, "case.advice_to_third": {"third"}})
		e.expect(e.do("POST", "/api/third/addadvice/"+itoa(ad.Data[0].ID), third, map[string]any{"result": "CK(+)"}), 200)
		in.expect(t, "third's result", map[string][]string{"case.advice_results": {"clinical", "expert", "site"}})

		e.expect(e.do("POST", d+"/unlock", expert, nil), 200)
		e.expect(e.do("POST", d+"/handover", expert, map[string]any{"expert_id": f.expert2}), 200)
		in.expect(t, "handover", map[string][]string{"case.handed_over": {"expert2"}})

		// Signed in the hesitation period: the publisher hears of it and releases it.
		e.expect(e.do("POST", d+"/lock", expert2, nil), 200)
		e.expect(e.do("POST", d+"/save", expert2, map[string]any{"opinion": "慢性胃炎。"}), 200)
		e.expect(e.do("POST", d+"/publish", expert2, map[string]any{"delayed": true, "confirm_unviewed": true}), 200)
		in.expect(t, "signed, releasing", map[string][]string{"case.report_to_release": {"publisher"}})
		e.expect(e.do("POST", "/api/consultation/publisher/publish/"+id, pub, nil), 200)
		in.expect(t, "released", map[string][]string{"case.report_published": {"clinical", "site"}, "case.report_released": {"expert2"}})
		// The scheduler does not tell the site again.
		if n, err := e.app.Notify.Timeouts(e.app.Timeouts.Due()).Tick(context.Background()); n != 0 || err != nil {
			t.Fatalf("scheduler after release: %d %v", n, err)
		}

		// A supplement sent to review.
		e.expect(e.do("POST", d+"/append_diagnosis", expert2, map[string]any{"opinion": "补充：CK(+)。"}), 200)
		e.expect(e.do("POST", d+"/append_diagnosis/toreview", expert2, map[string]any{"reviewer_id": f.expert}), 200)
		in.expect(t, "supplement to review", map[string][]string{"case.supplement_review_requested": {"expert"}})
		e.expect(e.do("POST", d+"/append_diagnosis/approve", expert, nil), 200)
		in.expect(t, "supplement approved", map[string][]string{"case.supplement_approved": {"expert2"}})
		e.expect(e.do("POST", d+"/append_diagnosis/publish", expert2, nil), 200)
		in.expect(t, "supplement published", map[string][]string{"case.supplement_published": {"clinical", "site"}})

		e.expect(e.do("POST", "/api/admin/consultation/"+id+"/counter_audit", admin, map[string]any{"reason": "与免疫组化结果不符"}), 200)
		in.expect(t, "counter-audit", map[string][]string{"case.counter_audit": {"expert2"}})

		if n := e.count("notifications", "user_id IN (SELECT id FROM users WHERE username IN ('site2', 'qc_expert', 'staff', 'uploader'))"); n != 0 {
			t.Errorf("%d notifications to people outside the case", n)
		}
	})
}

// With timeout_reason on, a report signed after the deadline needs a
// reason, kept on the case and in its log; delay_report off keeps a delay
// from the site.
func TestTimeoutReasonAndDelaySettings(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin, expert := e.login("admin"), e.login("expert")
		e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(map[string]any{"timeout_reason": true, "delay_report": false})), 200)
		id := e.submittedCase(f, "BL2026-00361", f.expert)
		in := &inbox{e: e}
		in.next()
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎。"}), 200)
		e.expect(e.do("POST", d+"/delay", expert, map[string]any{"days": 1, "reason": "等待免疫组化"}), 200)
		in.expect(t, "delay with delay_report off", nil)
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE consultations SET timeout_at = ? WHERE id = ?"), time.Now().UTC().Add(-time.Hour), id); err != nil {
			t.Fatal(err)
		}
		r := e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}, "user-language", "en-US"), 422)
		if !strings.Contains(r.String(), "say why the report is late") {
			t.Fatal(r)
		}
		if l := e.label(id, expert); l != "diagnosing" {
			t.Fatalf("refused publish changed the case: %s", l)
		}
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true, "timeout_reason": "免疫组化试剂缺货"}), 200)
		var stored string
		e.app.DB.Get(&stored, e.app.DB.Rebind("SELECT timeout_reason FROM consultations WHERE id = ?"), id)
		if stored != "免疫组化试剂缺货" {
			t.Fatalf("stored reason %q", stored)
		}
		if n := e.count("case_logs", "consult_id = ? AND action = 'publish' AND detail = ?", id, "免疫组化试剂缺货"); n != 1 {
			t.Fatalf("case log lines with the reason: %d", n)
		}
	})
}

// More answers and take-backs, each to its people only.
func TestAnswersReachTheirPeople(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, expert2, site, alloc, pub := e.login("expert"), e.login("expert2"), e.login("site"), e.login("allocator"), e.login("publisher")
		in := &inbox{e: e}

		// A recall rejected.
		id := e.submittedCase(f, "BL2026-00381", f.expert)
		in.next()
		e.expect(e.do("POST", "/api/consultation/recall/"+id, site, map[string]any{"reason": "信息有误"}), 200)
		in.next()
		e.expect(e.do("POST", "/api/admin/consultation/"+id+"/recall/reject", alloc, map[string]any{"reason": "已在诊断中"}), 200)
		in.expect(t, "recall rejected", map[string][]string{"case.recall_rejected": {"clinical", "site"}})

		// A handover taken back before the colleague starts.
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/handover", expert, map[string]any{"expert_id": f.expert2}), 200)
		in.next()
		e.expect(e.do("POST", "/api/diagnosis/handover/recall/"+id, expert, nil), 200)
		in.expect(t, "handover recalled", map[string][]string{"case.handover_recalled": {"expert2"}})

		// Advice executed by the site.
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		var ad struct {
			Data []struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("POST", d+"/advice", expert, map[string]any{"kind": "technical", "items": []any{map[string]any{"item": "deep_cut", "block": "A1"}}}), 200), &ad)
		in.next()
		e.expect(e.do("POST", "/api/consultation/doctor_advice/execute/"+itoa(ad.Data[0].ID), site, map[string]any{"result": "已深切"}), 200)
		in.expect(t, "advice executed", map[string][]string{"case.advice_executed": {"expert"}})

		// Review asked and taken back.
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎。"}), 200)
		e.expect(e.do("POST", d+"/toreview", expert, map[string]any{"reviewer_id": f.expert2}), 200)
		in.next()
		e.expect(e.do("POST", d+"/reviewrecall", expert, nil), 200)
		in.expect(t, "review withdrawn", map[string][]string{"case.review_withdrawn": {"expert2"}})
		e.expect(e.do("POST", d+"/toreview", expert, map[string]any{"reviewer_id": f.expert2}), 200)
		e.expect(e.do("POST", d+"/review_approve", expert2, map[string]any{"note": "同意"}), 200)

		// Signed into the hesitation period, returned by the publisher.
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"delayed": true, "confirm_unviewed": true}), 200)
		in.next()
		e.expect(e.do("POST", "/api/consultation/publisher/return/"+id, pub, map[string]any{"reason": "请补充免疫组化"}), 200)
		in.expect(t, "publisher return", map[string][]string{"case.report_returned": {"expert"}})

		// Signed again, then recalled by the expert in the hesitation period.
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "慢性胃炎。"}), 200)
		e.expect(e.do("POST", d+"/toreview", expert, map[string]any{"reviewer_id": f.expert2}), 200)
		e.expect(e.do("POST", d+"/review_approve", expert2, map[string]any{"note": "同意"}), 200)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"delayed": true, "confirm_unviewed": true}), 200)
		in.next()
		e.expect(e.do("POST", d+"/recall", expert, nil), 200)
		in.expect(t, "report withdrawn", map[string][]string{"case.report_withdrawn": {"publisher"}})
	})
}
