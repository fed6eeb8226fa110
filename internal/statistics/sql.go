package statistics

import (
	"context"
	"math"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"
	"golang.org/x/sync/errgroup"

	"telepath/internal/platform/apperr"
)

// measure is one figure counted over rows: the rows of from (which joins
// the cases as c) whose instant at lies in the period, grouped by key.
// value is what a row adds (COUNT(*) unless set); expert is the column the
// expert filter applies to (the case's expert unless set). A measure of a
// figure (fig, see rollup.go) takes its instant and conditions from the
// figure and reads the daily rollups for the whole days before today; its
// further conditions may only name the case's center, hospital, expert
// and library.
type measure struct {
	fig    string
	from   string
	at     string
	key    string
	value  string
	expert string
	where  []sq.Sqlizer
}

// named is a measure with the figure key it computes and its unit.
type named struct {
	name string
	unit string
	m    measure
}

// tally holds a measure's sums by key, by bucket and by both.
type tally struct {
	total    float64
	byKey    map[string]float64
	byBucket []float64
	cell     map[string][]float64
	keys     []string // in order of first appearance
}

func (t *tally) key(k string) float64 { return t.byKey[k] }

// keyDay is a measure's sum for one key on one local day.
type keyDay struct {
	K *string `db:"k"`
	D string  `db:"d"`
	N float64 `db:"n"`
}

// count runs m: the rollups for the whole days they hold, then one SQL
// query on the rows grouped by key and local day for the rest, folded into
// the run's buckets.
func (s *Service) count(ctx context.Context, r *run, m measure) (*tally, error) {
	defer traced(m.fig+" "+m.from+" "+m.at+" "+m.key, time.Now())
	if m.key == "" {
		m.key = "''"
	}
	var rows []keyDay
	live := r.from
	if m.fig != "" {
		var until string
		until, live = s.cut(r)
		if until != "" {
			rs, err := s.rolled(ctx, r, rollupMeasure(m), until)
			if err != nil {
				return nil, err
			}
			rows = rs
		}
		var isActivity bool
		if m, isActivity = liveMeasure(r, m); !isActivity {
			var from string
			var def []sq.Sqlizer
			from, m.at, def = figure(r, m.fig)
			m.where = append(def, m.where...)
			if m.from == "" {
				m.from = from
			}
		}
	}
	if live.Before(r.to) {
		rs, err := s.live(ctx, r, m, live)
		if err != nil {
			return nil, err
		}
		rows = append(rows, rs...)
	}
	t := &tally{byKey: map[string]float64{}, byBucket: make([]float64, len(r.buckets)), cell: map[string][]float64{}}
	for _, row := range rows {
		if row.N == 0 {
			// Adds nothing, and names no key: a zero-fen charge read live
			// lists its hospital no more than the rollups, which keep no
			// row for it.
			continue
		}
		k := ""
		if row.K != nil {
			k = *row.K
		}
		b, ok := r.bucketOf[row.D]
		if !ok {
			continue // cannot happen: the period's instants fall on its days
		}
		if _, seen := t.cell[k]; !seen {
			t.cell[k] = make([]float64, len(r.buckets))
			t.keys = append(t.keys, k)
		}
		t.total += row.N
		t.byKey[k] += row.N
		t.byBucket[b] += row.N
		t.cell[k][b] += row.N
	}
	return t, nil
}

// live reads m on the rows whose instant lies from from to the period's end.
func (s *Service) live(ctx context.Context, r *run, m measure, from time.Time) ([]keyDay, error) {
	if m.value == "" {
		m.value = "COUNT(*)"
	}
	if m.expert == "" {
		m.expert = "c.expert_id"
	}
	w := append(r.where(m.expert), sq.Expr(m.at+" >= ? AND "+m.at+" < ?", from, r.to))
	w = append(w, m.where...)
	cond, args, err := w.ToSql()
	if err != nil {
		return nil, apperr.Wrap(err, "build statistics query")
	}
	query := "SELECT " + text(m.key) + " AS k, " + r.day(m.at) + " AS d, " + m.value + " AS n FROM " + m.from +
		" WHERE " + cond + " GROUP BY 1, 2"
	var rows []keyDay
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(query), args...); err != nil {
		return nil, apperr.Wrap(err, "statistics query")
	}
	return rows, nil
}

