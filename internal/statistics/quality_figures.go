package statistics

import (
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// Quality figures are the activity figures (see activity.go) of the frozen
// sections and the supplementary reports that the quality and diagnosis
// screens count, kept in the daily rollups by migration 0070 (view
// stat_activity, written again there; TestStatisticsRollups checks that
// both give the same numbers). A frozen section's figures count under its
// own expert (fa.expert_id, the column the screens' expert filter reads),
// a supplement under the case's expert.
const (
	FigFrozenReported      = "frozen_reported"      // a frozen section arrived and reported, on its report
	FigFrozenInTime        = "frozen_in_time"       // the same, reported within FrozenLimit of its arrival
	FigConcordant          = "concordant"           // a frozen section judged concordant with its paraffin case, on the judgement
	FigConcordanceJudged   = "concordance_judged"   // judged concordant or discordant
	FigConcordanceDeferred = "concordance_deferred" // judged deferred to the paraffin sections
	FigSupplemented        = "supplemented"         // a supplementary report published
)

func frozenReported(cond func(r *run) sq.Sqlizer) activityDef {
	return activityDef{from: fromFrozen, at: "fa.reported_at", expert: "fa.expert_id", where: []sq.Sqlizer{sq.Expr("fa.arrived_at IS NOT NULL")}, cond: cond}
}

func concordance(verdicts ...string) activityDef {
	return activityDef{from: fromFrozen, at: "fa.concordance_at", expert: "fa.expert_id", where: []sq.Sqlizer{sq.Eq{"fa.concordance": verdicts}}}
}

func init() {
	quality := map[string]activityDef{
		FigFrozenReported: frozenReported(nil),
		FigFrozenInTime: frozenReported(func(r *run) sq.Sqlizer {
			return sq.Expr(r.seconds("fa.arrived_at", "fa.reported_at") + fmt.Sprintf(" <= %d", FrozenLimit))
		}),
		FigConcordant:          concordance("concordant"),
		FigConcordanceJudged:   concordance("concordant", "discordant"),
		FigConcordanceDeferred: concordance("deferred"),
		FigSupplemented:        {from: fromDiagnoses, at: "d.published_at", where: []sq.Sqlizer{sq.Expr("d.type = 1")}},
	}
	for _, name := range []string{FigFrozenReported, FigFrozenInTime, FigConcordant, FigConcordanceJudged, FigConcordanceDeferred, FigSupplemented} {
		activities[name] = quality[name]
		Activities = append(Activities, name)
	}
}
