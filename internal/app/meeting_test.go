package app_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"telepath/internal/app"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

type meetingOut struct {
	Data struct {
		ID          int64  `json:"id"`
		PresenterID int64  `json:"presenter_id"`
		EndReason   string `json:"end_reason"`
		EndedAt     *string
		Members     []struct {
			UserID  int64 `json:"user_id"`
			Present bool  `json:"present"`
		} `json:"members"`
	} `json:"data"`
}

// meetingCase is a case assigned to expert, who invited expert2 to it
// (so both see it); meetings are switched on. It returns the case id and
// its slide.
func (e *env) meetingCase(f caseFixture, number string) (string, int64) {
	e.t.Helper()
	id, slides := e.meetingCaseOf(f, number, 1)
	return id, slides[0]
}

// meetingCaseOf is meetingCase with n slides.
func (e *env) meetingCaseOf(f caseFixture, number string, n int) (string, []int64) {
	e.t.Helper()
	e.expect(e.do("PUT", "/api/config/setting", e.login("admin"), systemInput(map[string]any{"show_meeting": true})), 200)
	id := e.submittedCaseOf(f, number, f.expert, n)
	e.expect(e.do("POST", "/api/diagnosis/"+id+"/invited", e.login("expert"), map[string]any{"invitee_ids": []int64{f.expert2}}), 200)
	var slides []int64
	e.app.DB.Select(&slides, e.app.DB.Rebind("SELECT id FROM slides WHERE consult_id = ? ORDER BY id"), id)
	return id, slides
}

func (e *env) startMeeting(token, caseID string, invitees ...int64) meetingOut {
	e.t.Helper()
	cid, _ := json.Number(caseID).Int64()
	var m meetingOut
	e.decode(e.expect(e.do("POST", "/api/consultation/meeting", token, map[string]any{"consult_id": cid, "invitee_ids": invitees}), 200), &m)
	return m
}

