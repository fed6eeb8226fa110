package statistics

import (
	"context"
	"slices"

	sq "github.com/Masterminds/squirrel"
)

// FrozenLimit is the national QC indicator's bound for a frozen diagnosis:
// 30 minutes from the specimen's arrival to the report.
const FrozenLimit = 30 * 60

// indicator is one rate of the quality screen: numerator over denominator,
// against the target of rate key target (none when empty).
type indicator struct {
	name     string
	num, den measure
	target   string
}

// quality: timeliness of frozen, histology and cytology reports against
// their targets; counter-audit, supplementary and amended report rates;
// special-exam turnaround.
func (s *Service) quality(ctx context.Context, r *run, rep *Stats) error {
	targets, err := s.targets(ctx)
	if err != nil {
		return err
	}
	frozen := func(within bool) measure {
		if within {
			return activity(FigFrozenInTime, "")
		}
		return activity(FigFrozenReported, "")
	}
	kind := func(k string, within bool) measure {
		return onTime("''", !within, sq.Expr("c.library_id IN (SELECT id FROM libraries WHERE report_kind = ?)", k))
	}
	published := caseFigure(FigPublished, "")
	inds := []indicator{
		{name: "intime_rate_frozen", num: frozen(true), den: frozen(false), target: "intime_rate_frozen"},
		{name: "intime_rate_histology", num: kind("routine", true), den: kind("routine", false), target: "intime_rate_histology"},
		{name: "intime_rate_cytology", num: kind("cell", true), den: kind("cell", false), target: "intime_rate_cytology"},
		{name: "counter_audit_rate", num: activity(FigCounterAudit, ""), den: published},
		{name: "supplement_rate", num: activity(FigSupplemented, ""), den: published},
		{name: "amended_rate", num: activity(FigAmended, ""), den: published},
	}
	tab := r.table("indicators", "indicator", r.column("numerator", UnitCount), r.column("denominator", UnitCount),
		r.column("rate", UnitPercent), r.column("qc_value", UnitPercent), r.column("goal_value", UnitPercent))
	var bars []*float64
	var names []string
	var lines []StatSeries
	// The indicators' measures are independent reads: side by side, the
	// published cases (the denominator of three) once.
	ms := []named{{name: "published", m: published}}
	for _, in := range inds {
		ms = append(ms, named{name: in.name + ".num", m: in.num})
		if !isPublished(in.den) {
			ms = append(ms, named{name: in.name + ".den", m: in.den})
		}
	}
	counted, err := s.countAll(ctx, r, ms)
	if err != nil {
		return err
	}
	for _, in := range inds {
		n, d := counted[in.name+".num"], counted[in.name+".den"]
		if isPublished(in.den) {
			d = counted["published"]
		}
		rate := ratio(n.total, d.total)
		rep.Cards = append(rep.Cards, r.figure(in.name, UnitPercent, rate))
		vals := []*float64{num(n.total), num(d.total), rate, nil, nil}
		if tg, ok := targets[in.target]; ok {
			vals[3], vals[4] = num(tg.QCValue), num(tg.GoalValue)
		}
		tab.Rows = append(tab.Rows, StatRow{Key: in.name, Label: r.t("statistics.figure." + in.name), Values: vals})
		if in.target != "" {
			bars = append(bars, rate)
			names = append(names, r.t("statistics.figure."+in.name))
			lines = append(lines, r.series(in.name, rates(n.byBucket, d.byBucket)))
		}
	}
	timely := r.chart("timeliness", "bar", UnitPercent, names, StatSeries{Key: "rate", Label: r.t("statistics.figure.rate"), Values: bars})
	tg := targets["intime_rate_histology"]
	timely.Marks = []StatMark{{Label: r.t("statistics.figure.qc_value"), Value: tg.QCValue}, {Label: r.t("statistics.figure.goal_value"), Value: tg.GoalValue}}
	rep.Charts = append(rep.Charts, timely, r.trend("timeliness_trend", UnitPercent, lines...))
	rep.Tables = append(rep.Tables, tab)

	// Special exams: from the advice to its result, dated by the result,
	// counted per tenth of an hour as the cases' turnarounds (from the
	// rollups of migration 0074 for the whole months before today).
	_, sp, err := s.turnaround(ctx, r, "advice", "''")
	if err != nil {
		return err
	}
	done := &tally{total: sp.n}
	rep.Cards = append(rep.Cards, r.figure("special_done", UnitCount, num(done.total)),
		r.figure("special_tat_median", UnitHours, sp.p50), r.figure("special_tat_p90", UnitHours, sp.p90))
	st := r.table("special_exams", "indicator", r.column("special_done", UnitCount), r.column("special_tat_median", UnitHours), r.column("special_tat_p90", UnitHours))
	st.Rows = append(st.Rows, StatRow{Key: "total", Label: r.t("statistics.head.total"), Values: []*float64{num(done.total), sp.p50, sp.p90}})
	rep.Tables = append(rep.Tables, st)
	return nil
}

// Grades are the slide quality grades; A and B are "excellent".
var Grades = []string{"A", "B", "C", "D"}

