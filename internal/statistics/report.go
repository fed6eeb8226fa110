package statistics

import (
	"context"
	"fmt"
	"slices"
	"sort"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// screens maps each screen to the roles that open it (spec 1 §2) and the
// function that computes it.
var screens = map[Screen]struct {
	roles []string
	build func(s *Service, ctx context.Context, r *run, rep *Stats) error
}{
	Consultation:       {access.StatConsultation, (*Service).consultation},
	Bank:               {access.StatBank, (*Service).bank},
	Expert:             {access.StatExperts, (*Service).experts},
	ExpertConsultation: {access.StatExpertConsultation, (*Service).expertConsultation},
	Quality:            {access.StatQuality, (*Service).quality},
	HE:                 {access.StatQC, (*Service).he},
	Outside:            {access.StatQC, (*Service).outside},
	Diagnosis:          {access.StatQC, (*Service).diagnosisQuality},
	Wall:               {access.StatWall, (*Service).wall},
}

// Stats computes a screen's figures for the caller's scope.
func (s *Service) Stats(ctx context.Context, screen Screen, q StatQuery) (*Stats, error) {
	sc := screens[screen]
	if screen == Wall {
		if s.deps.BigScreen != nil && !s.deps.BigScreen(ctx) {
			return nil, apperr.New(apperr.NotFound, "statistics.big_screen_off")
		}
		today := s.clock.Local(s.clock.Now()).Format(dayLayout)
		q.Start, q.End, q.Granularity = today, today, "day"
	}
	r, err := s.prepare(ctx, sc.roles, q)
	if err != nil {
		return nil, err
	}
	rep := &Stats{Screen: screen, Start: r.start, End: r.end, Granularity: r.granularity, Zone: s.clock.Zone().String(),
		Cards: []StatFigure{}, Charts: []StatChart{}, Tables: []StatTable{}, Notes: []string{}}
	if err := sc.build(s, ctx, r, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

func (r *run) t(key string) string { return i18n.T(r.lang, key, nil) }

// figure is the named, defined figure key.
func (r *run) figure(key, unit string, v *float64) StatFigure {
	return StatFigure{Key: key, Label: r.t("statistics.figure." + key), Help: r.t("statistics.help." + key), Unit: unit, Value: v}
}

func (r *run) column(key, unit string) StatColumn {
	return StatColumn{Key: key, Label: r.t("statistics.figure." + key), Help: r.t("statistics.help." + key), Unit: unit}
}

// series is figure key's values.
func (r *run) series(key string, vals []*float64) StatSeries {
	return StatSeries{Key: key, Label: r.t("statistics.figure." + key), Values: vals}
}

// trend is a line chart over the period's buckets.
func (r *run) trend(key, unit string, series ...StatSeries) StatChart {
	return StatChart{Key: key, Title: r.t("statistics.chart." + key), Kind: "line", Unit: unit, Categories: r.buckets, StatSeries: series, Marks: []StatMark{}}
}

// chart is a chart of kind over categories.
func (r *run) chart(key, kind, unit string, cats []string, series ...StatSeries) StatChart {
	if cats == nil {
		cats = []string{}
	}
	return StatChart{Key: key, Title: r.t("statistics.chart." + key), Kind: kind, Unit: unit, Categories: cats, StatSeries: series, Marks: []StatMark{}}
}

func (r *run) table(key, head string, cols ...StatColumn) StatTable {
	return StatTable{Key: key, Title: r.t("statistics.table." + key), Head: r.t("statistics.head." + head), Columns: cols, Rows: []StatRow{}}
}

// ptrs turns sums into values.
func ptrs(xs []float64) []*float64 {
	out := make([]*float64, len(xs))
	for i, x := range xs {
		out[i] = num(x)
	}
	return out
}

// rates divides two series bucket by bucket, in percent.
func rates(a, b []float64) []*float64 {
	out := make([]*float64, len(a))
	for i := range a {
		out[i] = ratio(a[i], b[i])
	}
	return out
}

// keysOf merges the keys of tallies, ordered by the first tally's value
// (largest first), then by label.
func keysOf(label map[string]string, ts ...*tally) []string {
	var keys []string
	for _, t := range ts {
		for _, k := range t.keys {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := ts[0].byKey[keys[i]], ts[0].byKey[keys[j]]
		if a != b {
			return a > b
		}
		return label[keys[i]] < label[keys[j]]
	})
	return keys
}

// labelsOf returns the labels of keys, a dash for an empty key.
func labelsOf(keys []string, label map[string]string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = label[k]
		if out[i] == "" {
			out[i] = "—"
		}
	}
	return out
}

// byKeys is the values of t for keys.
func byKeys(t *tally, keys []string) []*float64 {
	out := make([]*float64, len(keys))
	for i, k := range keys {
		out[i] = num(t.byKey[k])
	}
	return out
}

// wall: today's numbers of the caller's centers for the wall view: the
// consultation figures of the day and the frozen sections reported today.
func (s *Service) wall(ctx context.Context, r *run, rep *Stats) error {
	if err := s.consultation(ctx, r, rep); err != nil {
		return err
	}
	rep.Charts = rep.Charts[1:] // a day has no trend
	reported, err := s.count(ctx, r, measure{from: fromFrozen, at: "fa.reported_at", expert: "fa.expert_id"})
	if err != nil {
		return err
	}
	within, err := s.count(ctx, r, measure{from: fromFrozen, at: "fa.reported_at", expert: "fa.expert_id",
		where: []sq.Sqlizer{sq.Expr(r.seconds("fa.arrived_at", "fa.reported_at") + fmt.Sprintf(" <= %d", FrozenLimit))}})
	if err != nil {
		return err
	}
	rep.Cards = append(rep.Cards, r.figure("frozen_reported", UnitCount, num(reported.total)),
		r.figure("intime_rate_frozen", UnitPercent, ratio(within.total, reported.total)))
	return nil
}
