package statistics

import (
	"reflect"
	"testing"
)

// The parts of a period each rollup table reads: whole months or weeks
// (by the screen's buckets) and whole turnaround years, days or months at
// the edges.
func TestRollupParts(t *testing.T) {
	for _, c := range []struct {
		gran, start, until string
		want               []rollupPart
	}{
		{"month", "2023-11-28", "2026-11-27", []rollupPart{{"stat_daily", "2023-11-28", "2023-12-01"}, {"stat_monthly", "2023-12-01", "2026-11-01"}, {"stat_daily", "2026-11-01", "2026-11-27"}}},
		{"month", "2026-01-01", "2026-03-01", []rollupPart{{"stat_monthly", "2026-01-01", "2026-03-01"}}},
		{"month", "2026-01-02", "2026-01-31", []rollupPart{{"stat_daily", "2026-01-02", "2026-01-31"}}},
		{"week", "2025-11-28", "2026-11-27", []rollupPart{{"stat_daily", "2025-11-28", "2025-12-01"}, {"stat_weekly", "2025-12-01", "2026-11-23"}, {"stat_daily", "2026-11-23", "2026-11-27"}}},
		{"week", "2026-11-23", "2026-11-30", []rollupPart{{"stat_weekly", "2026-11-23", "2026-11-30"}}},
		{"day", "2026-01-01", "2026-03-01", []rollupPart{{"stat_daily", "2026-01-01", "2026-03-01"}}},
	} {
		if got := rollupParts(&run{granularity: c.gran, start: c.start}, c.until); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s..%s: %v, want %v", c.gran, c.start, c.until, got, c.want)
		}
	}
	for _, c := range []struct {
		first, last string
		want        []turnaroundPart
	}{
		{"2023-12", "2026-11", []turnaroundPart{{"stat_turnaround", "month", "2023-12", "2024-01"}, {"stat_turnaround_yearly", "year", "2024", "2026"}, {"stat_turnaround", "month", "2026-01", "2026-11"}}},
		{"2024-01", "2025-01", []turnaroundPart{{"stat_turnaround_yearly", "year", "2024", "2025"}}},
		{"2024-02", "2025-01", []turnaroundPart{{"stat_turnaround", "month", "2024-02", "2025-01"}}},
		{"2024-02", "2024-06", []turnaroundPart{{"stat_turnaround", "month", "2024-02", "2024-06"}}},
	} {
		if got := turnaroundParts(c.first, c.last); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s..%s: %v, want %v", c.first, c.last, got, c.want)
		}
	}
}