// he: slide quality grades per hospital and period, the excellent rate
// (A+B over all graded slides) against its target, the reasons for D.
func (s *Service) he(ctx context.Context, r *run, rep *Stats) error {
	targets, err := s.targets(ctx)
	if err != nil {
		return err
	}
	tg := targets["he_excellent"]
	// Each grade by hospital, from the rollups (migration 0068) for the
	// whole days they hold.
	ms := []named{}
	for _, g := range Grades {
		ms = append(ms, named{name: g, m: activity(FigGrade(g), "c.hospital_id")})
	}
	grades, err := s.countAll(ctx, r, ms)
	if err != nil {
		return err
	}
	perGrade := map[string][]float64{}
	perHospital := map[string]map[string]float64{}
	var hospitals []string
	total := map[string]float64{}
	for _, g := range Grades {
		t := grades[g]
		perGrade[g] = t.byBucket
		for _, h := range t.keys {
			if perHospital[h] == nil {
				perHospital[h] = map[string]float64{}
				hospitals = append(hospitals, h)
			}
			perHospital[h][g] += t.byKey[h]
			total[g] += t.byKey[h]
		}
	}
	excellent := func(m map[string]float64) (float64, float64) {
		return m["A"] + m["B"], m["A"] + m["B"] + m["C"] + m["D"]
	}
	ex, all := excellent(total)
	rep.Cards = append(rep.Cards, r.figure("graded", UnitCount, num(all)))
	for _, g := range Grades {
		rep.Cards = append(rep.Cards, r.figure("grade_"+g, UnitCount, num(total[g])))
	}
	rep.Cards = append(rep.Cards, r.figure("he_excellent", UnitPercent, ratio(ex, all)),
		r.figure("qc_value", UnitPercent, num(tg.QCValue)), r.figure("goal_value", UnitPercent, num(tg.GoalValue)))

	exB, allB := make([]float64, len(r.buckets)), make([]float64, len(r.buckets))
	for g, vals := range perGrade {
		for i, v := range vals {
			allB[i] += v
			if g == "A" || g == "B" {
				exB[i] += v
			}
		}
	}
	trend := r.trend("he_trend", UnitPercent, r.series("he_excellent", rates(exB, allB)))
	trend.Marks = []StatMark{{Label: r.t("statistics.figure.qc_value"), Value: tg.QCValue}, {Label: r.t("statistics.figure.goal_value"), Value: tg.GoalValue}}
	rep.Charts = append(rep.Charts, trend)

	label, err := s.names(ctx, "hospitals", hospitals)
	if err != nil {
		return err
	}
	slices.SortFunc(hospitals, func(a, b string) int {
		if x, y := label[a], label[b]; x != y {
			if x < y {
				return -1
			}
			return 1
		}
		return 0
	})
	cats := labelsOf(hospitals, label)
	var stacked []StatSeries
	for _, g := range Grades {
		vals := make([]*float64, len(hospitals))
		for i, h := range hospitals {
			vals[i] = num(perHospital[h][g])
		}
		sr := r.series("grade_"+g, vals)
		sr.Stack = "grades"
		stacked = append(stacked, sr)
	}
	rep.Charts = append(rep.Charts, r.chart("grades_by_hospital", "bar", UnitCount, cats, stacked...))
	cols := []StatColumn{}
	for _, g := range Grades {
		cols = append(cols, r.column("grade_"+g, UnitCount))
	}
	cols = append(cols, r.column("graded", UnitCount), r.column("he_excellent", UnitPercent))
	tab := r.table("grades_by_hospital", "hospital", cols...)
	row := func(k, name string, m map[string]float64) StatRow {
		var vals []*float64
		for _, g := range Grades {
			vals = append(vals, num(m[g]))
		}
		e, a := excellent(m)
		return StatRow{Key: k, Label: name, Values: append(vals, num(a), ratio(e, a))}
	}
	for i, h := range hospitals {
		tab.Rows = append(tab.Rows, row(h, cats[i], perHospital[h]))
	}
	tab.Rows = append(tab.Rows, row("total", r.t("statistics.head.total"), total))
	// The reasons from their rollups (migration 0073) for the whole days
	// they hold.
	dReasons, err := s.count(ctx, r, reasons(FigGradeDReason))
	if err != nil {
		return err
	}
	rep.Tables = append(rep.Tables, tab, reasonTable(r, "grade_d_reasons", dReasons))
	return nil
}

// outsideHospital is the SQL condition of a case sent by a hospital outside
// the center's own network: its settings do not mark it local (islocalhost).
func (r *run) outsideHospital() sq.Sqlizer {
	flag := "COALESCE(CAST(json_extract(h.site_info, '$.islocalhost') AS TEXT), '0')"
	if r.dialect == "postgres" {
		flag = "COALESCE(NULLIF(h.site_info, '')::json->>'islocalhost', '0')"
	}
	return sq.Expr("c.hospital_id IN (SELECT h.id FROM hospitals h WHERE " + flag + " <> '1')")
}

