package statistics

import (
	"context"

	sq "github.com/Masterminds/squirrel"
)

// Tables the measures read, each joined to its case as c.
const (
	fromCases      = "consultations c"
	fromLogs       = "case_logs l JOIN consultations c ON c.id = l.consult_id"
	fromCharges    = "charges ch JOIN consultations c ON c.id = ch.consult_id"
	fromDiagnoses  = "diagnoses d JOIN consultations c ON c.id = d.consult_id"
	fromLibCases   = "consultations c JOIN libraries lib ON lib.id = c.library_id"
	fromFrozen     = "frozen_appointments fa JOIN consultations c ON c.id = fa.consultation_id"
	fromJudgements = "slide_judgements sj JOIN consultations c ON c.id = sj.consult_id"
	fromAdvices    = "advices a JOIN consultations c ON c.id = a.consult_id"
	fromInvites    = "invitations i JOIN consultations c ON c.id = i.consult_id"
)

// caseEvents are the measures of a case's way through the center, keyed by
// key (spec: registered, submitted, assigned, diagnosed, published,
// returned, recalled, timed out).
func caseEvents(r *run, key string) []named {
	return []named{
		{"registered", UnitCount, caseFigure(FigRegistered, key)},
		{"submitted", UnitCount, caseFigure(FigSubmitted, key)},
		{"assigned", UnitCount, caseFigure(FigAssigned, key)},
		{"diagnosed", UnitCount, caseFigure(FigDiagnosed, key)},
		{"published", UnitCount, caseFigure(FigPublished, key)},
		{"returned", UnitCount, activity(FigReturned, key)},
		{"recalled", UnitCount, activity(FigRecalled, key)},
		{"timed_out", UnitCount, caseFigure(FigTimedOut, key)},
	}
}

// onTime is the measure of reports published by their deadline (all
// published with a deadline when all is set), keyed by key.
func onTime(key string, all bool, where ...sq.Sqlizer) measure {
	if all {
		return caseFigure(FigWithDeadline, key, where...)
	}
	return caseFigure(FigInTime, key, where...)
}

// consultation: the cases per period and hospital, turnaround, charges.
func (s *Service) consultation(ctx context.Context, r *run, rep *Stats) error {
	const key = "c.hospital_id"
	events := caseEvents(r, key)
	var order []string
	for _, e := range events {
		order = append(order, e.name)
	}
	t, err := s.countAll(ctx, r, append(events,
		named{name: "in_time", m: onTime(key, false)},
		named{name: "with_deadline", m: onTime(key, true)},
		named{name: "charged", m: activity(FigCharged, key)},
		named{name: "refunded", m: activity(FigRefunded, key)}))
	if err != nil {
		return err
	}
	per, all, err := s.turnaround(ctx, r, "submit", key)
	if err != nil {
		return err
	}
	yuan := func(fen float64) *float64 { return num(fen / 100) }
	for _, name := range []string{"registered", "submitted", "published", "returned", "recalled", "timed_out"} {
		rep.Cards = append(rep.Cards, r.figure(name, UnitCount, num(t[name].total)))
	}
	rep.Cards = append(rep.Cards,
		r.figure("tat_median", UnitHours, all.p50),
		r.figure("tat_p90", UnitHours, all.p90),
		r.figure("within_timeout", UnitPercent, ratio(t["in_time"].total, t["with_deadline"].total)),
		r.figure("charged", UnitYuan, yuan(t["charged"].total)),
		r.figure("refunded", UnitYuan, yuan(t["refunded"].total)))

	var lines []StatSeries
	for _, name := range []string{"registered", "submitted", "published", "returned", "timed_out"} {
		lines = append(lines, r.series(name, ptrs(t[name].byBucket)))
	}
	rep.Charts = append(rep.Charts, r.trend("case_trend", UnitCount, lines...))

	label, err := s.names(ctx, "hospitals", keysOf(nil, t["registered"], t["submitted"], t["published"], t["charged"], t["refunded"], t["returned"], t["recalled"], t["timed_out"]))
	if err != nil {
		return err
	}
	keys := keysOf(label, t["registered"], t["submitted"], t["published"], t["charged"], t["refunded"], t["returned"], t["recalled"], t["timed_out"], t["assigned"], t["diagnosed"])
	cats := labelsOf(keys, label)
	rep.Charts = append(rep.Charts, r.chart("hospital_status", "bar", UnitCount, cats,
		r.series("registered", byKeys(t["registered"], keys)), r.series("published", byKeys(t["published"], keys)),
		r.series("returned", byKeys(t["returned"], keys)), r.series("timed_out", byKeys(t["timed_out"], keys))))

	cols := []StatColumn{}
	for _, name := range order {
		cols = append(cols, r.column(name, UnitCount))
	}
	cols = append(cols, r.column("tat_median", UnitHours), r.column("tat_p90", UnitHours), r.column("within_timeout", UnitPercent),
		r.column("charged", UnitYuan), r.column("refunded", UnitYuan))
	tab := r.table("by_hospital", "hospital", cols...)
	row := func(k, name string, get func(string) float64, p spread) StatRow {
		var vals []*float64
		for _, n := range order {
			vals = append(vals, num(get(n)))
		}
		vals = append(vals, p.p50, p.p90, ratio(get("in_time"), get("with_deadline")), yuan(get("charged")), yuan(get("refunded")))
		return StatRow{Key: k, Label: name, Values: vals}
	}
	for i, k := range keys {
		tab.Rows = append(tab.Rows, row(k, cats[i], func(n string) float64 { return t[n].byKey[k] }, per[k]))
	}
	tab.Rows = append(tab.Rows, row("total", r.t("statistics.head.total"), func(n string) float64 { return t[n].total }, all))
	rep.Tables = append(rep.Tables, tab)
	return nil
}