// countAll runs the named measures side by side (a screen's queries are
// independent reads) and returns their tallies by name.
func (s *Service) countAll(ctx context.Context, r *run, ms []named) (map[string]*tally, error) {
	out := make([]*tally, len(ms))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for i, m := range ms {
		g.Go(func() (err error) {
			out[i], err = s.count(gctx, r, m.m)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	t := make(map[string]*tally, len(ms))
	for i, m := range ms {
		t[m.name] = out[i]
	}
	return t, nil
}

// spread is the nearest-rank median and 90th percentile of durations.
type spread struct {
	p50, p90 *float64
	n        float64
}

// percentiles reads the durations (seconds from instant a to instant b) of
// the rows of m in one range scan of m's instant, and returns their median
// and 90th percentile by nearest rank (the value at rank ⌈n·p⌉), by key and
// over all rows. The durations are sorted here: one scan, where a window
// function sorted them in the database once per key and once for all.
func (s *Service) percentiles(ctx context.Context, r *run, m measure, a, b string) (map[string]spread, spread, error) {
	defer traced("percentiles "+m.from+" "+m.at, time.Now())
	if m.key == "" {
		m.key = "''"
	}
	if m.expert == "" {
		m.expert = "c.expert_id"
	}
	w := append(r.where(m.expert), sq.Expr(m.at+" >= ? AND "+m.at+" < ?", r.from, r.to), sq.Expr(a+" IS NOT NULL AND "+b+" IS NOT NULL"))
	w = append(w, m.where...)
	cond, args, err := w.ToSql()
	if err != nil {
		return nil, spread{}, apperr.Wrap(err, "build statistics query")
	}
	query := "SELECT " + text(m.key) + " AS k, " + r.seconds(a, b) + " AS d FROM " + m.from + " WHERE " + cond
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(query), args...)
	if err != nil {
		return nil, spread{}, apperr.Wrap(err, "statistics percentiles")
	}
	defer rows.Close()
	byKey := map[string][]float64{}
	var all []float64
	for rows.Next() {
		var k *string
		var d float64
		if err := rows.Scan(&k, &d); err != nil {
			return nil, spread{}, apperr.Wrap(err, "statistics percentiles")
		}
		key := ""
		if k != nil {
			key = *k
		}
		byKey[key] = append(byKey[key], d)
		all = append(all, d)
	}
	if err := rows.Err(); err != nil {
		return nil, spread{}, apperr.Wrap(err, "statistics percentiles")
	}
	out := make(map[string]spread, len(byKey))
	for k, ds := range byKey {
		out[k] = spreadOf(ds)
	}
	return out, spreadOf(all), nil
}

// spreadOf is the nearest-rank median and 90th percentile of ds (sorted in place).
func spreadOf(ds []float64) spread {
	n := len(ds)
	if n == 0 {
		return spread{}
	}
	slices.Sort(ds)
	at := func(p int) *float64 { return num(ds[(n*p+99)/100-1]) }
	return spread{p50: at(50), p90: at(90), n: float64(n)}
}

// names returns the labels of ids (as text keys) from table's column name.
func (s *Service) names(ctx context.Context, table string, keys []string) (map[string]string, error) {
	out := map[string]string{}
	var want []string
	for _, k := range keys {
		if k != "" {
			want = append(want, k)
		}
	}
	if len(want) == 0 {
		return out, nil
	}
	var rows []struct {
		ID   string `db:"id"`
		Name string `db:"name"`
	}
	b := s.db.Builder().Select(text("id")+" AS id", "name").From(table).Where(sq.Eq{text("id"): want})
	q, args, err := b.ToSql()
	if err != nil {
		return nil, apperr.Wrap(err, "build names")
	}
	if err := s.db.SelectContext(ctx, &rows, q, args...); err != nil {
		return nil, apperr.Wrap(err, "load names")
	}
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, nil
}

// ratio is 100·a/b rounded to one decimal, nil when b is zero.
func ratio(a, b float64) *float64 {
	if b == 0 {
		return nil
	}
	return num(round1(100 * a / b))
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// hours and minutes turn seconds into rounded hours or minutes.
func hours(sec *float64) *float64 {
	if sec == nil {
		return nil
	}
	return num(round1(*sec / 3600))
}

func minutes(sec *float64) *float64 {
	if sec == nil {
		return nil
	}
	return num(round1(*sec / 60))
}

// split cuts a composite key "a|b" in two.
func split(k string) (string, string) {
	a, b, _ := strings.Cut(k, "|")
	return a, b
}
