package statistics

import "time"

// The monthly rollups (stat_monthly, migration 0071) are stat_daily summed
// per local month, the month named by its first day, kept by triggers on
// stat_daily. A screen by month reads the whole months of its period
// there and the days at its edges in stat_daily: the same sums, a
// thirtieth of the rows over three years.

// rollupPart is a run of days, from start to end (exclusive, YYYY-MM-DD),
// that one rollup table answers for.
type rollupPart struct {
	table, start, end string
}

// rollupParts cuts the days of the period the rollups hold, from the
// period's start to until (exclusive), into the parts each table reads:
// the whole months in stat_monthly when the screen is by month (a month
// is one bucket), the days at the edges in stat_daily.
func rollupParts(r *run, until string) []rollupPart {
	days := rollupPart{"stat_daily", r.start, until}
	if r.granularity != "month" {
		return []rollupPart{days}
	}
	first := r.start[:8] + "01"
	if first < r.start {
		first = nextMonth(first)
	}
	last := until[:8] + "01"
	if first >= last {
		return []rollupPart{days}
	}
	var parts []rollupPart
	for _, p := range []rollupPart{{"stat_daily", r.start, first}, {"stat_monthly", first, last}, {"stat_daily", last, until}} {
		if p.start < p.end {
			parts = append(parts, p)
		}
	}
	return parts
}

// nextMonth is the first day of the month after that of day (YYYY-MM-01).
func nextMonth(day string) string {
	t, err := time.Parse(dayLayout, day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 1, 0).Format(dayLayout)
}

// monthlyRebuild is what a rebuild of the rollups does for the monthly
// ones: before, it turns their triggers off for its transaction (they
// would follow each of the millions of days it deletes and writes); after,
// it sums the days again by month and turns the triggers back on.
func monthlyRebuild() (before, after []string) {
	return []string{"UPDATE stat_zone SET rebuilding = 1 WHERE id = 1"},
		[]string{"DELETE FROM stat_monthly",
			"INSERT INTO stat_monthly (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)" +
				" SELECT figure, grain, SUBSTR(day, 1, 8) || '01', center_id, hospital_id, expert_id, library_id, SUM(n)" +
				" FROM stat_daily GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7",
			"UPDATE stat_zone SET rebuilding = 0 WHERE id = 1"}
}
