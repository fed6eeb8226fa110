package app_test

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

// A free (zero-fen) charge adds nothing to the charged sum and names no
// hospital on the consultation screen, whether the screen reads the daily
// rollups (which keep no row for it) or the cases (where its day's SUM is a
// row of 0). Seeded by hand, March 2026, Asia/Shanghai:
//
//	H1: a case created 02-10, charged 0 fen on 03-02: no figure of March
//	H2: a case created 03-03, charged 4,500 fen on 03-04, refunded 03-05
//	H3: a case created 03-06, charged 0 fen and 1,200 fen on 03-06
//
// March: registered 2 (H2, H3), charged 57 yuan, refunded 45 yuan; the
// table lists H2, H3 and the total, never H1.
func TestStatisticsFreeCharges(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		d := e.app.DB
		one := func(dst *int64, q string, args ...any) {
			if err := d.Get(dst, d.Rebind(q), args...); err != nil {
				t.Fatal(q, err)
			}
		}
		var h1, h2, h3, ec, routine, site int64
		one(&h1, "SELECT id FROM hospitals WHERE code = 'H001'")
		one(&h2, "SELECT id FROM hospitals WHERE code = 'H002'")
		one(&h3, "SELECT id FROM hospitals WHERE code = 'H003'")
		one(&ec, "SELECT id FROM centers WHERE code = 'EC'")
		one(&routine, "SELECT id FROM libraries WHERE report_kind = 'routine'")
		one(&site, "SELECT id FROM users WHERE username = 'site'")
		at := func(s string) time.Time {
			v, err := time.Parse("2006-01-02 15:04", s)
			if err != nil {
				t.Fatal(err)
			}
			return v.UTC()
		}
		kase := func(hospital int64, created string) int64 {
			var id int64
			one(&id, `INSERT INTO consultations (hospital_id, center_id, user_id, library_id, status, is_draft, created_at, updated_at)
				VALUES (?, ?, ?, ?, 0, 0, ?, ?) RETURNING id`, hospital, ec, site, routine, at(created), at(created))
			return id
		}
		charge := func(c int64, fen int, charged string, refunded any) {
			if _, err := d.Exec(d.Rebind("INSERT INTO charges (consult_id, order_no, total_fen, status, charged_at, refunded_at, created_at) VALUES (?, 'F', ?, 1, ?, ?, ?)"),
				c, fen, at(charged), refunded, at(charged)); err != nil {
				t.Fatal(err)
			}
		}
		charge(kase(h1, "2026-02-10 02:00"), 0, "2026-03-02 02:00", nil)
		charge(kase(h2, "2026-03-03 02:00"), 4500, "2026-03-04 02:00", at("2026-03-05 02:00"))
		c3 := kase(h3, "2026-03-06 02:00")
		charge(c3, 0, "2026-03-06 03:00", nil)
		charge(c3, 1200, "2026-03-06 04:00", nil)

		admin := e.login("admin")
		for _, rollups := range []bool{true, false} {
			e.app.Statistics.ReadRollups(rollups)
			r := e.stat(admin, "consultation", march())
			for k, v := range map[string]float64{"registered": 2, "charged": 57, "refunded": 45} {
				wantCard(t, r, k, v)
			}
			tab := r.Tables[0]
			var keys []string
			for _, row := range tab.Rows {
				keys = append(keys, row.Key)
			}
			id := func(v int64) string { return strconv.FormatInt(v, 10) }
			slices.Sort(keys[:max(len(keys)-1, 0)])
			want := []string{id(min(h2, h3)), id(max(h2, h3)), "total"}
			if !slices.Equal(keys, want) {
				t.Errorf("rollups %v: hospital rows %v, want %v", rollups, keys, want)
			}
		}
		e.app.Statistics.ReadRollups(true)
	})
}