// outside: the cases of hospitals outside the center's own network.
func (s *Service) outside(ctx context.Context, r *run, rep *Stats) error {
	out := []sq.Sqlizer{r.outsideHospital()}
	reg, err := s.count(ctx, r, caseFigure(FigRegistered, "c.hospital_id", out...))
	if err != nil {
		return err
	}
	all, err := s.count(ctx, r, caseFigure(FigRegistered, ""))
	if err != nil {
		return err
	}
	pub, err := s.count(ctx, r, caseFigure(FigPublished, "c.hospital_id", out...))
	if err != nil {
		return err
	}
	rep.Cards = append(rep.Cards, r.figure("outside_registered", UnitCount, num(reg.total)),
		r.figure("outside_share", UnitPercent, ratio(reg.total, all.total)), r.figure("outside_published", UnitCount, num(pub.total)),
		r.figure("outside_hospitals", UnitCount, num(float64(len(reg.keys)))))
	rep.Charts = append(rep.Charts, r.trend("outside_trend", UnitCount, r.series("outside_registered", ptrs(reg.byBucket)),
		r.series("outside_published", ptrs(pub.byBucket))))
	label, err := s.names(ctx, "hospitals", keysOf(nil, reg, pub))
	if err != nil {
		return err
	}
	keys := keysOf(label, reg, pub)
	cats := labelsOf(keys, label)
	rep.Charts = append(rep.Charts, r.chart("outside_by_hospital", "bar", UnitCount, cats,
		r.series("outside_registered", byKeys(reg, keys)), r.series("outside_published", byKeys(pub, keys))))
	tab := r.table("outside_by_hospital", "hospital", r.column("outside_registered", UnitCount), r.column("outside_published", UnitCount))
	for i, k := range keys {
		tab.Rows = append(tab.Rows, StatRow{Key: k, Label: cats[i], Values: []*float64{num(reg.byKey[k]), num(pub.byKey[k])}})
	}
	tab.Rows = append(tab.Rows, StatRow{Key: "total", Label: r.t("statistics.head.total"), Values: []*float64{num(reg.total), num(pub.total)}})
	rep.Tables = append(rep.Tables, tab)
	return nil
}

// diagnosisQuality: frozen–paraffin concordance (of the frozen sections
// whose paraffin case was judged in the period, deferred verdicts left
// out), review disagreement, amended reports and their reasons.
func (s *Service) diagnosisQuality(ctx context.Context, r *run, rep *Stats) error {
	t, err := s.countAll(ctx, r, []named{
		{name: "concordant", m: activity(FigConcordant, "")},
		{name: "concordance_judged", m: activity(FigConcordanceJudged, "")},
		{name: "concordance_deferred", m: activity(FigConcordanceDeferred, "")},
		{name: "disagree", m: activity(FigDisagreed, "")},
		{name: "reviewed", m: activity(FigCaseReviewed, "")},
		{name: "amended", m: reasons(FigAmendReason)},
		{name: "published", m: caseFigure(FigPublished, "")},
	})
	if err != nil {
		return err
	}
	conc, judged, disagree, reviewed, amended, published := t["concordant"], t["concordance_judged"], t["disagree"], t["reviewed"], t["amended"], t["published"]
	rep.Cards = append(rep.Cards, r.figure("frozen_paraffin_concordance", UnitPercent, ratio(conc.total, judged.total)),
		r.figure("concordance_judged", UnitCount, num(judged.total)), r.figure("concordance_deferred", UnitCount, num(t["concordance_deferred"].total)),
		r.figure("reviewed", UnitCount, num(reviewed.total)), r.figure("review_disagreement", UnitPercent, ratio(disagree.total, reviewed.total)),
		r.figure("amended", UnitCount, num(amended.total)), r.figure("amended_rate", UnitPercent, ratio(amended.total, published.total)))
	if judged.total == 0 {
		rep.Notes = append(rep.Notes, r.t("statistics.note.no_concordance"))
	}
	rep.Charts = append(rep.Charts, r.trend("diagnosis_trend", UnitPercent,
		r.series("frozen_paraffin_concordance", rates(conc.byBucket, judged.byBucket)),
		r.series("review_disagreement", rates(disagree.byBucket, reviewed.byBucket)), r.series("amended_rate", rates(amended.byBucket, published.byBucket))))
	tab := r.table("diagnosis_indicators", "indicator", r.column("numerator", UnitCount), r.column("denominator", UnitCount), r.column("rate", UnitPercent))
	for _, x := range []struct {
		key      string
		num, den *tally
	}{{"frozen_paraffin_concordance", conc, judged}, {"review_disagreement", disagree, reviewed}, {"amended_rate", amended, published}} {
		tab.Rows = append(tab.Rows, StatRow{Key: x.key, Label: r.t("statistics.figure." + x.key), Values: []*float64{num(x.num.total), num(x.den.total), ratio(x.num.total, x.den.total)}})
	}
	rep.Tables = append(rep.Tables, tab, reasonTable(r, "amend_reasons", amended))
	return nil
}

// isPublished reports whether m is the published cases, unfiltered.
func isPublished(m measure) bool {
	return m.fig == FigPublished && m.key == "" && len(m.where) == 0 && m.from == ""
}
