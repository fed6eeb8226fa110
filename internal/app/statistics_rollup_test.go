package app_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"telepath/internal/app"
	"telepath/internal/statistics"
)

// rollupCase is a case row as the figures read it.
type rollupCase struct {
	ID        int64      `db:"id"`
	Center    *int64     `db:"center_id"`
	Hospital  int64      `db:"hospital_id"`
	Expert    *int64     `db:"expert_id"`
	Library   *int64     `db:"library_id"`
	Status    int        `db:"status"`
	Created   time.Time  `db:"created_at"`
	Submitted *time.Time `db:"submitted_at"`
	Assigned  *time.Time `db:"assigned_at"`
	Published *time.Time `db:"published_at"`
	Timeout   *time.Time `db:"timeout_at"`
	Deleted   *time.Time `db:"deleted_at"`
}

// figureKey is the rollup row a figure of case c at instant at counts in.
func figureKey(fig string, at time.Time, c rollupCase, zone *time.Location) string {
	z := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	return fmt.Sprintf("%s|%s|%d|%d|%d|%d", fig, at.In(zone).Format("2006-01-02"), z(c.Center), c.Hospital, z(c.Expert), z(c.Library))
}

// figuresOf counts what a case adds to the rollups, by the definitions of
// internal/statistics/rollup.go, written again here.
func figuresOf(c rollupCase, zone *time.Location, into map[string]int64) {
	if c.Deleted != nil {
		return
	}
	add := func(fig string, at *time.Time) {
		if at != nil {
			into[figureKey(fig, *at, c, zone)]++
		}
	}
	add(statistics.FigRegistered, &c.Created)
	add(statistics.FigSubmitted, c.Submitted)
	add(statistics.FigAssigned, c.Assigned)
	add(statistics.FigPublished, c.Published)
	if c.Timeout != nil && (c.Published == nil || c.Published.After(*c.Timeout)) {
		add(statistics.FigTimedOut, c.Timeout)
	}
	if c.Timeout != nil && c.Published != nil {
		add(statistics.FigWithDeadline, c.Published)
		if !c.Published.After(*c.Timeout) {
			add(statistics.FigInTime, c.Published)
		}
	}
	if c.Published == nil && (c.Status == 1 || c.Status == 2) {
		add(statistics.FigInProgress, c.Assigned)
	}
}

