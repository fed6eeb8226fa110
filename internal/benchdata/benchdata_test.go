package benchdata_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"telepath/internal/benchdata"
	"telepath/internal/demo"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// A small load on each database holds the cases and, dated at their own
// instants, the activity the statistics count: one charge per submitted
// case, log lines, invitations, special exams, judged slides and frozen
// sections.
func TestLoadActivity(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		if err := demo.Seed(ctx, d, log, clock.Clock{}); err != nil {
			t.Fatal(err)
		}
		o := benchdata.Options{Cases: 3000, Users: 100, Hospitals: 6, Experts: 8, Years: 1, Now: time.Now()}
		if err := benchdata.Load(ctx, d, o, log); err != nil {
			t.Fatal(err)
		}
		count := func(q string) int {
			var n int
			if err := d.GetContext(ctx, &n, q); err != nil {
				t.Fatal(q, err)
			}
			return n
		}
		submitted := count("SELECT COUNT(*) FROM consultations WHERE submitted_at IS NOT NULL AND patient_name <> '' AND consult_no LIKE 'TP%'")
		if got := count("SELECT COUNT(*) FROM charges WHERE order_no LIKE 'BO%'"); got != submitted || got == 0 {
			t.Errorf("charges %d, submitted cases %d", got, submitted)
		}
		// Uploaded, not waiting for the server's check: a server started
		// on the data would otherwise check every one (a missing file each).
		if got := count("SELECT COUNT(*) FROM slides WHERE status <> 1"); got != 0 {
			t.Errorf("%d slides not uploaded", got)
		}
		for _, q := range []string{
			"SELECT COUNT(*) FROM case_logs WHERE action = 'review_approve'",
			"SELECT COUNT(*) FROM case_logs WHERE action = 'diagnosis_amend' AND detail <> ''",
			"SELECT COUNT(*) FROM charges WHERE refunded_at IS NOT NULL",
			"SELECT COUNT(*) FROM invitations WHERE replied_at IS NOT NULL AND inviter_id <> invitee_id",
			"SELECT COUNT(*) FROM advices WHERE done_at IS NOT NULL",
			"SELECT COUNT(*) FROM slide_judgements WHERE grade = 'D' AND reason <> ''",
			"SELECT COUNT(*) FROM frozen_appointments WHERE reported_at IS NOT NULL AND concordance = 'concordant'",
		} {
			if count(q) == 0 {
				t.Errorf("none: %s", q)
			}
		}
	})
}
