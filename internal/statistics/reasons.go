package statistics

import (
	sq "github.com/Masterminds/squirrel"
)

// Reason figures are the free-text reasons the quality screens count per
// reason: a diagnosis amended (its log line's detail) and a slide judged D
// (its judgement's reason), under the case's expert. They are kept per
// reason in their own daily rollups (table stat_reasons, migration 0073,
// view stat_reason_figures; TestStatisticsRollups checks that both reads
// give the same reasons and counts). The reason is the text as written,
// neither trimmed nor dropped when empty; NULL reads as ” both ways.
const (
	FigAmendReason  = "amend_reason"   // a diagnosis_amend log line, by its detail
	FigGradeDReason = "grade_d_reason" // a D judgement, by its reason
)

// reasonKeys is each reason figure's key in the live read.
var reasonKeys = map[string]string{FigAmendReason: "l.detail", FigGradeDReason: "sj.reason"}

func init() {
	activities[FigAmendReason] = logs("", "diagnosis_amend")
	// A literal grade, which SQLite's partial index of migration 0068 needs.
	activities[FigGradeDReason] = activityDef{from: fromJudgements, at: "sj.created_at", where: []sq.Sqlizer{sq.Expr("sj.grade = 'D'")}}
}

// reasons is the measure of reason figure name, keyed by the reason.
func reasons(name string) measure { return measure{fig: name, key: reasonKeys[name]} }

// isReason reports whether figure name is a reason figure.
func isReason(name string) bool {
	_, ok := reasonKeys[name]
	return ok
}

// reasonsRebuild is the SQL that counts the reason rollups again, set-wise.
func reasonsRebuild(r *run) []string {
	return []string{"DELETE FROM stat_reasons",
		"INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n) SELECT figure, grain, " + r.day("at") +
			", center_id, " + grainColumns + ", reason, SUM(n)" +
			" FROM stat_reason_figures CROSS JOIN stat_grains WHERE 1 = 1 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8"}
}
