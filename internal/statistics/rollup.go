package statistics

import (
	"context"
	"fmt"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Figures are the counts of cases by one of their instants that the daily
// rollups (table stat_daily, migration 0046) keep per local day, center,
// hospital, expert and library. Each is defined here for the live read of
// the cases, and in the migration's stat_case_figures for the rollups;
// TestStatisticsRollups checks that both give the same numbers.
const (
	FigRegistered   = "registered"    // created_at
	FigSubmitted    = "submitted"     // submitted_at
	FigAssigned     = "assigned"      // assigned_at
	FigPublished    = "published"     // published_at
	FigTimedOut     = "timed_out"     // timeout_at, not published by then
	FigInTime       = "in_time"       // published_at, by a deadline
	FigWithDeadline = "with_deadline" // published_at, with a deadline
	FigInProgress   = "in_progress"   // assigned_at, not published and at the center or the expert
	FigDiagnosed    = "diagnosed"     // a first diagnosis's created_at (one per diagnosis row)
)

// Figures lists them all.
var Figures = []string{FigRegistered, FigSubmitted, FigAssigned, FigPublished, FigTimedOut, FigInTime, FigWithDeadline, FigInProgress, FigDiagnosed}

// figure is the rows, instant and conditions of a figure on the case row c
// (the rows are the cases unless from says otherwise). A deadline counts as
// missed only once it has passed: the rollups hold whole days before
// today, whose deadlines all have.
func figure(r *run, name string) (from, at string, where []sq.Sqlizer) {
	from = fromCases
	switch name {
	case FigDiagnosed:
		return fromDiagnoses, "d.created_at", []sq.Sqlizer{sq.Expr("d.type = 0 AND d.version = 1")}
	case FigSubmitted:
		return from, "c.submitted_at", nil
	case FigAssigned:
		return from, "c.assigned_at", nil
	case FigPublished:
		return from, "c.published_at", nil
	case FigTimedOut:
		return from, "c.timeout_at", []sq.Sqlizer{sq.Expr("c.timeout_at <= ? AND (c.published_at IS NULL OR c.published_at > c.timeout_at)", r.now)}
	case FigInTime:
		return from, "c.published_at", []sq.Sqlizer{sq.Expr("c.timeout_at IS NOT NULL AND c.published_at <= c.timeout_at")}
	case FigWithDeadline:
		return from, "c.published_at", []sq.Sqlizer{sq.Expr("c.timeout_at IS NOT NULL")}
	case FigInProgress:
		return from, "c.assigned_at", []sq.Sqlizer{sq.Expr("c.published_at IS NULL AND c.status IN (1, 2)")}
	}
	return from, "c.created_at", nil
}

// caseFigure is the measure of figure name over the cases, keyed by key,
// with further conditions on the case's center, hospital, expert or
// library (the columns the rollups keep).
func caseFigure(name, key string, where ...sq.Sqlizer) measure {
	return measure{fig: name, key: key, where: where}
}

// fixedOffset is zone's offset in minutes if it has been and will be the
// same over the longest period a screen reads (no daylight saving time, no
// change of offset), around now.
func fixedOffset(zone *time.Location, now time.Time) (int, bool) {
	_, off := time.Date(now.Year(), 1, 1, 0, 0, 0, 0, zone).Zone()
	for y := now.Year() - MaxYears - 1; y <= now.Year()+1; y++ {
		for _, m := range []time.Month{time.January, time.April, time.July, time.October} {
			if _, o := time.Date(y, m, 1, 0, 0, 0, 0, zone).Zone(); o != off {
				return 0, false
			}
		}
	}
	return off / 60, true
}

// Start makes the daily rollups follow the configured time zone: when its
// offset is not the one they were counted in (the migration counts in
// UTC+8, Asia/Shanghai, the default zone), they are counted again in one
// transaction. A zone with daylight saving time has no single local day
// for an instant's shift, so its screens read the cases instead.
func (s *Service) Start(ctx context.Context) error {
	off, fixed := fixedOffset(s.clock.Zone(), s.clock.Now())
	if !fixed {
		s.rollups = false
		return nil
	}
	var stored int
	if err := s.db.GetContext(ctx, &stored, "SELECT offset_minutes FROM stat_zone WHERE id = 1"); err != nil {
		return apperr.Wrap(err, "read rollup zone")
	}
	if stored != off {
		if err := s.Rebuild(ctx, off); err != nil {
			return err
		}
	}
	s.rollups = true
	return nil
}

// ReadRollups turns the reading of the rollups on or off (off: every figure
// is counted on the cases, as the comparison test does). Start turns it on
// for a zone without daylight saving time.
func (s *Service) ReadRollups(on bool) { s.rollups = on }

// Rebuild counts the daily rollups again from the cases, with local days at
// offset minutes east of UTC, in one transaction.
func (s *Service) Rebuild(ctx context.Context, offset int) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error { return RebuildRollups(ctx, tx, offset) })
}