// After a randomized sequence of case transitions (one transaction each,
// some of several steps, some rolled back), the daily rollups hold exactly
// the figures counted from the cases, and every statistics screen gives the
// same numbers from the rollups as from the cases alone, for several
// periods, filters and roles, on both databases. The zone is half an hour
// off the hour (Asia/Kolkata, UTC+5:30) and not the one the migration
// counted in, so the app rebuilt the rollups at start.
func TestStatisticsRollups(t *testing.T) {
	zone, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	eachDB(t, func(c *app.Config) { c.Zone = zone }, func(t *testing.T, e *env) {
		seed := uint64(time.Now().UnixNano())
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, 14))
		d := e.app.DB
		ids := func(q string) []int64 {
			var out []int64
			if err := d.Select(&out, q); err != nil {
				t.Fatal(q, err)
			}
			return out
		}
		hospitals := ids("SELECT id FROM hospitals ORDER BY id")
		centers := ids("SELECT id FROM centers ORDER BY id")
		libraries := ids("SELECT id FROM libraries ORDER BY id")
		experts := ids("SELECT user_id FROM user_roles WHERE role = 'expert' ORDER BY user_id")
		site := ids("SELECT id FROM users WHERE username = 'site'")[0]
		pick := func(xs []int64) int64 { return xs[rng.IntN(len(xs))] }
		maybe := func(xs []int64) any {
			if rng.IntN(6) == 0 {
				return nil
			}
			return pick(xs)
		}

		// Instants at whole minutes over the last 100 days (whole months for
		// the turnaround rollups), a fifth of them
		// today; deadlines may lie ahead, but never within ten minutes of now
		// (the two reads of a screen must agree on which have passed).
		now := time.Now().Truncate(time.Minute).Add(-2 * time.Minute)
		local := now.In(zone)
		midnight := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, zone)
		instant := func() time.Time {
			if rng.IntN(5) == 0 {
				return now.Add(-time.Duration(rng.Int64N(int64(now.Sub(midnight)/time.Minute)+1)) * time.Minute).UTC()
			}
			return now.Add(-time.Duration(rng.IntN(100*24*60)) * time.Minute).UTC()
		}
		deadline := func(from time.Time) time.Time {
			t := from.Add(time.Duration(1+rng.IntN(96*60)) * time.Minute)
			if t.After(now.Add(-10*time.Minute)) && t.Before(now.Add(20*time.Minute)) {
				t = t.Add(time.Hour)
			}
			return t.UTC()
		}

		var cases []int64
		type stmt struct {
			q    string
			args []any
		}
		step := func() []stmt {
			if len(cases) == 0 || rng.IntN(3) == 0 {
				at := instant()
				return []stmt{{`INSERT INTO consultations (hospital_id, center_id, user_id, library_id, status, is_draft, created_at, updated_at, timeout_reason)
					VALUES (?, ?, ?, ?, 0, 0, ?, ?, '')`, []any{pick(hospitals), maybe(centers), site, maybe(libraries), at, at}}}
			}
			id := cases[rng.IntN(len(cases))]
			at := instant()
			// Publishing and assigning weigh more than the other steps, so
			// that the percentiles checked below have cases enough however
			// many kinds of activity the steps write.
			switch rng.IntN(32) {
			case 12: // diagnosed (a first diagnosis, or a later version or a supplement, published or not)
				typ, version := 0, 1
				if rng.IntN(3) == 0 {
					typ, version = rng.IntN(2), 1+rng.IntN(2)
				}
				var published any
				if rng.IntN(2) == 0 {
					published = instant()
				}
				return []stmt{{"INSERT INTO diagnoses (consult_id, type, version, doctor_id, created_at, updated_at, published_at) SELECT id, ?, ?, ?, ?, ?, ? FROM consultations WHERE id = ?",
					[]any{typ, version, pick(experts), at, at, published, id}}}
			case 24: // a frozen section of the case, arrived, reported and judged against its paraffin case, or not yet
				var arrived, reported, judgedAt any
				verdict := []string{"", "concordant", "discordant", "deferred"}[rng.IntN(4)]
				if rng.IntN(4) > 0 {
					arrived = at
					if rng.IntN(4) > 0 {
						reported = at.Add(time.Duration([]int{1, 12, 29, 31, 45, 90}[rng.IntN(6)]) * time.Minute)
					}
				}
				if verdict != "" {
					judgedAt = instant()
				}
				return []stmt{{`INSERT INTO frozen_appointments (center_id, hospital_id, user_id, patient_name, operation_at, consultation_id, expert_id, arrived_at, reported_at, concordance, concordance_at, created_at, updated_at)
					SELECT ?, hospital_id, user_id, 'p', ?, id, ?, ?, ?, ?, ?, ?, ? FROM consultations WHERE id = ?`,
					[]any{pick(centers), at, maybe(experts), arrived, reported, verdict, judgedAt, at, at, id}}}
			case 25: // a frozen section (of this case or a later one) reported again, judged again, handed to another expert, moved or withdrawn
				const which = "(SELECT MIN(id) FROM frozen_appointments WHERE consultation_id >= ?)"
				switch rng.IntN(5) {
				case 0:
					return []stmt{{"UPDATE frozen_appointments SET reported_at = ?, arrived_at = COALESCE(arrived_at, ?) WHERE id IN " + which, []any{at, at.Add(-time.Duration(1+rng.IntN(60)) * time.Minute), id}}}
				case 1:
					return []stmt{{"UPDATE frozen_appointments SET concordance = ?, concordance_at = ? WHERE id IN " + which, []any{[]string{"", "concordant", "discordant", "deferred"}[rng.IntN(4)], at, id}}}
				case 2:
					return []stmt{{"UPDATE frozen_appointments SET expert_id = ? WHERE id IN " + which, []any{maybe(experts), id}}}
				case 3:
					return []stmt{{"UPDATE frozen_appointments SET consultation_id = COALESCE((SELECT id FROM consultations WHERE id = ?), consultation_id) WHERE id IN " + which, []any{cases[rng.IntN(len(cases))], id}}}
				}
				return []stmt{{"DELETE FROM frozen_appointments WHERE id IN " + which, []any{id}}}
			case 26: // a supplement (of this case or a later one) published, its date corrected, or taken back
				var published any
				if rng.IntN(4) > 0 {
					published = at
				}
				return []stmt{{"UPDATE diagnoses SET published_at = ? WHERE id IN (SELECT MIN(id) FROM diagnoses WHERE consult_id >= ? AND type = 1)", []any{published, id}}}
			case 27: // a special exam asked for, its result in minutes to days, or not yet
				var done any
				if rng.IntN(4) > 0 {
					done = at.Add(time.Duration(rng.IntN(5*24*60)) * time.Minute)
				}
				return []stmt{{"INSERT INTO advices (consult_id, kind, item, created_by, created_at, done_at, updated_at) SELECT id, 'ihc', 'CK', ?, ?, ?, ? FROM consultations WHERE id = ?",
					[]any{site, at, done, at, id}}}
			case 28: // a special exam (of this case or a later one) answered, redated, moved to another case or withdrawn
				const which = "(SELECT MIN(id) FROM advices WHERE consult_id >= ?)"
				switch rng.IntN(4) {
				case 0:
					var done any
					if rng.IntN(4) > 0 {
						done = at
					}
					return []stmt{{"UPDATE advices SET done_at = ?, created_at = CASE WHEN created_at > ? THEN ? ELSE created_at END WHERE id IN " + which, []any{done, at, at.Add(-time.Duration(rng.IntN(3*24*60)) * time.Minute), id}}}
				case 1:
					return []stmt{{"UPDATE advices SET created_at = ? WHERE id IN " + which, []any{at.Add(-time.Duration(24*60+rng.IntN(3*24*60)) * time.Minute), id}}}
				case 2:
					return []stmt{{"UPDATE advices SET consult_id = COALESCE((SELECT id FROM consultations WHERE id = ?), consult_id) WHERE id IN " + which, []any{cases[rng.IntN(len(cases))], id}}}
				}
				return []stmt{{"DELETE FROM advices WHERE id IN " + which, []any{id}}}
			case 13: // a diagnosis withdrawn
				return []stmt{{"DELETE FROM diagnoses WHERE id IN (SELECT MIN(id) FROM diagnoses WHERE consult_id = ?)", []any{id}}}
			case 14: // a diagnosis's date corrected
				return []stmt{{"UPDATE diagnoses SET created_at = ? WHERE id IN (SELECT MAX(id) FROM diagnoses WHERE consult_id = ?)", []any{at, id}}}
			case 0: // submit, with or without a deadline
				var due any
				if rng.IntN(3) > 0 {
					due = deadline(at)
				}
				return []stmt{{"UPDATE consultations SET status = 1, submitted_at = ?, timeout_at = ? WHERE id = ?", []any{at, due, id}}}
			case 1, 31: // assign
				return []stmt{{"UPDATE consultations SET status = 1, expert_id = ?, assigned_at = ?, timeout_at = ? WHERE id = ?", []any{pick(experts), at, deadline(at), id}}}
			case 2: // to review
				return []stmt{{"UPDATE consultations SET status = 2 WHERE id = ?", []any{id}}}
			case 3, 4, 29, 30: // publish (a case never submitted is submitted a few hours before)
				return []stmt{{"UPDATE consultations SET status = 4, published_at = ?, submitted_at = COALESCE(submitted_at, ?) WHERE id = ?", []any{at, at.Add(-time.Duration(rng.IntN(72*60)) * time.Minute), id}}}
			case 5: // returned to the site
				return []stmt{{"UPDATE consultations SET status = 0, expert_id = NULL, assigned_at = NULL, timeout_at = NULL, published_at = NULL WHERE id = ?", []any{id}}}
			case 6: // referred to another expert
				return []stmt{{"UPDATE consultations SET expert_id = ? WHERE id = ?", []any{pick(experts), id}}}
			case 7: // moved to another hospital, center or library
				return []stmt{{"UPDATE consultations SET hospital_id = ?, center_id = ?, library_id = ? WHERE id = ?", []any{pick(hospitals), maybe(centers), maybe(libraries), id}}}
			case 8: // deleted
				return []stmt{{"UPDATE consultations SET deleted_at = ? WHERE id = ?", []any{at, id}}}
			case 9: // restored
				return []stmt{{"UPDATE consultations SET deleted_at = NULL WHERE id = ?", []any{id}}}
			case 10: // a registration date corrected, and a case locked (no figure moves)
				return []stmt{{"UPDATE consultations SET created_at = ?, is_lock = 1 - is_lock WHERE id = ?", []any{at, id}}}
			case 15, 16: // a log line, by an expert, someone else or nobody
				// An amendment (half of them, for its reasons to move with
				// enough cases) has its detail as its reason, counted as
				// written (empty, or with spaces around it, too).
				action := logActions[rng.IntN(len(logActions))]
				if rng.IntN(2) == 0 {
					action = "diagnosis_amend"
				}
				return []stmt{{"INSERT INTO case_logs (consult_id, user_id, action, created_at, detail) SELECT id, ?, ?, ?, ? FROM consultations WHERE id = ?",
					[]any{maybe(append(slices.Clone(experts), site)), action, at, logDetails[rng.IntN(len(logDetails))], id}}}
			case 17: // a charge, paid or not, refunded now and then
				var paid, refunded any
				if rng.IntN(4) > 0 {
					paid = at
					if rng.IntN(4) == 0 {
						refunded = at.Add(time.Duration(rng.IntN(3*24*60)) * time.Minute)
					}
				}
				fen := 1 + rng.IntN(90000)
				if rng.IntN(8) == 0 {
					fen = 0 // free: it adds no rollup row, and no hospital to a screen
				}
				return []stmt{{"INSERT INTO charges (consult_id, order_no, total_fen, charged_at, refunded_at, created_at) SELECT id, 'T', ?, ?, ?, ? FROM consultations WHERE id = ?",
					[]any{fen, paid, refunded, at, id}}}
			case 18: // a charge paid, refunded, corrected or its case's latest withdrawn
				switch rng.IntN(4) {
				case 0:
					return []stmt{{"UPDATE charges SET charged_at = ? WHERE id IN (SELECT MAX(id) FROM charges WHERE consult_id = ?)", []any{at, id}}}
				case 1:
					return []stmt{{"UPDATE charges SET refunded_at = ? WHERE id IN (SELECT MIN(id) FROM charges WHERE consult_id = ?)", []any{at, id}}}
				case 2:
					return []stmt{{"UPDATE charges SET total_fen = ?, consult_id = COALESCE((SELECT id FROM consultations WHERE id = ?), consult_id) WHERE id IN (SELECT MAX(id) FROM charges WHERE consult_id = ?)", []any{1 + rng.IntN(90000), cases[rng.IntN(len(cases))], id}}}
				}
				return []stmt{{"DELETE FROM charges WHERE id IN (SELECT MAX(id) FROM charges WHERE consult_id = ?)", []any{id}}}
			case 19: // an invitation, answered now and then
				var replied any
				if rng.IntN(3) == 0 {
					replied = at.Add(time.Duration(rng.IntN(2*24*60)) * time.Minute)
				}
				return []stmt{{"INSERT INTO invitations (consult_id, inviter_id, invitee_id, created_at, replied_at) SELECT id, ?, ?, ?, ? FROM consultations WHERE id = ?",
					[]any{pick(experts), pick(experts), at, replied, id}}}
			case 20: // an invitation answered or passed on, a log line corrected or withdrawn
				switch rng.IntN(5) {
				case 0:
					return []stmt{{"UPDATE invitations SET replied_at = ? WHERE id IN (SELECT MIN(id) FROM invitations WHERE consult_id = ?)", []any{at, id}}}
				case 1:
					return []stmt{{"UPDATE invitations SET invitee_id = ?, inviter_id = ? WHERE id IN (SELECT MAX(id) FROM invitations WHERE consult_id = ?)", []any{pick(experts), pick(experts), id}}}
				case 2:
					return []stmt{{"UPDATE case_logs SET created_at = ?, action = ? WHERE id IN (SELECT MAX(id) FROM case_logs WHERE consult_id = ?)", []any{at, logActions[rng.IntN(len(logActions))], id}}}
				case 3:
					return []stmt{{"UPDATE case_logs SET user_id = ?, detail = ? WHERE id IN (SELECT MIN(id) FROM case_logs WHERE consult_id = ?)", []any{maybe(experts), logDetails[rng.IntN(len(logDetails))], id}}}
				}
				return []stmt{{"DELETE FROM case_logs WHERE id IN (SELECT MIN(id) FROM case_logs WHERE consult_id = ?)", []any{id}},
					{"DELETE FROM invitations WHERE id IN (SELECT MIN(id) FROM invitations WHERE consult_id = ?)", []any{id}}}
			case 21, 23: // a slide, judged A to D (D with a reason)
				grade := statistics.Grades[rng.IntN(len(statistics.Grades))]
				reason := ""
				if grade == "D" {
					reason = []string{"too thick", "uneven stain"}[rng.IntN(2)]
				}
				return []stmt{{"INSERT INTO slides (consult_id, owner_id, hospital_id, filename, status, viewable, created_at, updated_at) SELECT id, user_id, hospital_id, 't.svs', 2, 1, ?, ? FROM consultations WHERE id = ?",
					[]any{at, at, id}},
					{"INSERT INTO slide_judgements (consult_id, slide_id, grade, reason, judged_by, created_at, updated_at) SELECT s.consult_id, s.id, ?, ?, ?, ?, ? FROM slides s WHERE s.id = (SELECT MAX(id) FROM slides WHERE consult_id = ?)",
						[]any{grade, reason, pick(experts), at, at, id}}}
			case 22: // a judgement (of this case or a later one) regraded, redated, moved to another case or withdrawn
				switch rng.IntN(4) {
				case 0:
					return []stmt{{"UPDATE slide_judgements SET grade = ?, updated_at = ? WHERE id IN (SELECT MIN(id) FROM slide_judgements WHERE consult_id >= ?)", []any{statistics.Grades[rng.IntN(len(statistics.Grades))], at, id}}}
				case 1:
					return []stmt{{"UPDATE slide_judgements SET created_at = ? WHERE id IN (SELECT MIN(id) FROM slide_judgements WHERE consult_id >= ?)", []any{at, id}}}
				case 2:
					return []stmt{{"UPDATE slide_judgements SET consult_id = COALESCE((SELECT id FROM consultations WHERE id = ?), consult_id) WHERE id IN (SELECT MIN(id) FROM slide_judgements WHERE consult_id >= ?)", []any{cases[rng.IntN(len(cases))], id}}}
				}
				return []stmt{{"DELETE FROM slide_judgements WHERE id IN (SELECT MIN(id) FROM slide_judgements WHERE consult_id >= ?)", []any{id}}}
			default: // removed for good, now and then (its activity first)
				if rng.IntN(3) > 0 {
					return []stmt{{"UPDATE consultations SET status = 4, published_at = ? WHERE id = ?", []any{at, id}}}
				}
				var out []stmt
				for _, table := range []string{"case_logs", "charges", "invitations", "slide_judgements", "advices"} {
					out = append(out, stmt{"DELETE FROM " + table + " WHERE consult_id = ? AND NOT EXISTS (SELECT 1 FROM diagnoses WHERE consult_id = ?)", []any{id, id}})
				}
				out = append(out, stmt{"DELETE FROM frozen_appointments WHERE consultation_id = ? AND NOT EXISTS (SELECT 1 FROM diagnoses WHERE consult_id = ?)", []any{id, id}})
				// Its slides, and any judgement of them moved to another case.
				out = append(out, stmt{"DELETE FROM slide_judgements WHERE slide_id IN (SELECT id FROM slides WHERE consult_id = ?) AND NOT EXISTS (SELECT 1 FROM diagnoses WHERE consult_id = ?)", []any{id, id}},
					stmt{"DELETE FROM slides WHERE consult_id = ? AND NOT EXISTS (SELECT 1 FROM diagnoses WHERE consult_id = ?)", []any{id, id}})
				return append(out, stmt{"DELETE FROM consultations WHERE id = ? AND NOT EXISTS (SELECT 1 FROM diagnoses WHERE consult_id = ?)", []any{id, id}})
			}
		}
		// 700 transactions, then more until there is the activity the guards
		// below need (a run that moved too little proves nothing and fails):
		// answered special exams and recent grade-D reasons on live cases. By
		// chance alone a run now and then had 4 of the 5 exams, or no reason.
		enough := func() bool {
			var specials, reasons int
			if err := d.Get(&specials, "SELECT COUNT(*) FROM advices a JOIN consultations c ON c.id = a.consult_id WHERE c.deleted_at IS NULL AND a.done_at IS NOT NULL"); err != nil {
				t.Fatal(err)
			}
			if err := d.Get(&reasons, d.Rebind("SELECT COUNT(*) FROM slide_judgements j JOIN consultations c ON c.id = j.consult_id WHERE c.deleted_at IS NULL AND j.grade = 'D' AND j.reason <> '' AND j.created_at >= ?"), now.AddDate(0, 0, -30).UTC()); err != nil {
				t.Fatal(err)
			}
			return specials >= 8 && reasons >= 2
		}
		ctx := context.Background()
		for i := 0; i < 700 || i < 3000 && !enough(); i++ {
			tx, err := d.BeginTxx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var made []int64
			n := 1
			if rng.IntN(5) == 0 {
				n = 2 + rng.IntN(2)
			}
			for ; n > 0; n-- {
				for _, s := range step() {
					if strings.HasPrefix(s.q, "INSERT INTO consultations") {
						var id int64
						if err := tx.Get(&id, d.Rebind(s.q+" RETURNING id"), s.args...); err != nil {
							t.Fatal(s.q, err)
						}
						made = append(made, id)
					} else if _, err := tx.Exec(d.Rebind(s.q), s.args...); err != nil {
						t.Fatal(s.q, err)
					}
				}
			}
			if rng.IntN(10) == 0 {
				if err := tx.Rollback(); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			cases = append(cases, made...)
		}

		// The rollups against the cases, row by row.
		check := func(when string) {
			t.Helper()
			var rows []rollupCase
			if err := d.Select(&rows, "SELECT id, center_id, hospital_id, expert_id, library_id, status, created_at, submitted_at, assigned_at, published_at, timeout_at, deleted_at FROM consultations"); err != nil {
				t.Fatal(err)
			}
			want := map[string]int64{}
			byID := map[int64]rollupCase{}
			for _, c := range rows {
				figuresOf(c, zone, want)
				byID[c.ID] = c
			}
			var diagnoses []struct {
				Case    int64     `db:"consult_id"`
				Created time.Time `db:"created_at"`
			}
			if err := d.Select(&diagnoses, "SELECT consult_id, created_at FROM diagnoses WHERE type = 0 AND version = 1"); err != nil {
				t.Fatal(err)
			}
			for _, g := range diagnoses {
				if c, ok := byID[g.Case]; ok && c.Deleted == nil {
					want[figureKey(statistics.FigDiagnosed, g.Created, c, zone)]++
				}
			}
			activityOf(t, d, byID, zone, want)
			// Each row at its four grains: every column, per center and
			// hospital, per center and expert, per center and library.
			grains := map[string]int64{}
			for k, v := range want {
				p := strings.Split(k, "|") // figure, day, center, hospital, expert, library
				grains[strings.Join([]string{p[0], "0", p[1], p[2], p[3], p[4], p[5]}, "|")] += v
				grains[strings.Join([]string{p[0], "1", p[1], p[2], p[3], "-1", "-1"}, "|")] += v
				grains[strings.Join([]string{p[0], "2", p[1], p[2], "-1", p[4], "-1"}, "|")] += v
				grains[strings.Join([]string{p[0], "3", p[1], p[2], "-1", "-1", p[5]}, "|")] += v
			}
			want = grains
			var held []struct {
				Figure string `db:"figure"`
				Grain  int    `db:"grain"`
				Day    string `db:"day"`
				Center int64  `db:"center_id"`
				Hosp   int64  `db:"hospital_id"`
				Expert int64  `db:"expert_id"`
				Lib    int64  `db:"library_id"`
				N      int64  `db:"n"`
			}
			if err := d.Select(&held, "SELECT figure, grain, day, center_id, hospital_id, expert_id, library_id, n FROM stat_daily WHERE n <> 0"); err != nil {
				t.Fatal(err)
			}
			got := map[string]int64{}
			for _, h := range held {
				got[fmt.Sprintf("%s|%d|%s|%d|%d|%d|%d", h.Figure, h.Grain, h.Day, h.Center, h.Hosp, h.Expert, h.Lib)] = h.N
			}
			if !reflect.DeepEqual(got, want) {
				for k, v := range want {
					if got[k] != v {
						t.Errorf("%s: rollup %s = %d, cases say %d", when, k, got[k], v)
					}
				}
				for k, v := range got {
					if _, ok := want[k]; !ok {
						t.Errorf("%s: rollup %s = %d, cases say 0", when, k, v)
					}
				}
			}
			if len(want) < 150 {
				t.Fatalf("%s: only %d rollup rows: the sequence moved too little to prove anything", when, len(want))
			}
			checkTurnarounds(t, when, d, rows, zone)
		}
		check("after the transitions")

		// Every screen, from the rollups and from the cases alone.
		day := func(t time.Time) string { return t.In(zone).Format("2006-01-02") }
		periods := []url.Values{
			{"start": {day(now.AddDate(0, 0, -45))}, "end": {day(now)}},
			{"start": {day(now.AddDate(0, 0, -45))}, "end": {day(now)}, "granularity": {"week"}},
			{"start": {day(now.AddDate(0, 0, -10))}, "end": {day(now.AddDate(0, 0, -10))}},
			{"start": {day(now)}, "end": {day(now)}},
			{"start": {day(now.AddDate(0, 0, -30))}, "end": {day(now.AddDate(0, 0, -1))}},
			{"start": {day(now.AddDate(0, 0, -95))}, "end": {day(now)}},
			{"start": {day(now.AddDate(0, 0, -95))}, "end": {day(now)}, "granularity": {"month"}},
			{"start": {local.AddDate(0, -2, 1-local.Day()).Format("2006-01-02")}, "end": {local.AddDate(0, 0, -local.Day()).Format("2006-01-02")}},
		}
		filters := []url.Values{{}, {"hospital_id": {fmt.Sprint(hospitals[0])}}, {"library_id": {fmt.Sprint(libraries[0])}},
			{"kind": {"routine"}}, {"expert_id": {fmt.Sprint(experts[0])}}, {"center_id": {fmt.Sprint(centers[0])}}}
		screens := []string{"consultation", "bank", "expert", "expert-consultation", "quality", "he", "outside", "diagnosis"}
		compared := 0
		reasonRows := map[string]int{} // the reasons' rows the comparisons saw
		for _, user := range []string{"admin", "center_admin", "site", "expert"} {
			token := e.login(user)
			for _, screen := range screens {
				for pi, p := range periods {
					for fi, f := range filters {
						if user != "admin" && fi > 0 {
							continue
						}
						q := url.Values{}
						for k, v := range p {
							q[k] = v
						}
						for k, v := range f {
							q[k] = v
						}
						path := "/api/statistical/" + screen + "?" + q.Encode()
						e.app.Statistics.ReadRollups(true)
						fromRollups := e.do("GET", path, token, nil, "user-language", "en-US")
						if fromRollups.Status == 403 {
							break
						}
						e.app.Statistics.ReadRollups(false)
						fromCases := e.expect(e.do("GET", path, token, nil, "user-language", "en-US"), 200)
						e.expect(fromRollups, 200)
						var a, b statReport
						e.decode(fromRollups, &a)
						e.decode(fromCases, &b)
						if !reflect.DeepEqual(a, b) {
							t.Errorf("%s %s period %d filter %v: rollups\n%s\ncases\n%s", user, screen, pi, f, fromRollups.Body, fromCases.Body)
						}
						compared++
						for _, tab := range a.Data.Tables {
							if tab.Key == "amend_reasons" || tab.Key == "grade_d_reasons" {
								reasonRows[tab.Key] += len(tab.Rows)
							}
						}
					}
				}
			}
		}
		e.app.Statistics.ReadRollups(true)
		if compared < 100 {
			t.Errorf("compared %d screens", compared)
		}
		if reasonRows["amend_reasons"] == 0 || reasonRows["grade_d_reasons"] == 0 {
			t.Errorf("the comparisons saw too few reasons to prove anything: %v", reasonRows)
		}

		// The turnaround percentiles, from the rollups' buckets, are those of
		// the durations themselves, sorted here, rounded to the tenth of an
		// hour the screens show.
		var rows []rollupCase
		if err := d.Select(&rows, "SELECT id, center_id, hospital_id, expert_id, library_id, status, created_at, submitted_at, assigned_at, published_at, timeout_at, deleted_at FROM consultations"); err != nil {
			t.Fatal(err)
		}
		admin := e.login("admin")
		for _, p := range periods {
			if p.Get("granularity") != "" {
				continue
			}
			from, _ := time.ParseInLocation("2006-01-02", p.Get("start"), zone)
			to, _ := time.ParseInLocation("2006-01-02", p.Get("end"), zone)
			checked := checkPercentiles(t, e.stat(admin, "consultation", p), rows, from, to.AddDate(0, 0, 1), "by_hospital", "tat_median", "tat_p90",
				func(c rollupCase) (string, *time.Time) { return fmt.Sprint(c.Hospital), c.Submitted })
			checked += checkPercentiles(t, e.stat(admin, "expert", p), rows, from, to.AddDate(0, 0, 1), "by_expert", "expert_tat_median", "expert_tat_p90",
				func(c rollupCase) (string, *time.Time) {
					if c.Expert == nil {
						return "", c.Assigned
					}
					return fmt.Sprint(*c.Expert), c.Assigned
				})
			if p.Get("start") == day(now.AddDate(0, 0, -95)) && checked < 10 {
				t.Errorf("period %v: only %d percentiles checked", p, checked)
			}
		}

		// Counting them again (a change of zone) gives the same rollups, and
		// the reasons the triggers kept are those counted set-wise.
		reasons := func() map[string]int64 {
			var rows []struct {
				K string `db:"k"`
				N int64  `db:"n"`
			}
			if err := d.Select(&rows, "SELECT figure || '|' || grain || '|' || day || '|' || center_id || '|' || hospital_id || '|' || expert_id || '|' || library_id || '|' || reason AS k, n FROM stat_reasons WHERE n <> 0"); err != nil {
				t.Fatal(err)
			}
			out := map[string]int64{}
			for _, r := range rows {
				out[r.K] = r.N
			}
			return out
		}
		kept := reasons()
		if err := e.app.Statistics.Rebuild(ctx, 330); err != nil {
			t.Fatal(err)
		}
		check("after a rebuild")
		if counted := reasons(); !reflect.DeepEqual(kept, counted) {
			t.Errorf("reasons kept by the triggers\n%v\ncounted again\n%v", kept, counted)
		}
	})
}

