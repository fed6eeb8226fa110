package app_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// seedCases adds n consultations of the demo hospital H001 in bulk: a mix of
// statuses, urgency and patients, each charged and with one slide.
func seedCases(b *testing.B, e *env, n int, status int) []int64 {
	b.Helper()
	d := e.app.DB
	f := e.fixture()
	var owner int64
	d.Get(&owner, "SELECT id FROM users WHERE username = 'site'")
	surnames := []rune("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗")
	now := time.Now().UTC()
	tx := d.MustBegin()
	const batch = 400
	for start := 0; start < n; start += batch {
		q := d.Builder().Insert("consultations").Columns("consult_no", "hospital_id", "center_id", "user_id", "library_id", "status", "is_draft",
			"charge_status", "slide_count", "expedite", "pathology_number", "patient_name", "gender", "age", "case_data", "created_at", "updated_at")
		for i := start; i < start+batch && i < n; i++ {
			st := status
			if st < 0 {
				st = []int{0, 1, 1, 2, 4}[i%5]
			}
			q = q.Values(fmt.Sprintf("TP%08d", i), f.hospital, f.center, owner, f.library, st, 0, 2, 1, i%7/6,
				fmt.Sprintf("BL2026-%06d", i), string(surnames[i%len(surnames)])+fmt.Sprintf("患者%d", i), []string{"male", "female"}[i%2],
				20+i%60, "{}", now.Add(-time.Duration(i)*time.Minute), now)
		}
		if _, err := db.Exec(b.Context(), tx, q); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	var ids []int64
	d.Select(&ids, "SELECT id FROM consultations ORDER BY id")
	d.Exec("ANALYZE")
	return ids
}

// BenchmarkCaseList measures the site's /case/manage list over 100,000 cases
// with three filters (status, urgency, patient-name search) and a sort.
func BenchmarkCaseList(b *testing.B) {
	for _, dialect := range dbtest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			e := newEnvTB(b, dialect, nil)
			seedCases(b, e, 100_000, -1)
			token := e.login("site")
			q := url.Values{"page_size": {"20"}, "params": {`{"status":1,"expedite":0}`}, "search": {"王"},
				"sort_by": {`{"created_at":"desc"}`}}
			measure(b, e.srv.URL+"/api/consultation/list?"+q.Encode(), token)
		})
	}
}

// BenchmarkBatchSubmit submits 500 charged cases with slides in one call.
func BenchmarkBatchSubmit(b *testing.B) {
	for _, dialect := range dbtest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e := newEnvTB(b, dialect, nil)
				ids := seedCases(b, e, 500, 0)
				token := e.login("site")
				b.StartTimer()
				r := e.do("POST", "/api/consultation/batch_submit", token, map[string]any{"ids": ids})
				if r.Status != 200 {
					b.Fatalf("%d %s", r.Status, r)
				}
			}
		})
	}
}

// BenchmarkExpertWorklist measures the expert's /diagnosis/manage list (tab
// "to review", which also looks for supplements under review) over 100,000
// cases of twenty experts: 5,000 are this expert's, 1,000 cases have a
// supplement under review, 500 of them by this expert.
func BenchmarkExpertWorklist(b *testing.B) {
	for _, dialect := range dbtest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			e := newEnvTB(b, dialect, nil)
			ids := seedCases(b, e, 100_000, -1)
			d := e.app.DB
			var expert, expert2 int64
			d.Get(&expert, "SELECT id FROM users WHERE username = 'expert'")
			d.Get(&expert2, "SELECT id FROM users WHERE username = 'expert2'")
			now := time.Now().UTC()
			tx := d.MustBegin()
			for start := 0; start < len(ids); start += 400 {
				q := d.Builder().Insert("diagnoses").Columns("consult_id", "type", "version", "status", "opinion", "doctor_id", "reviewer_id", "created_at", "updated_at")
				n := 0
				for _, id := range ids[start:min(start+400, len(ids))] {
					if id%100 == 0 {
						reviewer := expert2
						if id%200 == 0 {
							reviewer = expert
						}
						q = q.Values(id, 1, 1, "to_review", "补充", expert2, reviewer, now, now)
						n++
					}
				}
				if n > 0 {
					if _, err := db.Exec(b.Context(), tx, q); err != nil {
						b.Fatal(err)
					}
				}
			}
			if _, err := tx.Exec("UPDATE consultations SET supplement_review = 1 WHERE id IN (SELECT consult_id FROM diagnoses WHERE type = 1 AND status = 'to_review')"); err != nil {
				b.Fatal(err)
			}
			if _, err := tx.Exec(d.Rebind("UPDATE consultations SET expert_id = CASE WHEN id % 20 = 0 THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END"), expert, expert2); err != nil {
				b.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			d.Exec("ANALYZE")
			q := url.Values{"page_size": {"20"}, "params": {`{"tab":"to_review"}`}, "sort_by": {`{"submitted_at":"desc"}`}}
			measure(b, e.srv.URL+"/api/consultation/list?"+q.Encode(), e.login("expert"))
		})
	}
}

// BenchmarkCaseDetailAudit measures GET /api/consultation/resources/{id}
// (the site reading one case) with and without the audit record of the
// read. Audited and unaudited requests alternate, one client, so that the
// load of a shared machine falls on both alike; it reports the median and
// mean latency of each, and the writer's flush at the end is timed too.
func BenchmarkCaseDetailAudit(b *testing.B) {
	for _, dialect := range dbtest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			e := newEnvTB(b, dialect, nil)
			f := e.fixture()
			id := e.submittedCase(f, "BL2026-08001", f.expert)
			token := e.login("site")
			client := &http.Client{}
			get := func() time.Duration {
				req, _ := http.NewRequest("GET", e.srv.URL+"/api/consultation/resources/"+id, nil)
				req.Header.Set("Authorization", "Bearer "+token)
				t0 := time.Now()
				res, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					b.Fatalf("status %d", res.StatusCode)
				}
				return time.Since(t0)
			}
			var with, without []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e.app.API.UseReadRecorder(e.app.Audit)
				with = append(with, get())
				e.app.API.UseReadRecorder(nil)
				without = append(without, get())
			}
			t0 := time.Now()
			if err := e.app.Audit.Flush(b.Context()); err != nil {
				b.Fatal(err)
			}
			flush := time.Since(t0)
			b.StopTimer()
			e.app.API.UseReadRecorder(e.app.Audit)
			report := func(l []time.Duration, name string) {
				slices.Sort(l)
				var sum time.Duration
				for _, d := range l {
					sum += d
				}
				b.ReportMetric(float64(l[len(l)/2].Microseconds()), name+"-p50-µs")
				b.ReportMetric(float64(sum.Microseconds())/float64(len(l)), name+"-mean-µs")
			}
			report(with, "audited")
			report(without, "plain")
			b.ReportMetric(float64(flush.Microseconds()), "final-flush-µs")
		})
	}
}
