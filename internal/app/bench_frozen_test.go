package app_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/db/dbtest"
)

// BenchmarkFrozen measures, on each database:
//
//   - allocation: the query that finds the experts on duty at an instant
//     (with the round-robin order), over a year of schedules — 20 experts in
//     4 attendance groups, every expert on a three-session shift every day
//     for 12 cycles of 31 days (about 22,000 duty sessions);
//
//   - submit-to-list: the site's "tissue ready" submit (registration,
//     submission and automatic assignment in one transaction) followed by the
//     expert's frozen list that shows it, as two sequential requests.
//
//     go test ./internal/app -run '^$' -bench Frozen -benchtime 1x
func BenchmarkFrozen(b *testing.B) {
	for _, d := range dbtest.Dialects() {
		b.Run(string(d), func(b *testing.B) {
			e := newEnvTB(b, d, nil)
			alloc, site := e.login("allocator"), e.login("site")
			center := e.centerID("EC")
			var experts []int64
			for i := range 20 {
				experts = append(experts, e.cloneUser("expert", fmt.Sprintf("fz_expert_%02d", i), fmt.Sprintf("冰冻专家%02d", i)))
			}
			shift := []map[string]string{{"start": "00:00", "end": "07:59"}, {"start": "08:00", "end": "15:59"}, {"start": "16:00", "end": "23:59"}}
			for g := range 4 {
				members := experts[g*5 : g*5+5]
				grp := data[frozenGroup](e, e.expect(e.do("POST", "/api/schedule/group", alloc, map[string]any{"center_id": center, "name": fmt.Sprint("G", g),
					"period_name": "P", "member_ids": members, "shifts": []map[string]any{{"name": "三班", "sessions": shift}}}), 200))
				for c := range 12 {
					start := today(c * 31)
					var as []map[string]any
					for day := range 31 {
						for _, u := range members {
							as = append(as, map[string]any{"day": today(c*31 + day), "user_id": u, "shift_id": grp.Shifts[0].ID})
						}
					}
					grp = data[frozenGroup](e, e.expect(e.do("PUT", "/api/schedule/duty", alloc, map[string]any{"group_id": grp.ID, "version": grp.Version,
						"start": start, "days": 31, "assignments": as}), 200))
				}
			}
			rows := e.count("duty_sessions", "")
			ctx := context.Background()
			var took []time.Duration
			for i := range 500 {
				at := time.Now().Add(time.Duration(i) * 17 * time.Hour) // spread over the year
				t0 := time.Now()
				on, err := e.app.Frozen.OnDuty(ctx, e.app.DB, center, at)
				took = append(took, time.Since(t0))
				if err != nil || len(on) != 20 {
					b.Fatalf("on duty at %s: %d, %v", at, len(on), err)
				}
			}
			b.ReportMetric(float64(rows), "duty_sessions")
			b.ReportMetric(p(took, 50), "alloc_p50_µs")
			b.ReportMetric(p(took, 99), "alloc_p99_µs")

			expertToken := map[int64]string{}
			took = took[:0]
			for range 30 {
				a := data[frozenAppt](e, e.expect(e.do("POST", "/api/frozen/appointment", site, map[string]any{"center_id": center, "patient_name": "P",
					"operation_at": time.Now().Add(10 * time.Minute).UTC().Format(time.RFC3339), "surgeon": "S", "phone": "13800000000",
					"specimen_site": "X", "gender": "female", "age": "40"}), 200))
				path := fmt.Sprintf("/api/frozen/appointment/%d", a.ID)
				e.expect(e.do("POST", path+"/accept", alloc, nil), 200)
				t0 := time.Now()
				a = data[frozenAppt](e, e.expect(e.do("POST", path+"/arrive", site, map[string]any{"case": map[string]any{}}), 200))
				tok, ok := expertToken[*a.ExpertID]
				if !ok {
					var name string
					if err := e.app.DB.Get(&name, e.app.DB.Rebind("SELECT username FROM users WHERE id = ?"), *a.ExpertID); err != nil {
						b.Fatal(err)
					}
					tok = e.login(name)
					expertToken[*a.ExpertID] = tok
				}
				l := data[[]frozenAppt](e, e.expect(e.do("GET", "/api/frozen/appointment/lists?params="+`{"tab":"reading"}`, tok, nil), 200))
				took = append(took, time.Since(t0))
				if !slices.ContainsFunc(l, func(x frozenAppt) bool { return x.ID == a.ID }) {
					b.Fatalf("case %d not on its expert's list", a.ID)
				}
			}
			b.ReportMetric(p(took, 50)/1000, "submit_to_list_p50_ms")
			b.ReportMetric(p(took, 99)/1000, "submit_to_list_max_ms")
		})
	}
}

// p is the q-th percentile of ds in microseconds.
func p(ds []time.Duration, q int) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s) - 1) * q / 100
	return float64(s[i].Microseconds())
}
