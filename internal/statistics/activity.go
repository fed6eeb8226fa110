package statistics

import (
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// Activity figures are the rows a case's activity leaves, counted (or
// summed, for charges) on the local day of their instant: log lines,
// charges and invitations. The daily rollups keep them beside the case
// figures (migration 0059, view stat_activity, written again there;
// TestStatisticsRollups checks that both give the same numbers). One whose
// expert is set counts under that column of its row (the author of a log
// line, the inviter or invitee) instead of the case's expert.
const (
	FigReturned       = "returned"         // a log line returning the case (by the expert or to the site)
	FigRecalled       = "recalled"         // a recall agreed
	FigCounterAudit   = "counter_audit"    // a counter-audit
	FigAmended        = "amended"          // a diagnosis amended
	FigReviewed       = "reviewed"         // a review done, under its author
	FigReferred       = "referred"         // a referral, under its author
	FigExpertReturned = "expert_returned"  // a return by the expert, under its author
	FigCaseReviewed   = "case_reviewed"    // a review done, under the case's expert
	FigDisagreed      = "review_disagreed" // a review sending the diagnosis back
	FigCharged        = "charged"          // fen charged
	FigRefunded       = "refunded"         // fen refunded
	FigInviteSent     = "invite_sent"      // an invitation, under its inviter
	FigInviteAnswered = "invite_answered"  // an invitation answered, under its invitee
)

// Slide grade figures: a slide judged A, B, C or D on its judgement's
// created_at, under the case's expert (migration 0068). FigGrade names
// grade g's figure.
const (
	FigGradeA = "slide_grade_A"
	FigGradeB = "slide_grade_B"
	FigGradeC = "slide_grade_C"
	FigGradeD = "slide_grade_D"
)

// FigGrade is the figure of slide grade g (one of Grades).
func FigGrade(g string) string { return "slide_grade_" + g }

func judged(grade string) activityDef {
	return activityDef{from: fromJudgements, at: "sj.created_at", where: []sq.Sqlizer{sq.Eq{"sj.grade": grade}}}
}

// Review actions of the log.
var (
	reviewActions   = []string{"review_approve", "reviewreturn", "append_approve", "append_reviewreturn"}
	disagreeActions = []string{"reviewreturn", "append_reviewreturn"}
)

// activityDef is an activity figure's rows, instant, conditions, what a
// row adds (COUNT(*) unless set) and the column it counts under as expert.
type activityDef struct {
	from, at, value, expert string
	where                   []sq.Sqlizer
	cond                    func(r *run) sq.Sqlizer // a further condition in the run's dialect, if set
}

func logs(expert string, actions ...string) activityDef {
	return activityDef{from: fromLogs, at: "l.created_at", expert: expert, where: []sq.Sqlizer{sq.Eq{"l.action": actions}}}
}

var activities = map[string]activityDef{
	FigReturned:       logs("", "expert_return", "return_to_site"),
	FigRecalled:       logs("", "recall_agree"),
	FigCounterAudit:   logs("", "counter_audit"),
	FigAmended:        logs("", "diagnosis_amend"),
	FigReviewed:       logs("l.user_id", reviewActions...),
	FigReferred:       logs("l.user_id", "expert_referral"),
	FigExpertReturned: logs("l.user_id", "expert_return"),
	FigCaseReviewed:   logs("", reviewActions...),
	FigDisagreed:      logs("", disagreeActions...),
	FigCharged:        {from: fromCharges, at: "ch.charged_at", value: "COALESCE(SUM(ch.total_fen), 0)"},
	FigRefunded:       {from: fromCharges, at: "ch.refunded_at", value: "COALESCE(SUM(ch.total_fen), 0)"},
	FigInviteSent:     {from: fromInvites, at: "i.created_at", expert: "i.inviter_id"},
	FigInviteAnswered: {from: fromInvites, at: "i.replied_at", expert: "i.invitee_id"},
	FigGradeA:         judged("A"),
	FigGradeB:         judged("B"),
	FigGradeC:         judged("C"),
	FigGradeD:         judged("D"),
}

// Activities lists the activity figures.
var Activities = []string{FigReturned, FigRecalled, FigCounterAudit, FigAmended, FigReviewed, FigReferred, FigExpertReturned,
	FigCaseReviewed, FigDisagreed, FigCharged, FigRefunded, FigInviteSent, FigInviteAnswered, FigGradeA, FigGradeB, FigGradeC, FigGradeD}

// activity is the measure of activity figure name, keyed by key (which may
// name the figure's expert column, read from the rollups' expert column).
func activity(name, key string) measure { return measure{fig: name, key: key} }

// rollupMeasure is m as the rollups read it: an activity figure's own
// expert column is their expert column.
func rollupMeasure(m measure) measure {
	if isReason(m.fig) {
		m.key = "c.reason"
	}
	if a, ok := activities[m.fig]; ok && a.expert != "" {
		m.key = strings.ReplaceAll(m.key, a.expert, "c.expert_id")
	}
	return m
}

// liveMeasure is m with the rows, instant, conditions, value and expert
// column of its activity figure, if it is one.
func liveMeasure(r *run, m measure) (measure, bool) {
	a, ok := activities[m.fig]
	if !ok {
		return m, false
	}
	m.from, m.at, m.value, m.expert = a.from, a.at, a.value, a.expert
	m.where = slices.Concat(a.where, m.where)
	if a.cond != nil {
		m.where = append(m.where, a.cond(r))
	}
	return m, true
}

// Trace, when set (by a benchmark, before any request), is told how long
// each measure of a screen took to read, named by its figure, rows,
// instant and key.
var Trace func(name string, took time.Duration)

func traced(name string, start time.Time) {
	if Trace != nil {
		Trace(name, time.Since(start))
	}
}
