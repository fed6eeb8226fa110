package app_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/db"
)

// The coarser rollups of migration 0071 — stat_daily by month and by week,
// stat_turnaround by year — stay the sums of the finer ones while cases
// are written, published again, moved and withdrawn over two years, and
// the screens over the whole years read from them give the numbers read
// from the cases.
func TestStatisticsCoarseRollups(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		seed := uint64(time.Now().UnixNano())
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, 71))
		d := e.app.DB
		ids := func(q string) []int64 {
			var out []int64
			if err := d.Select(&out, q); err != nil {
				t.Fatal(q, err)
			}
			return out
		}
		exec := func(q string, args ...any) {
			if _, err := d.Exec(d.Rebind(q), args...); err != nil {
				t.Fatal(q, err)
			}
		}
		hospitals := ids("SELECT id FROM hospitals ORDER BY id")
		centers := ids("SELECT id FROM centers ORDER BY id")
		libraries := ids("SELECT id FROM libraries ORDER BY id")
		experts := ids("SELECT user_id FROM user_roles WHERE role = 'expert' ORDER BY user_id")
		site := ids("SELECT id FROM users WHERE username = 'site'")[0]
		pick := func(xs []int64) int64 { return xs[rng.IntN(len(xs))] }
		now := time.Now().Truncate(time.Minute).Add(-2 * time.Minute)
		instant := func() time.Time { return now.Add(-time.Duration(rng.IntN(800*24*60)) * time.Minute).UTC() }
		var cases []int64
		for range 150 {
			created := instant()
			sub := created.Add(time.Duration(rng.IntN(600)) * time.Minute)
			pub := sub.Add(time.Duration(rng.IntN(96*60)) * time.Minute)
			var published any
			status := 1
			if rng.IntN(4) > 0 && pub.Before(now) {
				published, status = pub, 4
			}
			var id int64
			if err := d.Get(&id, d.Rebind(`INSERT INTO consultations (hospital_id, center_id, user_id, library_id, status, is_draft, expert_id, created_at, updated_at,
				submitted_at, assigned_at, published_at, timeout_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
				pick(hospitals), pick(centers), site, pick(libraries), status, pick(experts), created, created, sub, sub.Add(30*time.Minute), published,
				sub.Add(72*time.Hour)); err != nil {
				t.Fatal(err)
			}
			cases = append(cases, id)
		}
		for range 200 {
			id := pick(cases)
			switch rng.IntN(5) {
			case 0:
				exec("UPDATE consultations SET published_at = ?, status = 4 WHERE id = ?", instant(), id)
			case 1:
				exec("UPDATE consultations SET hospital_id = ?, expert_id = ? WHERE id = ?", pick(hospitals), pick(experts), id)
			case 2:
				exec("UPDATE consultations SET created_at = ?, submitted_at = ? WHERE id = ?", instant(), instant(), id)
			case 3:
				exec("UPDATE consultations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL", now, id)
			case 4:
				exec("UPDATE consultations SET published_at = NULL, status = 2 WHERE id = ?", id)
			}
		}

		week := "date(day, 'weekday 0', '-6 days')"
		if d.Dialect == db.Postgres {
			week = "to_char(date_trunc('week', day::date), 'YYYY-MM-DD')"
		}
		same := func(what, coarse, fine string) {
			t.Helper()
			var a, b []string
			for _, x := range []struct {
				q   string
				dst *[]string
			}{{coarse, &a}, {fine, &b}} {
				if err := d.Select(x.dst, x.q); err != nil {
					t.Fatal(x.q, err)
				}
			}
			slices.Sort(a)
			slices.Sort(b)
			if len(b) < 20 {
				t.Errorf("%s: only %d rows", what, len(b))
			}
			if !slices.Equal(a, b) {
				t.Errorf("%s: %d rows, the sums of the finer rollups %d", what, len(a), len(b))
			}
		}
		const cols = "figure || ' ' || CAST(grain AS TEXT) || ' ' || %s || ' ' || CAST(center_id AS TEXT) || ' ' || CAST(hospital_id AS TEXT) || ' ' || CAST(expert_id AS TEXT) || ' ' || CAST(library_id AS TEXT) || ' ' || CAST(%s AS TEXT)"
		same("stat_monthly", "SELECT "+fmt.Sprintf(cols, "day", "n")+" FROM stat_monthly WHERE n <> 0",
			"SELECT "+fmt.Sprintf(cols, "SUBSTR(day, 1, 8) || '01'", "SUM(n)")+" FROM stat_daily GROUP BY figure, grain, SUBSTR(day, 1, 8), center_id, hospital_id, expert_id, library_id HAVING SUM(n) <> 0")
		same("stat_weekly", "SELECT "+fmt.Sprintf(cols, "day", "n")+" FROM stat_weekly WHERE n <> 0",
			"SELECT "+fmt.Sprintf(cols, week, "SUM(n)")+" FROM stat_daily GROUP BY figure, grain, "+week+", center_id, hospital_id, expert_id, library_id HAVING SUM(n) <> 0")
		const tcols = "span || ' ' || CAST(grain AS TEXT) || ' ' || %s || ' ' || CAST(center_id AS TEXT) || ' ' || CAST(hospital_id AS TEXT) || ' ' || CAST(expert_id AS TEXT) || ' ' || CAST(library_id AS TEXT) || ' ' || CAST(tenths AS TEXT) || ' ' || CAST(%s AS TEXT)"
		same("stat_turnaround_yearly", "SELECT "+fmt.Sprintf(tcols, "year", "n")+" FROM stat_turnaround_yearly WHERE n <> 0",
			"SELECT "+fmt.Sprintf(tcols, "SUBSTR(month, 1, 4)", "SUM(n)")+" FROM stat_turnaround GROUP BY span, grain, SUBSTR(month, 1, 4), center_id, hospital_id, expert_id, library_id, tenths HAVING SUM(n) <> 0")

		// Three years by month and by week (whole years of turnarounds),
		// last year by week: the rollups and the cases agree.
		zone, err := time.LoadLocation("Asia/Shanghai") // the default zone
		if err != nil {
			t.Fatal(err)
		}
		local := now.In(zone)
		day := func(t time.Time) string { return t.Format("2006-01-02") }
		periods := []url.Values{
			{"start": {day(local.AddDate(-3, 0, 1))}, "end": {day(local)}},
			{"start": {day(local.AddDate(-3, 0, 1))}, "end": {day(local)}, "granularity": {"week"}},
			{"start": {day(local.AddDate(-1, 0, 1))}, "end": {day(local)}},
			{"start": {fmt.Sprintf("%d-01-01", local.Year()-1)}, "end": {fmt.Sprintf("%d-12-31", local.Year()-1)}, "granularity": {"month"}},
		}
		for _, user := range []string{"admin", "site", "expert"} {
			token := e.login(user)
			for _, screen := range []string{"consultation", "expert", "expert-consultation", "bank", "outside"} {
				for _, p := range periods {
					path := "/api/statistical/" + screen + "?" + p.Encode()
					e.app.Statistics.ReadRollups(true)
					rolled := e.do("GET", path, token, nil, "user-language", "en-US")
					if rolled.Status == 403 {
						break
					}
					e.app.Statistics.ReadRollups(false)
					live := e.expect(e.do("GET", path, token, nil, "user-language", "en-US"), 200)
					e.expect(rolled, 200)
					var a, b statReport
					e.decode(rolled, &a)
					e.decode(live, &b)
					if !reflect.DeepEqual(a, b) {
						t.Errorf("%s %s %v: rollups\n%s\ncases\n%s", user, screen, p, rolled.Body, live.Body)
					}
				}
			}
		}
		e.app.Statistics.ReadRollups(true)
	})
}