// checkTurnarounds compares the turnaround rollups with the buckets counted
// from the cases: per span, grain, local month, center, hospital, expert,
// library and tenths of an hour (whole seconds, rounded half away from zero).
func checkTurnarounds(t *testing.T, when string, d interface {
	Select(any, string, ...any) error
}, rows []rollupCase, zone *time.Location) {
	t.Helper()
	z := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	want := map[string]int64{}
	for _, c := range rows {
		if c.Deleted != nil || c.Published == nil {
			continue
		}
		for span, start := range map[string]*time.Time{"submit": c.Submitted, "assign": c.Assigned} {
			if start == nil {
				continue
			}
			tenths := int64(math.Round(float64(c.Published.Unix()-start.Unix()) / 360))
			month := c.Published.In(zone).Format("2006-01")
			want[fmt.Sprintf("%s|0|%s|%d|%d|%d|%d|%d", span, month, z(c.Center), c.Hospital, z(c.Expert), z(c.Library), tenths)]++
			want[fmt.Sprintf("%s|1|%s|%d|%d|-1|-1|%d", span, month, z(c.Center), c.Hospital, tenths)]++
			want[fmt.Sprintf("%s|2|%s|%d|-1|%d|-1|%d", span, month, z(c.Center), z(c.Expert), tenths)]++
			want[fmt.Sprintf("%s|3|%s|%d|-1|-1|%d|%d", span, month, z(c.Center), z(c.Library), tenths)]++
		}
	}
	// The special exams: each advice with a result, from its creation to
	// its result, dated by the result, under its case's columns.
	var advices []struct {
		Case    int64      `db:"consult_id"`
		Created time.Time  `db:"created_at"`
		Done    *time.Time `db:"done_at"`
	}
	if err := d.Select(&advices, "SELECT consult_id, created_at, done_at FROM advices"); err != nil {
		t.Fatal(err)
	}
	byID := map[int64]rollupCase{}
	for _, c := range rows {
		byID[c.ID] = c
	}
	specials := 0
	for _, a := range advices {
		c, ok := byID[a.Case]
		if !ok || c.Deleted != nil || a.Done == nil {
			continue
		}
		specials++
		tenths := int64(math.Round(float64(a.Done.Unix()-a.Created.Unix()) / 360))
		month := a.Done.In(zone).Format("2006-01")
		want[fmt.Sprintf("advice|0|%s|%d|%d|%d|%d|%d", month, z(c.Center), c.Hospital, z(c.Expert), z(c.Library), tenths)]++
		want[fmt.Sprintf("advice|1|%s|%d|%d|-1|-1|%d", month, z(c.Center), c.Hospital, tenths)]++
		want[fmt.Sprintf("advice|2|%s|%d|-1|%d|-1|%d", month, z(c.Center), z(c.Expert), tenths)]++
		want[fmt.Sprintf("advice|3|%s|%d|-1|-1|%d|%d", month, z(c.Center), z(c.Library), tenths)]++
	}
	if specials < 5 {
		t.Fatalf("%s: only %d special exams with a result", when, specials)
	}
	var held []struct {
		Span   string `db:"span"`
		Grain  int    `db:"grain"`
		Month  string `db:"month"`
		Center int64  `db:"center_id"`
		Hosp   int64  `db:"hospital_id"`
		Expert int64  `db:"expert_id"`
		Lib    int64  `db:"library_id"`
		Tenths int64  `db:"tenths"`
		N      int64  `db:"n"`
	}
	if err := d.Select(&held, "SELECT span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n FROM stat_turnaround WHERE n <> 0"); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, h := range held {
		got[fmt.Sprintf("%s|%d|%s|%d|%d|%d|%d|%d", h.Span, h.Grain, h.Month, h.Center, h.Hosp, h.Expert, h.Lib, h.Tenths)] = h.N
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: turnaround rollups\n%v\ncases say\n%v", when, got, want)
	}
	if len(want) < 45 {
		t.Fatalf("%s: only %d turnaround rollup rows", when, len(want))
	}
}