// RebuildRollups counts the daily and turnaround rollups again from the
// cases and their activity in tx, with local days at offset minutes east
// of UTC: what the triggers of migrations 0046, 0048, 0049, 0059, 0068, 0071, 0073 and 0074 keep,
// counted set-wise (the bench data loader, which writes the cases with the
// triggers off, uses it too). The rows are written in the order of their
// key, the order a screen reads them in (migration 0066).
func RebuildRollups(ctx context.Context, tx *db.Tx, offset int) error {
	r := &run{dialect: tx.Dialect, offset: offset}
	stmts := []string{}
	if tx.Dialect == db.Postgres {
		// No case or activity may change while its figures are counted again.
		stmts = append(stmts, "LOCK TABLE consultations, case_logs, charges, invitations, slide_judgements, advices IN SHARE MODE")
	}
	before, after := monthlyRebuild(tx.Dialect)
	stmts = append(stmts, before...)
	stmts = append(stmts, fmt.Sprintf("UPDATE stat_zone SET offset_minutes = %d WHERE id = 1", offset),
		"DELETE FROM stat_daily",
		"INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n) SELECT figure, grain, "+r.day("at")+
			", center_id, "+grainColumns+", SUM(n)"+
			" FROM stat_case_figures CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7",
		"DELETE FROM stat_turnaround",
		"INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n) SELECT span, grain, SUBSTR("+r.day("at")+", 1, 7)"+
			", center_id, "+grainColumns+", tenths, COUNT(*)"+
			" FROM stat_case_turnarounds CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8",
		// The special exams (migration 0074), a span of their own.
		"INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n) SELECT span, grain, SUBSTR("+r.day("at")+", 1, 7)"+
			", center_id, "+grainColumns+", tenths, COUNT(*)"+
			" FROM stat_advice_turnarounds CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8")
	stmts = append(stmts, reasonsRebuild(r)...)
	stmts = append(stmts, after...)
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return apperr.Wrap(err, "rebuild statistics rollups")
		}
	}
	return nil
}

// rollupKey is a key expression read from the rollups, where a missing
// center, expert or library is 0 instead of NULL.
var rollupKey = strings.NewReplacer("c.expert_id", "NULLIF(c.expert_id, 0)", "c.library_id", "NULLIF(c.library_id, 0)", "c.center_id", "NULLIF(c.center_id, 0)")

// cut cuts the run's period at the first instant the rollups do not
// hold (the local midnight that starts today): it returns the last day
// they answer for (exclusive, "" when none) and the instant the live read
// starts at.
func (s *Service) cut(r *run) (string, time.Time) {
	if !s.rollups {
		return "", r.from
	}
	zone := s.clock.Zone()
	today := r.now.In(zone)
	cut := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, zone).UTC()
	if !cut.After(r.from) {
		return "", r.from
	}
	if cut.After(r.to) {
		cut = r.to
	}
	return cut.In(zone).Format(dayLayout), cut
}

// The grains of the rollups: every column, per center and hospital (expert
// and library -1), per center and expert (hospital and library -1), per
// center and library (hospital and expert -1; migration 0049).
const (
	grainAll      = 0
	grainHospital = 1
	grainExpert   = 2
	grainLibrary  = 3
)

// grainColumns is the SQL of a rollup row's hospital, expert and library at
// its grain, from the columns of a case (the migrations' triggers write the
// same).
const grainColumns = "CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END"

// grainFor is the coarsest grain that answers a question naming the
// rollup columns in sql: a screen by hospital reads one row per hospital
// and day, not one per hospital, expert and library.
func grainFor(sql string) int {
	hospital, expert, library := strings.Contains(sql, "c.hospital_id"), strings.Contains(sql, "c.expert_id"), strings.Contains(sql, "c.library_id")
	switch {
	case !expert && !library:
		return grainHospital
	case !hospital && !library:
		return grainExpert
	case !hospital && !expert:
		return grainLibrary
	}
	return grainAll
}

// rolled runs a figure's measure over the rollups' whole days of the
// period, before day until (exclusive), into rows of key, day and sum:
// the whole months or weeks of a screen by month or week from the
// monthly or weekly rollups (rollupParts), the other days from the daily
// ones.
func (s *Service) rolled(ctx context.Context, r *run, m measure, until string) ([]keyDay, error) {
	if isReason(m.fig) {
		return s.rolledPart(ctx, r, m, rollupPart{"stat_reasons", r.start, until})
	}
	var rows []keyDay
	for _, p := range rollupParts(r, until) {
		rs, err := s.rolledPart(ctx, r, m, p)
		if err != nil {
			return nil, err
		}
		rows = append(rows, rs...)
	}
	return rows, nil
}

// rolledPart runs a figure's measure over the days of part p.
func (s *Service) rolledPart(ctx context.Context, r *run, m measure, p rollupPart) ([]keyDay, error) {
	from := p.table + " c"
	if m.from == fromLibCases {
		from += " JOIN libraries lib ON lib.id = c.library_id"
	}
	w := append(r.filters("c.expert_id", true), m.where...)
	cond, args, err := w.ToSql()
	if err != nil {
		return nil, apperr.Wrap(err, "build statistics query")
	}
	grain := grainFor(m.key + " " + from + " " + cond)
	if cond == "" {
		cond = "1 = 1"
	}
	// The grain is a literal: SQLite's indexes of grain 0 (migration 0067)
	// serve only a query that names it.
	cond = fmt.Sprintf("c.figure = ? AND c.grain = %d AND c.day >= ? AND c.day < ? AND ", grain) + cond
	args = append([]any{m.fig, p.start, p.end}, args...)
	// A screen by month sums each month's days here, not in Go: a month's
	// first day of the period stands for it (count puts a day in its
	// month's bucket), and a three-year read returns a thirtieth of the rows.
	day, group := "c.day", "c.day"
	if r.granularity == "month" {
		day, group = "MIN(c.day)", "SUBSTR(c.day, 1, 7)"
	}
	query := "SELECT " + text(rollupKey.Replace(m.key)) + " AS k, " + day + " AS d, SUM(c.n) AS n FROM " + from + " WHERE " + cond +
		" GROUP BY 1, " + group + " HAVING SUM(c.n) <> 0" // a day a case left is 0, not absent
	var rows []keyDay
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(query), args...); err != nil {
		return nil, apperr.Wrap(err, "statistics rollup query")
	}
	return rows, nil
}
