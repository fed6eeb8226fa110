package statistics

import (
	"context"
	"slices"
	"sort"

	sq "github.com/Masterminds/squirrel"
)

// expertMeasures are the per-expert measures; full adds the collaboration
// figures of the center's expert screen.
func expertMeasures(r *run, full bool) []named {
	const key = "c.expert_id"
	ms := []named{
		{"assigned", UnitCount, caseFigure(FigAssigned, key)},
		{"finished", UnitCount, caseFigure(FigPublished, key)},
		{"in_progress", UnitCount, caseFigure(FigInProgress, key)},
		{"late", UnitCount, caseFigure(FigTimedOut, key)},
		{"in_time", UnitCount, onTime(key, false)},
		{"with_deadline", UnitCount, onTime(key, true)},
	}
	if full {
		ms = append(ms,
			named{"invites_sent", UnitCount, activity(FigInviteSent, "i.inviter_id")},
			named{"invites_answered", UnitCount, activity(FigInviteAnswered, "i.invitee_id")},
			named{"reviews", UnitCount, activity(FigReviewed, "l.user_id")},
			named{"referrals", UnitCount, activity(FigReferred, "l.user_id")},
			named{"expert_returns", UnitCount, activity(FigExpertReturned, "l.user_id")})
	}
	return ms
}

// expertTable computes the per-expert table, its bar chart and cards.
func (s *Service) expertTable(ctx context.Context, r *run, rep *Stats, full bool) error {
	ms := expertMeasures(r, full)
	t, err := s.countAll(ctx, r, ms)
	if err != nil {
		return err
	}
	var all []*tally
	for _, m := range ms {
		all = append(all, t[m.name])
	}
	per, overall, err := s.turnaround(ctx, r, "assign", "c.expert_id")
	if err != nil {
		return err
	}
	label, err := s.names(ctx, "users", keysOf(nil, all...))
	if err != nil {
		return err
	}
	keys := keysOf(label, all...)
	keys = slices.DeleteFunc(keys, func(k string) bool { return k == "" }) // cases without an expert
	cats := labelsOf(keys, label)
	for _, name := range []string{"assigned", "finished", "in_progress", "late"} {
		rep.Cards = append(rep.Cards, r.figure(name, UnitCount, num(t[name].total)))
	}
	rep.Cards = append(rep.Cards, r.figure("expert_tat_median", UnitHours, overall.p50),
		r.figure("expert_tat_p90", UnitHours, overall.p90),
		r.figure("within_timeout", UnitPercent, ratio(t["in_time"].total, t["with_deadline"].total)))
	rep.Charts = append(rep.Charts, r.chart("by_expert", "bar", UnitCount, cats,
		r.series("finished", byKeys(t["finished"], keys)), r.series("in_progress", byKeys(t["in_progress"], keys)),
		r.series("late", byKeys(t["late"], keys))))
	rep.Charts = append(rep.Charts, r.trend("expert_trend", UnitCount, r.series("assigned", ptrs(t["assigned"].byBucket)),
		r.series("finished", ptrs(t["finished"].byBucket))))
	var cols []StatColumn
	var shown []string
	for _, m := range ms {
		if m.name == "in_time" || m.name == "with_deadline" {
			continue
		}
		cols = append(cols, r.column(m.name, m.unit))
		shown = append(shown, m.name)
	}
	cols = append(cols, r.column("expert_tat_median", UnitHours), r.column("expert_tat_p90", UnitHours), r.column("within_timeout", UnitPercent))
	tab := r.table("by_expert", "expert", cols...)
	row := func(k, name string, get func(string) float64, p spread) StatRow {
		var vals []*float64
		for _, n := range shown {
			vals = append(vals, num(get(n)))
		}
		vals = append(vals, p.p50, p.p90, ratio(get("in_time"), get("with_deadline")))
		return StatRow{Key: k, Label: name, Values: vals}
	}
	for i, k := range keys {
		tab.Rows = append(tab.Rows, row(k, cats[i], func(n string) float64 { return t[n].byKey[k] }, per[k]))
	}
	tab.Rows = append(tab.Rows, row("total", r.t("statistics.head.total"), func(n string) float64 { return t[n].total }, overall))
	rep.Tables = append(rep.Tables, tab)
	return nil
}

// experts: the center's expert screen, with the reasons given for late reports.
func (s *Service) experts(ctx context.Context, r *run, rep *Stats) error {
	if err := s.expertTable(ctx, r, rep, true); err != nil {
		return err
	}
	reasons, err := s.count(ctx, r, measure{from: fromCases, at: "c.published_at", key: "c.timeout_reason",
		where: []sq.Sqlizer{sq.Expr("c.timeout_reason <> ''")}})
	if err != nil {
		return err
	}
	rep.Tables = append(rep.Tables, reasonTable(r, "timeout_reasons", reasons))
	return nil
}

// expertConsultation: which experts read the caller's cases, how fast.
func (s *Service) expertConsultation(ctx context.Context, r *run, rep *Stats) error {
	return s.expertTable(ctx, r, rep, false)
}

// reasonTable lists free-text reasons by count, most frequent first (at most 50).
func reasonTable(r *run, key string, t *tally) StatTable {
	tab := r.table(key, "reason", r.column("occurrences", UnitCount))
	keys := append([]string(nil), t.keys...)
	sort.SliceStable(keys, func(i, j int) bool {
		if t.byKey[keys[i]] != t.byKey[keys[j]] {
			return t.byKey[keys[i]] > t.byKey[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) > 50 {
		keys = keys[:50]
	}
	for _, k := range keys {
		tab.Rows = append(tab.Rows, StatRow{Key: k, Label: k, Values: []*float64{num(t.byKey[k])}})
	}
	return tab
}
