package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/clock"
)

type frozenAppt struct {
	ID             int64    `json:"id"`
	ConsultationID *int64   `json:"consultation_id"`
	Status         int      `json:"status"`
	IsRecall       int      `json:"is_recall"`
	Phase          string   `json:"phase"`
	ExpertID       *int64   `json:"expert_id"`
	ArrivedAt      *string  `json:"arrived_at"`
	FrozenAmberMin int      `json:"frozen_amber_min"`
	FrozenRedMin   int      `json:"frozen_red_min"`
	FrozenVerdict  *string  `json:"frozen_verdict"`
	AssignedAt     *string  `json:"assigned_at"`
	FirstOpenAt    *string  `json:"first_open_at"`
	ReportedAt     *string  `json:"reported_at"`
	TurnaroundSec  *int64   `json:"turnaround_seconds"`
	Actions        []string `json:"actions"`
}

type frozenGroup struct {
	ID      int64 `json:"id"`
	Version int64 `json:"version"`
	Shifts  []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"shifts"`
}

func (e *env) centerID(code string) int64 {
	e.t.Helper()
	var id int64
	if err := e.app.DB.Get(&id, e.app.DB.Rebind("SELECT id FROM centers WHERE code = ?"), code); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func data[T any](e *env, r resp) T {
	e.t.Helper()
	var out struct {
		Data T `json:"data"`
	}
	e.decode(r, &out)
	return out.Data
}

// refusedBoth checks a request is refused with a localized message in both
// languages (a field error on field, or the message of a 409) and writes nothing.
func refusedBoth(t *testing.T, e *env, method, path, token string, body any, status int, field string, table string) {
	t.Helper()
	// Reads are audited through a queue: the rows of earlier requests are written first.
	flush := func() {
		if err := e.app.Audit.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	flush()
	before := e.count(table, "")
	for _, lang := range []string{"zh-CN", "en-US"} {
		r := e.do(method, path, token, body, "user-language", lang)
		if r.Status != status {
			t.Fatalf("%s %s (%s): %d, want %d: %s", method, path, lang, r.Status, status, r.Body)
		}
		if field != "" {
			if !fieldRefusedIn(e, r, lang, field) {
				t.Errorf("%s %s (%s): no localized message on %s: %s", method, path, lang, field, r.Body)
			}
		} else if m := message(r); m == "" || rawKey.MatchString(m) || (lang == "zh-CN") != han.MatchString(m) {
			t.Errorf("%s %s (%s): message %q", method, path, lang, m)
		}
	}
	flush()
	if n := e.count(table, ""); n != before {
		t.Errorf("%s %s: refused but %s went %d → %d", method, path, table, before, n)
	}
}

func today(days int) string {
	z := clock.Clock{}.Zone()
	return time.Now().In(z).AddDate(0, 0, days).Format("2006-01-02")
}

func TestFrozenDutyAndAppointments(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		alloc, site, site2, expert, expert2, staff := e.login("allocator"), e.login("site"), e.login("site2"), e.login("expert"), e.login("expert2"), e.login("staff")
		center := e.centerID("EC")
		ex1, ex2 := e.userID("expert"), e.userID("expert2")
		group := map[string]any{"center_id": center, "name": "冰冻值班", "period_name": "日间", "office": "3 楼冰冻室",
			"member_ids": []int64{ex1, ex2},
			"shifts": []map[string]any{
				{"name": "全天", "sessions": []map[string]string{{"start": "00:00", "end": "23:59"}}},
				{"name": "两头班", "sessions": []map[string]string{{"start": "08:00", "end": "12:00"}, {"start": "13:00", "end": "17:00"}}},
			}}
		bad := func(mut func(g map[string]any)) map[string]any {
			b, _ := json.Marshal(group)
			var g map[string]any
			json.Unmarshal(b, &g)
			mut(g)
			return g
		}
		// Attendance group rules: required fields, 1–3 sessions in order, participants of the center.
		refusedBoth(t, e, "POST", "/api/schedule/group", alloc, bad(func(g map[string]any) { g["period_name"] = " " }), 422, "period_name", "attendance_groups")
		refusedBoth(t, e, "POST", "/api/schedule/group", alloc, bad(func(g map[string]any) { g["member_ids"] = []int64{} }), 422, "member_ids", "attendance_groups")
		refusedBoth(t, e, "POST", "/api/schedule/group", alloc, bad(func(g map[string]any) { g["member_ids"] = []int64{ex1, e.userID("staff")} }), 422, "member_ids", "attendance_groups")
		refusedBoth(t, e, "POST", "/api/schedule/group", alloc, bad(func(g map[string]any) {
			g["shifts"] = []map[string]any{{"name": "乱序", "sessions": []map[string]string{{"start": "13:00", "end": "17:00"}, {"start": "08:00", "end": "12:00"}}}}
		}), 422, "shifts[0].sessions", "attendance_groups")
		refusedBoth(t, e, "POST", "/api/schedule/group", alloc, bad(func(g map[string]any) {
			g["shifts"] = []map[string]any{{"name": "重叠", "sessions": []map[string]string{{"start": "08:00", "end": "12:00"}, {"start": "11:00", "end": "17:00"}}}}
		}), 422, "shifts[0].sessions", "attendance_groups")
		refusedBoth(t, e, "POST", "/api/schedule/group", alloc, bad(func(g map[string]any) {
			s := []map[string]string{{"start": "01:00", "end": "02:00"}, {"start": "03:00", "end": "04:00"}, {"start": "05:00", "end": "06:00"}, {"start": "07:00", "end": "08:00"}}
			g["shifts"] = []map[string]any{{"name": "四次", "sessions": s}}
		}), 422, "shifts[0].sessions", "attendance_groups")
		// Another center's allocator sees nothing: the west center is not the allocator's.
		refusedBoth(t, e, "POST", "/api/schedule/group", alloc, bad(func(g map[string]any) { g["center_id"] = e.centerID("WC") }), 422, "center_id", "attendance_groups")

		g := data[frozenGroup](e, e.expect(e.do("POST", "/api/schedule/group", alloc, group), 200))
		allDay, split := g.Shifts[0].ID, g.Shifts[1].ID

		// Scheduling cycle rules.
		sched := func(start string, days int, version int64, as ...[3]any) map[string]any {
			list := []map[string]any{}
			for _, a := range as {
				list = append(list, map[string]any{"day": a[0], "user_id": a[1], "shift_id": a[2]})
			}
			return map[string]any{"group_id": g.ID, "version": version, "start": start, "days": days, "assignments": list}
		}
		refusedBoth(t, e, "PUT", "/api/schedule/duty", alloc, sched(today(0), 32, g.Version), 422, "days", "duty_sessions")
		refusedBoth(t, e, "PUT", "/api/schedule/duty", alloc, sched(today(-1), 3, g.Version, [3]any{today(-1), ex1, allDay}), 422, "start", "duty_sessions")
		refusedBoth(t, e, "PUT", "/api/schedule/duty", alloc, sched(today(0), 2, g.Version, [3]any{today(0), ex1, allDay}, [3]any{today(0), ex1, split}), 422, "assignments[1]", "duty_sessions")
		refusedBoth(t, e, "PUT", "/api/schedule/duty", alloc, sched(today(0), 2, g.Version, [3]any{today(5), ex1, allDay}), 422, "assignments[0].day", "duty_sessions")
		refusedBoth(t, e, "PUT", "/api/schedule/duty", alloc, sched(today(0), 2, g.Version+7, [3]any{today(0), ex1, allDay}), 409, "", "duty_sessions")

		// Today and tomorrow: expert on duty all day.
		g = data[frozenGroup](e, e.expect(e.do("PUT", "/api/schedule/duty", alloc, sched(today(0), 2, g.Version, [3]any{today(0), ex1, allDay}, [3]any{today(1), ex1, allDay})), 200))
		// Two allocators with the same version: the second is refused.
		refusedBoth(t, e, "PUT", "/api/schedule/duty", alloc, sched(today(0), 2, g.Version-1), 409, "", "duty_sessions")
		duty := data[[]map[string]any](e, e.expect(e.do("GET", fmt.Sprintf("/api/schedule/duty?from=%s&to=%s", today(0), today(40)), alloc, nil), 200))
		if len(duty) != 2 || duty[0]["office"] != "3 楼冰冻室" {
			t.Fatalf("duty calendar: %v", duty)
		}

		// Booking: in the future, in a slot somebody is on duty.
		soon := time.Now().Add(30 * time.Minute).UTC().Format(time.RFC3339)
		book := map[string]any{"center_id": center, "patient_name": "张三", "gender": "male", "age": "56", "operation_at": soon,
			"operating_room": "OR-3", "surgeon": "王医生", "phone": "13800000000", "specimen_site": "甲状腺左叶", "clinical_question": "良恶性？"}
		with := func(k string, v any) map[string]any {
			b := map[string]any{}
			for kk, vv := range book {
				b[kk] = vv
			}
			b[k] = v
			return b
		}
		refusedBoth(t, e, "POST", "/api/frozen/appointment", site, with("operation_at", time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)), 422, "operation_at", "frozen_appointments")
		refusedBoth(t, e, "POST", "/api/frozen/appointment", site, with("operation_at", time.Now().AddDate(0, 0, 10).UTC().Format(time.RFC3339)), 422, "operation_at", "frozen_appointments")
		refusedBoth(t, e, "POST", "/api/frozen/appointment", site, with("center_id", e.centerID("WC")), 422, "center_id", "frozen_appointments")
		refusedBoth(t, e, "POST", "/api/frozen/appointment", site, with("surgeon", ""), 422, "surgeon", "frozen_appointments")

		a := data[frozenAppt](e, e.expect(e.do("POST", "/api/frozen/appointment", site, book), 200))
		if a.Status != 99 || a.Phase != "applying" || !slices.Equal(a.Actions, []string{"recall"}) {
			t.Fatalf("booked: %+v", a)
		}
		path := fmt.Sprintf("/api/frozen/appointment/%d", a.ID)
		// Another hospital sees none of it.
		e.expect(e.do("GET", path, site2, nil), 404)
		e.expect(e.do("POST", path+"/recall", site2, map[string]any{}), 404)
		if l := data[[]frozenAppt](e, e.expect(e.do("GET", "/api/frozen/appointment/lists", site2, nil), 200)); len(l) != 0 {
			t.Fatalf("site2 sees %d appointments", len(l))
		}
		// Experts see no appointment before it is theirs; staff not before the tissue arrives.
		e.expect(e.do("GET", path, expert, nil), 404)
		e.expect(e.do("GET", path, staff, nil), 404)

		got := data[frozenAppt](e, e.expect(e.do("GET", path, alloc, nil), 200))
		if !slices.Equal(got.Actions, []string{"accept", "return", "ignore"}) {
			t.Fatalf("allocator actions on applying: %v", got.Actions)
		}
		refusedBoth(t, e, "POST", path+"/arrive", site, map[string]any{"case": map[string]any{}}, 409, "", "frozen_appointments")
		a = data[frozenAppt](e, e.expect(e.do("POST", path+"/accept", alloc, nil), 200))
		if a.Status != 100 || a.Phase != "pending" {
			t.Fatalf("accepted: %+v", a)
		}
		counts := data[map[string]int64](e, e.expect(e.do("GET", "/api/frozen/appointment/count", site, nil), 200))
		if counts["pending"] != 1 || counts["applying"] != 0 {
			t.Fatalf("site counts: %v", counts)
		}

		// Tissue ready: the frozen case goes to the only expert on duty.
		a = data[frozenAppt](e, e.expect(e.do("POST", path+"/arrive", site, map[string]any{"case": map[string]any{}}), 200))
		if a.ExpertID == nil || *a.ExpertID != ex1 || a.ArrivedAt == nil || a.AssignedAt == nil || a.Phase != "arrived" {
			t.Fatalf("arrived: %+v", a)
		}
		reading := data[[]frozenAppt](e, e.expect(e.do("GET", "/api/frozen/appointment/lists?params="+`{"tab":"reading"}`, expert, nil), 200))
		if len(reading) != 1 || !slices.Equal(reading[0].Actions, []string{"open"}) {
			t.Fatalf("expert's frozen list: %+v", reading)
		}
		if l := data[[]frozenAppt](e, e.expect(e.do("GET", "/api/frozen/appointment/lists", expert2, nil), 200)); len(l) != 0 {
			t.Fatalf("expert2 sees %d", len(l))
		}
		e.expect(e.do("GET", path, staff, nil), 200)
		a = data[frozenAppt](e, e.expect(e.do("POST", path+"/open", expert, nil), 200))
		if a.FirstOpenAt == nil || a.ConsultationID == nil {
			t.Fatalf("first open not recorded: %+v", a)
		}
		// The frozen case is a submitted case of the frozen library on the expert's list; the
		// expert writes and publishes it in the workspace, released at once.
		caseID := fmt.Sprint(*a.ConsultationID)
		// The workspace finds the frozen case's clock by the case: only that appointment.
		byCase := data[[]frozenAppt](e, e.expect(e.do("GET", "/api/frozen/appointment/lists?params="+`{"consultation_id":`+caseID+`}`, expert, nil), 200))
		if len(byCase) != 1 || byCase[0].ID != a.ID || byCase[0].ArrivedAt == nil || byCase[0].FrozenAmberMin != 15 || byCase[0].FrozenRedMin != 20 {
			t.Fatalf("frozen appointment of case %s: %+v", caseID, byCase)
		}
		if l := data[[]frozenAppt](e, e.expect(e.do("GET", "/api/frozen/appointment/lists?params="+`{"consultation_id":`+caseID+`0}`, expert, nil), 200)); len(l) != 0 {
			t.Fatalf("another case's frozen appointment: %+v", l)
		}
		// Raised in the writers' transactions: the allocators heard of the booking, the
		// expert on duty of the arrival, with the link to the workspace.
		if n := e.count("notifications", "user_id = ? AND event = 'frozen.booked' AND link = '/frozen-distribute/manage'", e.userID("allocator")); n < 1 {
			t.Errorf("allocator's booking notifications: %d", n)
		}
		if n := e.count("notifications", "user_id = ? AND event = 'frozen.arrived' AND link = ?", ex1, "/diagnosis/item/"+caseID); n != 1 {
			t.Errorf("expert's arrival notifications: %d", n)
		}
		e.expect(e.do("GET", "/api/consultation/resources/"+caseID, expert, nil), 200)
		e.expect(e.do("GET", "/api/consultation/resources/"+caseID, expert2, nil), 404)
		d := "/api/diagnosis/" + caseID
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		refusedBoth(t, e, "POST", d+"/save", expert, map[string]any{"opinion": "x", "frozen_verdict": "maybe"}, 422, "frozen_verdict", "diagnoses")
		saved := data[struct {
			Verdict string `json:"frozen_verdict"`
		}](e, e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（甲状腺左叶）恶性，乳头状癌，待石蜡进一步分型。", "frozen_verdict": "malignant"}), 200))
		if saved.Verdict != "malignant" {
			t.Fatalf("frozen verdict not stored: %+v", saved)
		}
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
		if lb := e.label(caseID, site); lb != "published" {
			t.Fatalf("the site sees the frozen case as %s", lb)
		}
		a = data[frozenAppt](e, e.expect(e.do("GET", path, expert, nil), 200))
		if a.ReportedAt == nil || a.TurnaroundSec == nil || a.Phase != "reported" || a.FrozenVerdict == nil || *a.FrozenVerdict != "malignant" {
			t.Fatalf("reported: %+v", a)
		}
		seen := data[frozenAppt](e, e.expect(e.do("GET", path, site, nil), 200))
		if seen.Phase != "reported" || fmt.Sprint(seen.Actions) != "[after_frozen_paraffin_block]" { // the paraffin case may follow
			t.Fatalf("site sees: %+v", seen)
		}
		// Recalling a reported case is refused.
		refusedBoth(t, e, "POST", path+"/recall", site, map[string]any{}, 409, "", "frozen_appointments")
		x := e.expect(e.do("GET", "/api/frozen/appointment/export", alloc, nil), 200)
		if len(x.Body) < 100 || x.Header.Get("Content-Type") == "" {
			t.Fatalf("export: %d bytes", len(x.Body))
		}

		// Return and recall.
		b := data[frozenAppt](e, e.expect(e.do("POST", "/api/frozen/appointment", site, book), 200))
		bp := fmt.Sprintf("/api/frozen/appointment/%d", b.ID)
		refusedBoth(t, e, "POST", bp+"/return", alloc, map[string]any{"reason": " "}, 422, "reason", "frozen_appointments")
		b = data[frozenAppt](e, e.expect(e.do("POST", bp+"/return", alloc, map[string]any{"reason": "手术取消"}), 200))
		if b.Status != 101 || len(b.Actions) != 0 {
			t.Fatalf("returned: %+v", b)
		}
		// The site changes the returned appointment and sends it again, checked like a booking.
		if r := data[frozenAppt](e, e.expect(e.do("GET", bp, site, nil), 200)); !slices.Equal(r.Actions, []string{"resubmit"}) {
			t.Fatalf("returned, as the site sees it: %+v", r)
		}
		refusedBoth(t, e, "PUT", bp, site, with("operation_at", time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)), 422, "operation_at", "frozen_appointments")
		refusedBoth(t, e, "PUT", bp, site, with("operation_at", time.Now().AddDate(0, 0, 10).UTC().Format(time.RFC3339)), 422, "operation_at", "frozen_appointments")
		e.expect(e.do("PUT", bp, site2, book), 404)
		e.expect(e.do("PUT", bp, alloc, book), 403)
		if r := data[frozenAppt](e, e.expect(e.do("GET", bp, site, nil), 200)); r.Status != 101 {
			t.Fatalf("a refused resubmission changed the appointment: %+v", r)
		}
		booked := e.count("notifications", "event = 'frozen.booked'")
		b = data[frozenAppt](e, e.expect(e.do("PUT", bp, site, with("operating_room", "OR-7")), 200))
		if b.Status != 99 || b.Phase != "applying" || !slices.Equal(b.Actions, []string{"recall"}) {
			t.Fatalf("resubmitted: %+v", b)
		}
		if n := e.count("notifications", "event = 'frozen.booked'"); n <= booked {
			t.Errorf("the allocators did not hear of the resubmission")
		}
		// Resubmitting what is not returned is refused.
		refusedBoth(t, e, "PUT", bp, site, book, 409, "", "frozen_appointments")
		b = data[frozenAppt](e, e.expect(e.do("POST", bp+"/return", alloc, map[string]any{"reason": "手术取消"}), 200))
		c := data[frozenAppt](e, e.expect(e.do("POST", "/api/frozen/appointment", site, book), 200))
		cp := fmt.Sprintf("/api/frozen/appointment/%d", c.ID)
		c = data[frozenAppt](e, e.expect(e.do("POST", cp+"/recall", site, map[string]any{"reason": "改期"}), 200))
		if c.IsRecall != 1 || c.Phase != "recall_asked" {
			t.Fatalf("recall asked: %+v", c)
		}
		c = data[frozenAppt](e, e.expect(e.do("POST", cp+"/recall/agree", alloc, nil), 200))
		if c.IsRecall != 2 || c.Phase != "recalled" {
			t.Fatalf("recalled: %+v", c)
		}
	})
}

// An accepted appointment whose tissue never came is a failed appointment a
// day after its operation time: in its own tab, with nothing left to do.
func TestFrozenFailedAppointment(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		alloc, site := e.login("allocator"), e.login("site")
		p, _ := e.reportedFrozen() // a duty schedule for today and tomorrow, and a reported frozen case beside
		a := data[frozenAppt](e, e.expect(e.do("POST", "/api/frozen/appointment", site, map[string]any{"center_id": e.centerID("EC"), "patient_name": "未到",
			"operation_at": time.Now().Add(10 * time.Minute).UTC().Format(time.RFC3339), "surgeon": "S", "phone": "13800000000", "specimen_site": "X"}), 200))
		ap := fmt.Sprintf("/api/frozen/appointment/%d", a.ID)
		e.expect(e.do("POST", ap+"/accept", alloc, nil), 200)
		counts := func() map[string]int64 {
			return data[map[string]int64](e, e.expect(e.do("GET", "/api/frozen/appointment/count", site, nil), 200))
		}
		if c := counts(); c["pending"] != 1 || c["failed"] != 0 {
			t.Fatalf("before: %v", c)
		}
		// The operation was 25 hours ago and the tissue never came.
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE frozen_appointments SET operation_at = ? WHERE id = ?"), time.Now().Add(-25*time.Hour).UTC(), a.ID); err != nil {
			t.Fatal(err)
		}
		a = data[frozenAppt](e, e.expect(e.do("GET", ap, site, nil), 200))
		if a.Phase != "failed" || len(a.Actions) != 0 {
			t.Fatalf("failed: %+v", a)
		}
		refusedBoth(t, e, "POST", ap+"/arrive", site, map[string]any{"case": map[string]any{}}, 409, "", "consultations")
		if c := counts(); c["pending"] != 0 || c["failed"] != 1 {
			t.Fatalf("after: %v", c)
		}
		if l := data[[]frozenAppt](e, e.expect(e.do("GET", "/api/frozen/appointment/lists?params="+`{"tab":"failed"}`, alloc, nil), 200)); len(l) != 1 || l[0].ID != a.ID {
			t.Fatalf("failed tab: %+v", l)
		}
		// A reported frozen case is never failed.
		if r := data[frozenAppt](e, e.expect(e.do("GET", p, site, nil), 200)); r.Phase != "reported" {
			t.Fatalf("reported: %+v", r)
		}
	})
}

// Automatic assignment with zero, one and two experts on duty.
func TestFrozenAutomaticAssignment(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		alloc, site := e.login("allocator"), e.login("site")
		center := e.centerID("EC")
		ex1, ex2 := e.userID("expert"), e.userID("expert2")
		g := data[frozenGroup](e, e.expect(e.do("POST", "/api/schedule/group", alloc, map[string]any{"center_id": center, "name": "G", "period_name": "P",
			"member_ids": []int64{ex1, ex2}, "shifts": []map[string]any{{"name": "全天", "sessions": []map[string]string{{"start": "00:00", "end": "23:59"}}}}}), 200))
		shift := g.Shifts[0].ID
		schedule := func(users ...int64) {
			t.Helper()
			as := []map[string]any{}
			for _, u := range users {
				for d := range 2 { // today and tomorrow: bookings a few minutes ahead cross local midnight
					as = append(as, map[string]any{"day": today(d), "user_id": u, "shift_id": shift})
				}
			}
			g = data[frozenGroup](e, e.expect(e.do("PUT", "/api/schedule/duty", alloc, map[string]any{"group_id": g.ID, "version": g.Version,
				"start": today(0), "days": 2, "assignments": as}), 200))
		}
		booked := func() string {
			t.Helper()
			a := data[frozenAppt](e, e.expect(e.do("POST", "/api/frozen/appointment", site, map[string]any{"center_id": center, "patient_name": "P",
				"operation_at": time.Now().Add(5 * time.Minute).UTC().Format(time.RFC3339), "surgeon": "S", "phone": "13800000000", "specimen_site": "X",
				"gender": "female", "age": "40"}), 200))
			p := fmt.Sprintf("/api/frozen/appointment/%d", a.ID)
			e.expect(e.do("POST", p+"/accept", alloc, nil), 200)
			return p
		}
		// Zero on duty: the case arrives unassigned; automatic assignment says why it cannot.
		schedule(ex1)
		p0 := booked()
		schedule()
		a := data[frozenAppt](e, e.expect(e.do("POST", p0+"/arrive", site, map[string]any{"case": map[string]any{}}), 200))
		if a.ExpertID != nil || a.ArrivedAt == nil {
			t.Fatalf("zero on duty: %+v", a)
		}
		refusedBoth(t, e, "POST", p0+"/assign", alloc, map[string]any{}, 409, "", "frozen_appointments")
		// The allocator can name an expert of the center; not someone else.
		refusedBoth(t, e, "POST", p0+"/assign", alloc, map[string]any{"expert_id": e.userID("staff")}, 422, "expert_id", "frozen_appointments")
		a = data[frozenAppt](e, e.expect(e.do("POST", p0+"/assign", alloc, map[string]any{"expert_id": ex2}), 200))
		if a.ExpertID == nil || *a.ExpertID != ex2 {
			t.Fatalf("override: %+v", a)
		}
		// One on duty: always that one.
		schedule(ex1)
		for range 2 {
			a = data[frozenAppt](e, e.expect(e.do("POST", booked()+"/arrive", site, map[string]any{"case": map[string]any{}}), 200))
			if a.ExpertID == nil || *a.ExpertID != ex1 {
				t.Fatalf("one on duty: %+v", a)
			}
		}
		// Two on duty: round robin, the one who waited longest first.
		schedule(ex1, ex2)
		var got []int64
		for range 4 {
			a = data[frozenAppt](e, e.expect(e.do("POST", booked()+"/arrive", site, map[string]any{"case": map[string]any{}}), 200))
			got = append(got, *a.ExpertID)
		}
		if got[0] == got[1] || got[1] == got[2] || got[2] == got[3] {
			t.Fatalf("two on duty, not round robin: %v", got)
		}
		// The experts' role configuration: one bound to the frozen library
		// goes first; one who takes no cases is never chosen, nor accepted.
		admin := e.login("admin")
		var bd int64
		e.app.DB.Get(&bd, "SELECT id FROM libraries WHERE prefix = 'BD'")
		arrive := func(want int64) string {
			t.Helper()
			p := booked()
			a := data[frozenAppt](e, e.expect(e.do("POST", p+"/arrive", site, map[string]any{"case": map[string]any{}}), 200))
			if a.ExpertID == nil || *a.ExpertID != want {
				t.Fatalf("arrived to %v, want %d", a.ExpertID, want)
			}
			return p
		}
		e.setRoleConfig(admin, ex2, "expert", map[string]any{"subspecialties": []int64{bd}})
		arrive(ex2)
		arrive(ex2)
		e.setRoleConfig(admin, ex2, "expert", map[string]any{"subspecialties": []int64{bd}, "takes_cases": false})
		arrive(ex1)
		p := arrive(ex1)
		refusedBoth(t, e, "POST", p+"/assign", alloc, map[string]any{"expert_id": ex2}, 422, "expert_id", "frozen_appointments")
	})
}

// Each center sets when its frozen clock turns amber and red: whole minutes,
// amber before red, refused in both languages otherwise.
func TestFrozenThresholdsPerCenter(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		path := fmt.Sprintf("/api/center/%d", e.centerID("EC"))
		type thresholds struct {
			Name  string `json:"name"`
			Amber int    `json:"frozen_amber_min"`
			Red   int    `json:"frozen_red_min"`
		}
		c := data[thresholds](e, e.expect(e.do("GET", path, admin, nil), 200))
		if c.Amber != 15 || c.Red != 20 {
			t.Fatalf("default thresholds: %+v", c)
		}
		refusedBoth(t, e, "POST", path, admin, map[string]any{"name": c.Name, "frozen_amber_min": 0}, 422, "frozen_amber_min", "centers")
		refusedBoth(t, e, "POST", path, admin, map[string]any{"name": c.Name, "frozen_red_min": -5}, 422, "frozen_red_min", "centers")
		refusedBoth(t, e, "POST", path, admin, map[string]any{"name": c.Name, "frozen_amber_min": 20, "frozen_red_min": 20}, 422, "frozen_red_min", "centers")
		refusedBoth(t, e, "POST", path, admin, map[string]any{"name": c.Name, "frozen_amber_min": 25}, 422, "frozen_red_min", "centers")
		c = data[thresholds](e, e.expect(e.do("POST", path, admin, map[string]any{"name": c.Name, "frozen_amber_min": 10, "frozen_red_min": 30}), 200))
		if c.Amber != 10 || c.Red != 30 {
			t.Fatalf("changed thresholds: %+v", c)
		}
	})
}
