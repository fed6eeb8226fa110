package app_test

import (
	"testing"
	"time"
)

type availability struct {
	Away      bool   `json:"away"`
	AwayNote  string `json:"away_note"`
	AwayUntil string `json:"away_until"`
}

type expertRef struct {
	ID int64 `json:"id"`
	availability
}

// PATCH /user/diagnosis/status: an expert marks themselves away (with a
// note and a return day) or available; the allocator's expert choices carry
// the state; a return day in the past or an over-long note writes nothing.
func TestExpertAvailability(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, alloc := e.login("expert"), e.login("allocator")
		const path = "/api/user/diagnosis/status"
		if a := data[availability](e, e.expect(e.do("GET", path, expert, nil), 200)); a.Away {
			t.Fatalf("available by default: %+v", a)
		}
		stateOf := func(id int64) availability {
			t.Helper()
			l := data[[]expertRef](e, e.expect(e.do("GET", "/api/consultation/resources/0/exp_list/center?center_id="+itoa(f.center), alloc, nil), 200))
			for _, x := range l {
				if x.ID == id {
					return x.availability
				}
			}
			t.Fatalf("expert %d not offered: %+v", id, l)
			return availability{}
		}

		// The clock of the tests reads the system's; a week ahead is always later.
		back := time.Now().AddDate(0, 0, 7).Format("2006-01-02")
		a := data[availability](e, e.expect(e.do("PATCH", path, expert, map[string]any{"away": true, "away_note": " 外出学习 ", "away_until": back}), 200))
		if !a.Away || a.AwayNote != "外出学习" || a.AwayUntil != back {
			t.Fatalf("set away: %+v", a)
		}
		if got := stateOf(f.expert); got != a {
			t.Fatalf("allocator sees %+v, want %+v", got, a)
		}
		if got := stateOf(f.expert2); got.Away {
			t.Fatalf("expert2 is not away: %+v", got)
		}
		// Away is advice to the allocator, not a lock: the case is still assigned.
		id := e.submittedCase(f, "BL2026-16101", f.expert)
		hos := data[[]expertRef](e, e.expect(e.do("GET", "/api/consultation/resources/"+id+"/exp_list/hos", alloc, nil), 200))
		for _, x := range hos {
			if x.ID == f.expert && !x.Away {
				t.Fatalf("case experts: %+v", hos)
			}
		}
		if n := e.count("audit_logs", "action = 'user.availability'"); n != 1 {
			t.Fatalf("audit rows: %d", n)
		}

		for _, body := range []map[string]any{
			{"away": true, "away_until": "2020-01-01"},
			{"away": true, "away_until": "2026-13-01"},
		} {
			refusedBoth(t, e, "PATCH", path, expert, body, 422, "away_until", "audit_logs")
		}
		long := make([]rune, 201)
		for i := range long {
			long[i] = '忙'
		}
		refusedBoth(t, e, "PATCH", path, expert, map[string]any{"away": true, "away_note": string(long)}, 422, "away_note", "audit_logs")
		if got := stateOf(f.expert); got != a {
			t.Fatalf("a refused change wrote: %+v", got)
		}

		// Back: the note and the day are cleared.
		a = data[availability](e, e.expect(e.do("PATCH", path, expert, map[string]any{"away": false, "away_note": "x", "away_until": back}), 200))
		if a != (availability{}) || stateOf(f.expert) != (availability{}) {
			t.Fatalf("back: %+v", a)
		}
	})
}