// Who may start, see, join and drive a meeting; what ends it.
func TestMeetingMembership(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, expert2, site := e.login("expert"), e.login("expert2"), e.login("site")
		e.cloneUser("expert", "expert3", "E3")
		expert3 := e.login("expert3")
		id, slide := e.meetingCase(f, "BL2026-09601")
		cid, _ := json.Number(id).Int64()

		t.Run("Refused", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/meeting", site, map[string]any{"consult_id": cid, "invitee_ids": []int64{f.expert2}}), 403)
			// expert3 may not see the case: neither invited to the meeting nor starting one.
			r := e.expect(e.do("POST", "/api/consultation/meeting", expert, map[string]any{"consult_id": cid, "invitee_ids": []int64{e.userID("expert3")}}, "user-language", "en-US"), 422)
			if !strings.Contains(string(r.Body), "Invite only experts who may see this case") {
				t.Fatalf("%s", r)
			}
			e.expect(e.do("POST", "/api/consultation/meeting", expert3, map[string]any{"consult_id": cid, "invitee_ids": []int64{f.expert}}), 404)
			e.expect(e.do("PUT", "/api/config/setting", e.login("admin"), systemInput(map[string]any{"show_meeting": false})), 200)
			e.expect(e.do("POST", "/api/consultation/meeting", expert, map[string]any{"consult_id": cid, "invitee_ids": []int64{f.expert2}}), 409)
			e.expect(e.do("PUT", "/api/config/setting", e.login("admin"), systemInput(map[string]any{"show_meeting": true})), 200)
			if n := e.count("meetings", "1=1"); n != 0 {
				t.Fatalf("%d meetings written by refused calls", n)
			}
		})

		m := e.startMeeting(expert, id, f.expert2)
		mid := itoa(m.Data.ID)
		base := "/api/consultation/meeting/" + mid
		view := map[string]any{"kind": "view", "slide_id": slide, "x": 0.5, "y": 0.4, "zoom": 3, "rotation": 90}

		t.Run("Lists", func(t *testing.T) {
			if l := e.list("/api/user/meeting", expert2, nil); len(l.Data) != 1 {
				t.Fatalf("expert2's meetings: %d", len(l.Data))
			}
			if l := e.list("/api/user/meeting", expert3, nil); len(l.Data) != 0 {
				t.Fatalf("expert3 sees %d meetings", len(l.Data))
			}
			e.expect(e.do("GET", base, expert3, nil), 404)
			e.expect(e.do("POST", base+"/join", expert3, nil), 404)
			e.expect(e.do("POST", base+"/signal", expert3, view), 404)
		})

		t.Run("Signals", func(t *testing.T) {
			s := e.stream(t, e.srv.URL, expert2, "")
			s.wait(t, "hello", time.Second)
			e.expect(e.do("POST", base+"/signal", expert2, map[string]any{"kind": "pointer", "slide_id": slide}), 409) // not joined yet
			e.expect(e.do("POST", base+"/join", expert2, nil), 200)
			s.wait(t, "meeting", 2*time.Second) // the participant list changed
			e.expect(e.do("POST", base+"/signal", expert, view), 200)
			ev := s.wait(t, "meeting", 2*time.Second)
			if !strings.Contains(ev.Data, `"kind":"view"`) || !strings.Contains(ev.Data, `"rotation":90`) {
				t.Fatalf("view event: %+v", ev)
			}
			other := map[string]any{"kind": "view", "slide_id": slide + 1000, "x": 0.5, "y": 0.5, "zoom": 1}
			e.expect(e.do("POST", base+"/signal", expert, other), 422)
			e.expect(e.do("POST", base+"/signal", expert2, view), 409) // not the presenter
			e.expect(e.do("POST", base+"/signal", expert2, map[string]any{"kind": "pointer", "slide_id": slide, "x": 0.1, "y": 0.2}), 200)
			var got meetingOut
			e.decode(e.expect(e.do("GET", base, expert2, nil), 200), &got)
			if len(got.Data.Members) != 2 || !got.Data.Members[1].Present {
				t.Fatalf("members: %+v", got.Data.Members)
			}
		})

		t.Run("Lead", func(t *testing.T) {
			e.expect(e.do("PATCH", base, expert2, map[string]any{"action": "lead", "presenter_id": f.expert}), 409)
			e.expect(e.do("PATCH", base, expert, map[string]any{"action": "lead", "presenter_id": e.userID("expert3")}), 422)
			e.expect(e.do("PATCH", base, expert, map[string]any{"action": "lead", "presenter_id": f.expert2}), 200)
			e.expect(e.do("POST", base+"/signal", expert, view), 409)
			e.expect(e.do("POST", base+"/signal", expert2, view), 200)
			// The first presenter leaves; the meeting goes on with the new one.
			e.expect(e.do("POST", "/api/user/meeting/quit/"+mid, expert, nil), 200)
			e.expect(e.do("POST", base+"/signal", expert2, view), 200)
			e.expect(e.do("PATCH", base, expert2, map[string]any{"action": "end"}), 200)
			e.expect(e.do("POST", base+"/signal", expert2, view), 409)
		})

		t.Run("EndsOnSign", func(t *testing.T) {
			m := e.startMeeting(expert, id, f.expert2)
			d := "/api/diagnosis/" + id
			e.expect(e.do("POST", d+"/lock", expert, nil), 200)
			e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
			e.expect(e.do("POST", d+"/publish", expert, map[string]any{"delayed": false, "confirm_unviewed": true}), 200)
			var got meetingOut
			e.decode(e.expect(e.do("GET", "/api/consultation/meeting/"+itoa(m.Data.ID), expert2, nil), 200), &got)
			if got.Data.EndReason != "signed" {
				t.Fatalf("after sign: %+v", got.Data)
			}
		})

		t.Run("EndsWhenThePresenterMoves", func(t *testing.T) {
			other, _ := e.meetingCase(f, "BL2026-09602")
			third, _ := e.meetingCase(f, "BL2026-09603")
			m := e.startMeeting(expert, other, f.expert2)
			e.expect(e.do("POST", "/api/diagnosis/"+third+"/lock", expert, nil), 200)
			var got meetingOut
			e.decode(e.expect(e.do("GET", "/api/consultation/meeting/"+itoa(m.Data.ID), expert, nil), 200), &got)
			if got.Data.EndReason != "moved" {
				t.Fatalf("after moving: %+v", got.Data)
			}
		})
	})
}