// checkPercentiles compares a screen's median and 90th percentile columns
// of table, per row and in its total, with the nearest-rank percentiles of
// the durations of the cases published from from to to (each case's key and
// start from keyOf), rounded to the tenth of an hour. It returns how many
// values it compared.
func checkPercentiles(t *testing.T, rep statistics.Stats, rows []rollupCase, from, to time.Time, table, p50, p90 string, keyOf func(rollupCase) (string, *time.Time)) int {
	t.Helper()
	durations := map[string][]int64{}
	for _, c := range rows {
		k, start := keyOf(c)
		if c.Deleted != nil || c.Published == nil || start == nil || c.Published.Before(from) || !c.Published.Before(to) {
			continue
		}
		sec := c.Published.Unix() - start.Unix()
		durations[k] = append(durations[k], sec)
		durations["total"] = append(durations["total"], sec)
	}
	nearest := func(ds []int64, p int) *float64 {
		if len(ds) == 0 {
			return nil
		}
		slices.Sort(ds)
		v := math.Round(float64(ds[(len(ds)*p+99)/100-1])/360) / 10
		return &v
	}
	compared := 0
	for _, tab := range rep.Tables {
		if tab.Key != table {
			continue
		}
		col := map[string]int{}
		for i, c := range tab.Columns {
			col[c.Key] = i
		}
		for _, row := range tab.Rows {
			ds := durations[row.Key]
			for key, p := range map[string]int{p50: 50, p90: 90} {
				want, got := nearest(ds, p), row.Values[col[key]]
				if (want == nil) != (got == nil) || want != nil && *want != *got {
					t.Errorf("%s %s %s from %s: %v, the durations say %v", table, row.Key, key, from.Format("2006-01-02"), fmtPtr(got), fmtPtr(want))
				}
				if want != nil {
					compared++
				}
			}
		}
	}
	return compared
}

