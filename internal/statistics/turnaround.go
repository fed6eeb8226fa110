package statistics

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Spans are the turnarounds the screens show: of published cases, by the
// instant they start at (they end at publication), and of special exams
// ("advice": an advice, from its creation to its result, dated by its
// result; migration 0074).
var spanStart = map[string]string{"submit": "c.submitted_at", "assign": "c.assigned_at", "advice": "a.created_at"}

// spanEnd is the instant that ends and dates a span, and the rows it is
// read from.
func spanEnd(span string) (end, from string) {
	if span == "advice" {
		return "a.done_at", fromAdvices
	}
	return "c.published_at", fromCases
}

// tenths is the SQL of a turnaround in tenths of an hour, the precision the
// screens show: the whole seconds from instant a to instant b, rounded half
// away from zero (exact on both databases; migration 0048 keeps the same
// expression for the rollups).
func (r *run) tenths(a, b string) string {
	if r.dialect == db.Postgres {
		return fmt.Sprintf("ROUND((FLOOR(EXTRACT(EPOCH FROM %s)) - FLOOR(EXTRACT(EPOCH FROM %s))) / 360)::BIGINT", b, a)
	}
	return fmt.Sprintf("CAST(ROUND((unixepoch(%s) - unixepoch(%s)) / 360.0) AS INTEGER)", b, a)
}

// bucket is the number of cases of one key with one turnaround.
type bucket struct {
	K      *string `db:"k"`
	Tenths int64   `db:"t"`
	N      int64   `db:"n"`
}

// turnaround is the nearest-rank median and 90th percentile, in hours, of
// the span of the cases published in the period, by key (the case's
// hospital or expert) and over all. It counts cases per turnaround in
// tenths of an hour: the rollups (stat_turnaround, by year
// stat_turnaround_yearly) for the whole local months before today, the
// cases for the rest. Rounding keeps the order of
// the durations, so this is the rounded percentile of the durations
// themselves (TestStatisticsRollups).
func (s *Service) turnaround(ctx context.Context, r *run, span, key string) (map[string]spread, spread, error) {
	defer traced("turnaround "+span+" "+key, time.Now())
	m := measure{key: key, where: []sq.Sqlizer{sq.Expr(spanStart[span] + " IS NOT NULL")}}
	from, to := r.from, r.to
	var rows []bucket
	if first, last, ok := s.wholeMonths(r); ok {
		for _, p := range turnaroundParts(first.Format("2006-01"), last.Format("2006-01")) {
			rs, err := s.rolledTurnaround(ctx, r, span, key, p)
			if err != nil {
				return nil, spread{}, err
			}
			rows = append(rows, rs...)
		}
		to = first.UTC()
		rs, err := s.liveTurnaround(ctx, r, m, span, last.UTC(), r.to)
		if err != nil {
			return nil, spread{}, err
		}
		rows = append(rows, rs...)
	}
	rs, err := s.liveTurnaround(ctx, r, m, span, from, to)
	if err != nil {
		return nil, spread{}, err
	}
	rows = append(rows, rs...)
	byKey := map[string]map[int64]int64{}
	all := map[int64]int64{}
	for _, row := range rows {
		k := ""
		if row.K != nil {
			k = *row.K
		}
		if byKey[k] == nil {
			byKey[k] = map[int64]int64{}
		}
		byKey[k][row.Tenths] += row.N
		all[row.Tenths] += row.N
	}
	out := make(map[string]spread, len(byKey))
	for k, counts := range byKey {
		out[k] = spreadOfCounts(counts)
	}
	return out, spreadOfCounts(all), nil
}

// wholeMonths is the first and the last (exclusive) local midnight of the
// whole months of the period the rollups hold (before today), if any.
func (s *Service) wholeMonths(r *run) (time.Time, time.Time, bool) {
	until, _ := s.cut(r)
	if until == "" {
		return time.Time{}, time.Time{}, false
	}
	zone := s.clock.Zone()
	start := r.from.In(zone)
	first := time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, zone)
	if first.Before(start) {
		first = first.AddDate(0, 1, 0)
	}
	end, err := time.ParseInLocation(dayLayout, until, zone)
	if err != nil {
		return time.Time{}, time.Time{}, false
	}
	last := time.Date(end.Year(), end.Month(), 1, 0, 0, 0, 0, zone)
	return first, last, first.Before(last)
}

// rolledTurnaround reads the rollups' buckets of part p's months or years.
func (s *Service) rolledTurnaround(ctx context.Context, r *run, span, key string, p turnaroundPart) ([]bucket, error) {
	cond, args, err := r.filters("c.expert_id", true).ToSql()
	if err != nil {
		return nil, apperr.Wrap(err, "build statistics query")
	}
	grain := grainFor(key + " " + cond)
	if cond == "" {
		cond = "1 = 1"
	}
	// The grain is a literal, so that the partial indexes of grain 0
	// (migration 0071) serve a read of one expert or one hospital.
	query := "SELECT " + text(rollupKey.Replace(key)) + " AS k, c.tenths AS t, SUM(c.n) AS n FROM " + p.table + " c" +
		fmt.Sprintf(" WHERE c.span = ? AND c.grain = %d AND c.%s >= ? AND c.%s < ? AND ", grain, p.column, p.column) + cond + " GROUP BY 1, 2 HAVING SUM(c.n) <> 0"
	var rows []bucket
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(query), append([]any{span, p.first, p.last}, args...)...); err != nil {
		return nil, apperr.Wrap(err, "statistics turnaround rollups")
	}
	return rows, nil
}

// liveTurnaround counts the buckets of the spans that end from from to to.
func (s *Service) liveTurnaround(ctx context.Context, r *run, m measure, span string, from, to time.Time) ([]bucket, error) {
	if !from.Before(to) {
		return nil, nil
	}
	end, rows := spanEnd(span)
	w := append(r.where("c.expert_id"), sq.Expr(end+" >= ? AND "+end+" < ?", from, to))
	cond, args, err := append(w, m.where...).ToSql()
	if err != nil {
		return nil, apperr.Wrap(err, "build statistics query")
	}
	query := "SELECT " + text(m.key) + " AS k, " + r.tenths(spanStart[span], end) + " AS t, COUNT(*) AS n FROM " + rows +
		" WHERE " + cond + " GROUP BY 1, 2"
	var out []bucket
	if err := s.db.SelectContext(ctx, &out, s.db.Rebind(query), args...); err != nil {
		return nil, apperr.Wrap(err, "statistics turnaround")
	}
	return out, nil
}

// spreadOfCounts is the nearest-rank median and 90th percentile, in hours,
// of cases counted per turnaround in tenths of an hour.
func spreadOfCounts(counts map[int64]int64) spread {
	var n int64
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return spread{}
	}
	keys := slices.Sorted(maps.Keys(counts))
	at := func(p int64) *float64 {
		rank, seen := (n*p+99)/100, int64(0)
		for _, k := range keys {
			if seen += counts[k]; seen >= rank {
				return num(float64(k) / 10)
			}
		}
		return nil
	}
	return spread{p50: at(50), p90: at(90), n: float64(n)}
}