// The presenter's split view reaches the others with every pane's view; a
// split view of slides not the case's, repeated, too many or without the
// viewed slide first, or a view with a zoom not above zero, is refused in
// both languages and neither stored nor sent. An annotation a present participant
// saves reaches the others present, not those who left or were never there.
func TestMeetingSplitAndAnnotations(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, expert2 := e.login("expert"), e.login("expert2")
		id, slides := e.meetingCaseOf(f, "BL2026-09621", 3)
		_, foreign := e.meetingCase(f, "BL2026-09622")
		m := e.startMeeting(expert, id, f.expert2)
		base := "/api/consultation/meeting/" + itoa(m.Data.ID)
		s := e.stream(t, e.srv.URL, expert2, "")
		s.wait(t, "hello", time.Second)
		e.expect(e.do("POST", base+"/join", expert2, nil), 200)
		s.wait(t, "meeting", 2*time.Second)
		// A view of slide with a split view of the slides given, each pane at its own place.
		view := func(slide int64, split ...int64) map[string]any {
			panes := []map[string]any{}
			for i, id := range split {
				panes = append(panes, map[string]any{"slide_id": id, "x": 0.5 + float64(i)/10, "y": 0.25, "zoom": 2 + float64(i), "rotation": 90 * i})
			}
			return map[string]any{"kind": "view", "slide_id": slide, "x": 0.5, "y": 0.25, "zoom": 2, "split": panes, "seq": 7}
		}
		withPane := func(v map[string]any, i int, key string, value any) map[string]any {
			v["split"].([]map[string]any)[i][key] = value
			return v
		}

		t.Run("Split", func(t *testing.T) {
			e.expect(e.do("POST", base+"/signal", expert, view(slides[0], slides[0], slides[2])), 200)
			ev := s.wait(t, "meeting", 2*time.Second)
			second := `{"slide_id":` + itoa(slides[2]) + `,"x":0.6,"y":0.25,"zoom":3,"rotation":90}`
			if !strings.Contains(ev.Data, `"split":[{"slide_id":`+itoa(slides[0])+`,"x":0.5,"y":0.25,"zoom":2,"rotation":0},`+second+`]`) || !strings.Contains(ev.Data, `"seq":7`) {
				t.Fatalf("view event: %+v", ev)
			}
			split := "The split view shows 2 to 4 different slides"
			for name, bad := range map[string]struct {
				body map[string]any
				want string
			}{
				"ErrForeignSlide": {view(slides[0], slides[0], foreign), split},
				"ErrRepeated":     {view(slides[0], slides[0], slides[0]), split},
				"ErrOne":          {view(slides[0], slides[0]), split},
				"ErrNotFirst":     {view(slides[0], slides[1], slides[0]), split},
				"ErrNotViewed":    {view(slides[0], slides[1], slides[2]), split},
				"ErrTooMany":      {view(slides[0], slides[0], slides[1], slides[2], slides[2]+1000, slides[2]+1001), ""},
				"ErrPaneZoom":     {withPane(view(slides[0], slides[0], slides[2]), 1, "zoom", 0), "the zoom above zero"},
				"ErrPaneNegative": {withPane(view(slides[0], slides[0], slides[1], slides[2]), 2, "zoom", -1.5), "the zoom above zero"},
				"ErrZoom":         {map[string]any{"kind": "view", "slide_id": slides[0], "x": 0.5, "y": 0.5, "zoom": -2}, "the zoom above zero"},
			} {
				r := e.do("POST", base+"/signal", expert, bad.body, "user-language", "en-US")
				if r.Status != 422 || !strings.Contains(string(r.Body), bad.want) {
					t.Errorf("%s: %d %s", name, r.Status, r)
				}
			}
			// In Chinese too.
			r := e.do("POST", base+"/signal", expert, view(slides[0], slides[2], slides[0]), "user-language", "zh-CN")
			if r.Status != 422 || !strings.Contains(string(r.Body), "当前查看的切片排在第一") {
				t.Errorf("zh-CN split: %d %s", r.Status, r)
			}
			r = e.do("POST", base+"/signal", expert, withPane(view(slides[0], slides[0], slides[2]), 0, "zoom", 0), "user-language", "zh-CN")
			if r.Status != 422 || !strings.Contains(string(r.Body), "缩放须大于零") {
				t.Errorf("zh-CN zoom: %d %s", r.Status, r)
			}
			s.none(t, "meeting", 200*time.Millisecond)
			var got struct {
				Data struct {
					View struct {
						Split []struct {
							SlideID int64   `json:"slide_id"`
							X       float64 `json:"x"`
							Zoom    float64 `json:"zoom"`
						} `json:"split"`
					} `json:"view"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", base, expert2, nil), 200), &got)
			if v := got.Data.View.Split; len(v) != 2 || v[1].SlideID != slides[2] || v[1].X != 0.6 || v[1].Zoom != 3 {
				t.Fatalf("stored view: %+v", got.Data.View)
			}
			// Pointers carry no split view.
			e.expect(e.do("POST", base+"/signal", expert, map[string]any{"kind": "pointer", "slide_id": slides[1], "split": []map[string]any{{"slide_id": foreign, "x": 0, "y": 0, "zoom": 1, "rotation": 0}}}), 200)
			if ev := s.wait(t, "meeting", 2*time.Second); strings.Contains(ev.Data, "split") {
				t.Fatalf("pointer event: %+v", ev)
			}
		})

		t.Run("Annotations", func(t *testing.T) {
			labels := map[string]any{"labels": []any{map[string]any{"id": 1, "tool": "line", "points": []any{map[string]any{"x": 1, "y": 1}, map[string]any{"x": 9, "y": 9}}, "color": "#00ff00", "lineWidth": 2, "description": ""}}}
			e.expect(e.do("PUT", "/api/slides/"+itoa(slides[1])+"/annotations", expert, labels), 200)
			ev := s.wait(t, "meeting", 2*time.Second)
			if !strings.Contains(ev.Data, `"kind":"annotations"`) || !strings.Contains(ev.Data, `"slide_id":`+itoa(slides[1])) || !strings.Contains(ev.Data, `"from":`+itoa(f.expert)) {
				t.Fatalf("annotations event: %+v", ev)
			}
			// The presenter's stream hears expert2's annotations.
			s1 := e.stream(t, e.srv.URL, expert, "")
			s1.wait(t, "hello", time.Second)
			e.expect(e.do("PUT", "/api/slides/"+itoa(slides[2])+"/annotations", expert2, labels), 200)
			if ev := s1.wait(t, "meeting", 2*time.Second); !strings.Contains(ev.Data, `"kind":"annotations"`) {
				t.Fatalf("annotations event to the presenter: %+v", ev)
			}
			// expert2 leaves: their later annotations are theirs alone.
			e.expect(e.do("POST", "/api/user/meeting/quit/"+itoa(m.Data.ID), expert2, nil), 200)
			s1.wait(t, "meeting", 2*time.Second) // the participant list changed
			e.expect(e.do("PUT", "/api/slides/"+itoa(slides[2])+"/annotations", expert2, map[string]any{"labels": []any{}}), 200)
			e.expect(e.do("PUT", "/api/slides/"+itoa(slides[1])+"/annotations", expert, map[string]any{"labels": []any{}}), 200)
			s1.none(t, "meeting", 300*time.Millisecond)
		})
	})
}

// The presenter's views may arrive out of order: the meeting keeps the one
// numbered last, not the one that came last; after a hand-over none is
// served until the new presenter sends one, and the new presenter's views
// are kept whatever their numbers; unnumbered views are kept as they come.
func TestMeetingViewOrder(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, expert2 := e.login("expert"), e.login("expert2")
		id, slide := e.meetingCase(f, "BL2026-09631")
		m := e.startMeeting(expert, id, f.expert2)
		base := "/api/consultation/meeting/" + itoa(m.Data.ID)
		e.expect(e.do("POST", base+"/join", expert2, nil), 200)
		send := func(token string, seq int64, x float64) {
			e.t.Helper()
			e.expect(e.do("POST", base+"/signal", token, map[string]any{"kind": "view", "slide_id": slide, "x": x, "y": 0.5, "zoom": 2, "seq": seq}), 200)
		}
		stored := func() float64 {
			var got struct {
				Data struct {
					View struct {
						X float64 `json:"x"`
					} `json:"view"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", base, expert2, nil), 200), &got)
			return got.Data.View.X
		}
		send(expert, 1_000_010, 0.3)
		send(expert, 1_000_009, 0.2) // sent before, arrived after
		if x := stored(); x != 0.3 {
			t.Fatalf("stored view after a late one: x=%v", x)
		}
		send(expert, 1_000_011, 0.4)
		if x := stored(); x != 0.4 {
			t.Fatalf("stored view after a newer one: x=%v", x)
		}
		// The lead handed over: until the new presenter sends a view, the
		// previous presenter's is not served (to a follower switching follow
		// back on, say).
		e.expect(e.do("PATCH", base, expert, map[string]any{"action": "lead", "presenter_id": f.expert2}), 200)
		var handed struct {
			Data struct {
				View json.RawMessage `json:"view"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", base, expert2, nil), 200), &handed)
		if string(handed.Data.View) != "null" {
			t.Fatalf("the previous presenter's view served after the hand-over: %s", handed.Data.View)
		}
		// The new presenter's clock is behind the first's.
		send(expert2, 5, 0.6)
		if x := stored(); x != 0.6 {
			t.Fatalf("stored view of the new presenter: x=%v", x)
		}
		e.expect(e.do("POST", base+"/signal", expert2, map[string]any{"kind": "view", "slide_id": slide, "x": 0.7, "y": 0.5, "zoom": 2}), 200)
		send(expert2, 4, 0.1)
		if x := stored(); x != 0.1 {
			t.Fatalf("stored view after an unnumbered one: x=%v", x)
		}
	})
}

// Two server processes on one PostgreSQL database: the presenter on one,
// a participant's stream on the other; the view crosses through NOTIFY.
func TestMeetingAcrossProcesses(t *testing.T) {
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
	id, slide := one.meetingCase(f, "BL2026-09611")
	m := one.startMeeting(one.login("expert"), id, f.expert2)
	base := "/api/consultation/meeting/" + itoa(m.Data.ID)
	expert2 := two.login("expert2")
	s := two.stream(t, two.srv.URL, expert2, "")
	s.wait(t, "hello", time.Second)
	two.expect(two.do("POST", base+"/join", expert2, nil), 200)
	s.wait(t, "meeting", 2*time.Second)
	start := time.Now()
	one.expect(one.do("POST", base+"/signal", one.login("expert"), map[string]any{"kind": "view", "slide_id": slide, "x": 0.25, "y": 0.75, "zoom": 8}), 200)
	ev := s.wait(t, "meeting", 2*time.Second)
	if !strings.Contains(ev.Data, `"zoom":8`) {
		t.Fatalf("%+v", ev)
	}
	t.Logf("view delivered across processes in %s", time.Since(start))
}

// none fails if an event named name arrives within d.
func (c *sseClient) none(t *testing.T, name string, d time.Duration) {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case ev, ok := <-c.events:
			if ok && ev.Event == name {
				t.Fatalf("unexpected %s: %+v", name, ev)
			}
		case <-timeout:
			return
		}
	}
}