func fmtPtr(v *float64) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprint(*v)
}

// logActions are the log actions the activity figures count, and one they do not.
// logDetails are the details of the log lines: an amendment's reason.
var logDetails = []string{"", "wrong site", "typo", " typo "}

var logActions = []string{"expert_return", "return_to_site", "recall_agree", "counter_audit", "diagnosis_amend", "expert_referral",
	"review_approve", "reviewreturn", "append_approve", "append_reviewreturn", "submit"}

// activityOf adds what the log lines, charges and invitations of the cases
// of byID add to the rollups (a deleted case's nothing), by the definitions
// of internal/statistics/activity.go, written again here. An author's
// figure counts under the author as expert (0 for none).
func activityOf(t *testing.T, d interface {
	Select(any, string, ...any) error
}, byID map[int64]rollupCase, zone *time.Location, into map[string]int64) {
	t.Helper()
	add := func(fig string, at *time.Time, id int64, author *int64, byAuthor bool, n int64) {
		c, ok := byID[id]
		if !ok || c.Deleted != nil || at == nil || n == 0 {
			return
		}
		if byAuthor {
			var none int64
			if author == nil {
				author = &none
			}
			c.Expert = author
		}
		into[figureKey(fig, *at, c, zone)] += n
	}
	var logs []struct {
		Case   int64     `db:"consult_id"`
		User   *int64    `db:"user_id"`
		Action string    `db:"action"`
		At     time.Time `db:"created_at"`
	}
	if err := d.Select(&logs, "SELECT consult_id, user_id, action, created_at FROM case_logs"); err != nil {
		t.Fatal(err)
	}
	review := []string{"review_approve", "reviewreturn", "append_approve", "append_reviewreturn"}
	for _, l := range logs {
		is := func(actions ...string) bool { return slices.Contains(actions, l.Action) }
		for fig, counts := range map[string]bool{
			statistics.FigReturned: is("expert_return", "return_to_site"), statistics.FigRecalled: is("recall_agree"),
			statistics.FigCounterAudit: is("counter_audit"), statistics.FigAmended: is("diagnosis_amend"),
			statistics.FigCaseReviewed: is(review...), statistics.FigDisagreed: is("reviewreturn", "append_reviewreturn"),
		} {
			if counts {
				add(fig, &l.At, l.Case, nil, false, 1)
			}
		}
		for fig, counts := range map[string]bool{
			statistics.FigReviewed: is(review...), statistics.FigReferred: is("expert_referral"), statistics.FigExpertReturned: is("expert_return"),
		} {
			if counts {
				add(fig, &l.At, l.Case, l.User, true, 1)
			}
		}
	}
	var charges []struct {
		Case     int64      `db:"consult_id"`
		Fen      int64      `db:"total_fen"`
		Charged  *time.Time `db:"charged_at"`
		Refunded *time.Time `db:"refunded_at"`
	}
	if err := d.Select(&charges, "SELECT consult_id, total_fen, charged_at, refunded_at FROM charges"); err != nil {
		t.Fatal(err)
	}
	for _, ch := range charges {
		add(statistics.FigCharged, ch.Charged, ch.Case, nil, false, ch.Fen)
		add(statistics.FigRefunded, ch.Refunded, ch.Case, nil, false, ch.Fen)
	}
	var invites []struct {
		Case    int64      `db:"consult_id"`
		Inviter int64      `db:"inviter_id"`
		Invitee int64      `db:"invitee_id"`
		Created time.Time  `db:"created_at"`
		Replied *time.Time `db:"replied_at"`
	}
	if err := d.Select(&invites, "SELECT consult_id, inviter_id, invitee_id, created_at, replied_at FROM invitations"); err != nil {
		t.Fatal(err)
	}
	for _, i := range invites {
		add(statistics.FigInviteSent, &i.Created, i.Case, &i.Inviter, true, 1)
		add(statistics.FigInviteAnswered, i.Replied, i.Case, &i.Invitee, true, 1)
	}
	var judgements []struct {
		Case    int64     `db:"consult_id"`
		Grade   string    `db:"grade"`
		Created time.Time `db:"created_at"`
	}
	if err := d.Select(&judgements, "SELECT consult_id, grade, created_at FROM slide_judgements"); err != nil {
		t.Fatal(err)
	}
	for _, j := range judgements {
		add(statistics.FigGrade(j.Grade), &j.Created, j.Case, nil, false, 1)
	}
	var frozen []struct {
		Case     *int64     `db:"consultation_id"`
		Expert   *int64     `db:"expert_id"`
		Arrived  *time.Time `db:"arrived_at"`
		Reported *time.Time `db:"reported_at"`
		Verdict  string     `db:"concordance"`
		Judged   *time.Time `db:"concordance_at"`
	}
	if err := d.Select(&frozen, "SELECT consultation_id, expert_id, arrived_at, reported_at, concordance, concordance_at FROM frozen_appointments"); err != nil {
		t.Fatal(err)
	}
	for _, f := range frozen {
		if f.Case == nil {
			continue
		}
		if f.Arrived != nil {
			add(statistics.FigFrozenReported, f.Reported, *f.Case, f.Expert, true, 1)
			if f.Reported != nil && f.Reported.Sub(*f.Arrived) <= statistics.FrozenLimit*time.Second {
				add(statistics.FigFrozenInTime, f.Reported, *f.Case, f.Expert, true, 1)
			}
		}
		for fig, counts := range map[string]bool{statistics.FigConcordant: f.Verdict == "concordant",
			statistics.FigConcordanceJudged: f.Verdict == "concordant" || f.Verdict == "discordant", statistics.FigConcordanceDeferred: f.Verdict == "deferred"} {
			if counts {
				add(fig, f.Judged, *f.Case, f.Expert, true, 1)
			}
		}
	}
	var supplements []struct {
		Case      int64      `db:"consult_id"`
		Published *time.Time `db:"published_at"`
	}
	if err := d.Select(&supplements, "SELECT consult_id, published_at FROM diagnoses WHERE type = 1"); err != nil {
		t.Fatal(err)
	}
	for _, s := range supplements {
		add(statistics.FigSupplemented, s.Published, s.Case, nil, false, 1)
	}
}
