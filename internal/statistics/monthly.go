package statistics

import (
	"time"

	"telepath/internal/platform/db"
)

// The monthly and weekly rollups (stat_monthly, stat_weekly, migration
// 0071) are stat_daily summed per local month and week, each named by its
// first day, kept by triggers on stat_daily. A screen by month or week
// reads the whole months or weeks of its period there and the days at its
// edges in stat_daily: the same sums, a thirtieth or a seventh of the
// rows.

// rollupPart is a run of days, from start to end (exclusive, YYYY-MM-DD),
// that one rollup table answers for.
type rollupPart struct {
	table, start, end string
}

// rollupParts cuts the days of the period the rollups hold, from the
// period's start to until (exclusive), into the parts each table reads:
// the whole months of a screen by month in stat_monthly, the whole weeks
// of a screen by week in stat_weekly (one bucket each), the days at the
// edges in stat_daily.
func rollupParts(r *run, until string) []rollupPart {
	days := rollupPart{"stat_daily", r.start, until}
	table, first, last := "", "", ""
	switch r.granularity {
	case "month":
		table, first, last = "stat_monthly", r.start[:8]+"01", until[:8]+"01"
		if first < r.start {
			first = shift(first, 0, 1, 0)
		}
	case "week":
		table, first, last = "stat_weekly", monday(r.start), monday(until)
		if first < r.start {
			first = shift(first, 0, 0, 7)
		}
	default:
		return []rollupPart{days}
	}
	if first >= last {
		return []rollupPart{days}
	}
	var parts []rollupPart
	for _, p := range []rollupPart{{"stat_daily", r.start, first}, {table, first, last}, {"stat_daily", last, until}} {
		if p.start < p.end {
			parts = append(parts, p)
		}
	}
	return parts
}

// shift is day (YYYY-MM-DD) moved by years, months and days.
func shift(day string, years, months, days int) string {
	t, err := time.Parse(dayLayout, day)
	if err != nil {
		return day
	}
	return t.AddDate(years, months, days).Format(dayLayout)
}

// monday is the Monday of day's week (the label of its week's bucket).
func monday(day string) string {
	t, err := time.Parse(dayLayout, day)
	if err != nil {
		return day
	}
	return bucketLabel(t, "week")
}

// monthlyRebuild is what a rebuild of the rollups does for the monthly
// and weekly ones: before, it turns their triggers off for its transaction (they
// would follow each of the millions of days it deletes and writes); after,
// it sums the days again by month and by week, the turnaround months by
// year, and turns the triggers back on.
func monthlyRebuild(dialect db.Dialect) (before, after []string) {
	week := "date(day, 'weekday 0', '-6 days')" // the Monday of the day's week, as the migration's triggers
	if dialect == db.Postgres {
		week = "to_char(date_trunc('week', day::date), 'YYYY-MM-DD')"
	}
	return []string{"UPDATE stat_zone SET rebuilding = 1 WHERE id = 1"},
		[]string{"DELETE FROM stat_monthly",
			"INSERT INTO stat_monthly (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)" +
				" SELECT figure, grain, SUBSTR(day, 1, 8) || '01', center_id, hospital_id, expert_id, library_id, SUM(n)" +
				" FROM stat_daily GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7",
			"DELETE FROM stat_weekly",
			"INSERT INTO stat_weekly (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)" +
				" SELECT figure, grain, " + week + ", center_id, hospital_id, expert_id, library_id, SUM(n)" +
				" FROM stat_daily GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7",
			"DELETE FROM stat_turnaround_yearly",
			"INSERT INTO stat_turnaround_yearly (span, grain, year, center_id, hospital_id, expert_id, library_id, tenths, n)" +
				" SELECT span, grain, SUBSTR(month, 1, 4), center_id, hospital_id, expert_id, library_id, tenths, SUM(n)" +
				" FROM stat_turnaround GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8",
			"UPDATE stat_zone SET rebuilding = 0 WHERE id = 1"}
}

// turnaroundPart is a run of the turnaround rollups' months, from first to
// last (exclusive, YYYY-MM), that one table answers for: stat_turnaround by
// month, stat_turnaround_yearly (migration 0071) by year for the whole
// years among them.
type turnaroundPart struct {
	table, column, first, last string
}

// turnaroundParts cuts the whole months from first to last (exclusive,
// YYYY-MM) into the parts each table reads.
func turnaroundParts(first, last string) []turnaroundPart {
	months := turnaroundPart{"stat_turnaround", "month", first, last}
	y0, y1 := first[:4], last[:4]
	if first[5:] != "01" {
		y0 = shift(y0+"-01-01", 1, 0, 0)[:4]
	}
	if y0 >= y1 {
		return []turnaroundPart{months}
	}
	var parts []turnaroundPart
	for _, p := range []turnaroundPart{{"stat_turnaround", "month", first, y0 + "-01"}, {"stat_turnaround_yearly", "year", y0, y1}, {"stat_turnaround", "month", y1 + "-01", last}} {
		if p.first < p.last {
			parts = append(parts, p)
		}
	}
	return parts
}
