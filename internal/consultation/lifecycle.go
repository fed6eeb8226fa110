package consultation

import (
	"slices"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// Status values of a consultation (spec 2 §3, §4).
const (
	StatusToSubmit  = 0
	StatusSubmitted = 1
	StatusToReview  = 2
	StatusCompleted = 4
)

// Recall and return flags.
const (
	RecallNone      = 0
	RecallRequested = 1 // withdraw unconfirmed
	RecallAgreed    = 2 // recalled
	ReturnNone      = 0
	ReturnToSite    = -1
	ReturnToCenter  = 1
)

// State is the part of a consultation the life cycle reads and changes.
type State struct {
	Status        int  `json:"status" db:"status" doc:"0 to be submitted, 1 submitted, 2 to review, 4 completed"`
	IsDraft       int  `json:"is_draft" db:"is_draft"`
	IsRecall      int  `json:"is_recall" db:"is_recall" doc:"1 withdraw unconfirmed, 2 recalled"`
	IsReturn      int  `json:"is_return" db:"is_return" doc:"-1 returned to site, 1 returned to center"`
	IsLock        int  `json:"is_lock" db:"is_lock"`
	ManageConfirm int  `json:"manage_confirm" db:"manage_confirm"`
	Assigned      bool `json:"-" db:"-"`
	Releasing     bool `json:"-" db:"-"` // published, still in the hesitation period
	// SupplementReview: a supplementary report of the case waits for its reviewer.
	SupplementReview bool `json:"supplement_review" db:"supplement_review"`
}

// editable: the site may change the registration.
func (s State) editable() bool { return s.Status == StatusToSubmit && s.IsRecall != RecallRequested }

// Transition is one allowed change of the life cycle: who may make it, from
// which states, and what it does to the state. Everything not listed here
// is refused.
type Transition struct {
	Name  string
	Roles []string
	// Holder narrows Roles to one person of the case, if set.
	Holder Holder
	From   func(State) bool
	Apply  func(*State)
}

// Holder names the one person of a case who may make a transition.
type Holder int

const (
	AnyHolder      Holder = iota
	AssignedExpert        // the expert the case is assigned to
	LockHolder            // the expert holding the lock
	Reviewer              // the expert asked to review
	HandedOverBy          // the expert who handed the case over (pending handover)
)

// holds reports whether p is the person t requires on case r.
func (t Transition) holds(p *access.Principal, r *Row) error {
	var id *int64
	key := "diagnosis.not_assigned"
	switch t.Holder {
	case AnyHolder:
		return nil
	case AssignedExpert:
		id = r.ExpertID
	case LockHolder:
		id, key = r.LockedBy, "diagnosis.locked_by_other"
	case Reviewer:
		id, key = r.ReviewerID, "diagnosis.not_reviewer"
	case HandedOverBy:
		id, key = r.HandoverFrom, "diagnosis.no_handover"
	}
	if id == nil || *id != p.UserID {
		return apperr.New(apperr.Conflict, key)
	}
	return nil
}

var ()

// diagnosing: the assigned expert holds the lock and may work on the case.
func diagnosing(s State) bool {
	return s.Status == StatusSubmitted && s.Assigned && s.IsLock == 1 && s.IsRecall == RecallNone
}

// Transitions is the consultation life cycle (DESIGN.md §4). Diagnosis
// transitions (lock, publish, review…) join it with the diagnosis workspace.
var Transitions = map[string]Transition{
	"update": {Name: "update", Roles: access.HospitalRoles,
		From:  State.editable,
		Apply: func(*State) {}},
	"delete": {Name: "delete", Roles: access.HospitalRoles,
		From: func(s State) bool {
			return s.Status == StatusToSubmit && s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: func(*State) {}},
	"submit": {Name: "submit", Roles: access.HospitalRoles,
		From: func(s State) bool {
			return s.Status == StatusToSubmit && s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: submitted},
	"consult_again": {Name: "consult_again", Roles: access.HospitalRoles,
		From: func(s State) bool {
			return s.Status == StatusToSubmit && (s.IsRecall == RecallAgreed || s.IsReturn == ReturnToSite)
		},
		Apply: submitted},
	"recall": {Name: "recall", Roles: access.HospitalRoles,
		From: func(s State) bool {
			return (s.Status == StatusSubmitted || s.Status == StatusToReview) && s.IsRecall == RecallNone
		},
		Apply: func(s *State) { s.IsRecall = RecallRequested }},
	"recall_agree": {Name: "recall_agree", Roles: access.Allocators,
		From: func(s State) bool { return s.IsRecall == RecallRequested },
		Apply: func(s *State) {
			*s = State{Status: StatusToSubmit, IsRecall: RecallAgreed}
		}},
	"recall_reject": {Name: "recall_reject", Roles: access.Allocators,
		From:  func(s State) bool { return s.IsRecall == RecallRequested },
		Apply: func(s *State) { s.IsRecall = RecallNone }},
	"recall_ignore": {Name: "recall_ignore", Roles: access.Allocators,
		From:  func(s State) bool { return s.IsRecall == RecallRequested },
		Apply: func(s *State) { s.IsRecall = RecallNone }},
	"bind_expert": {Name: "bind_expert", Roles: access.Allocators,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.IsRecall == RecallNone && (!s.Assigned || s.IsReturn == ReturnToCenter)
		},
		Apply: func(s *State) { s.Assigned, s.IsReturn, s.IsLock = true, ReturnNone, 0 }},
	"referral": {Name: "referral", Roles: access.Allocators,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.IsRecall == RecallNone && s.Assigned && s.IsLock == 0
		},
		Apply: func(s *State) { s.IsReturn = ReturnNone }},
	"expert_referral": {Name: "expert_referral", Roles: access.Experts, Holder: AssignedExpert,
		From:  handable,
		Apply: func(s *State) { s.IsLock = 0 }},
	"handover": {Name: "handover", Roles: access.Experts, Holder: AssignedExpert,
		From:  handable,
		Apply: func(s *State) { s.IsLock = 0 }},
	// Only the expert who handed the case over, before the colleague locks it.
	"handover_recall": {Name: "handover_recall", Roles: access.Experts, Holder: HandedOverBy,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.Assigned && s.IsLock == 0 && s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: func(*State) {}},
	"lock": {Name: "lock", Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.Assigned && s.IsLock == 0 && s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: func(s *State) { s.IsLock = 1 }},
	"unlock": {Name: "unlock", Roles: access.Experts, Holder: LockHolder, From: diagnosing,
		Apply: func(s *State) { s.IsLock = 0 }},
	"save":     {Name: "save", Roles: access.Experts, Holder: LockHolder, From: diagnosing, Apply: func(*State) {}},
	"toreview": {Name: "toreview", Roles: access.Experts, Holder: LockHolder, From: diagnosing, Apply: func(s *State) { s.Status = StatusToReview }},
	"review_approve": {Name: "review_approve", Roles: access.Experts, Holder: Reviewer,
		From:  func(s State) bool { return s.Status == StatusToReview && s.IsRecall == RecallNone },
		Apply: func(s *State) { s.Status = StatusSubmitted }},
	"reviewreturn": {Name: "reviewreturn", Roles: access.Experts, Holder: Reviewer,
		From:  func(s State) bool { return s.Status == StatusToReview && s.IsRecall == RecallNone },
		Apply: func(s *State) { s.Status = StatusSubmitted }},
	"reviewrecall": {Name: "reviewrecall", Roles: access.Experts, Holder: AssignedExpert,
		From:  func(s State) bool { return s.Status == StatusToReview && s.IsRecall == RecallNone },
		Apply: func(s *State) { s.Status = StatusSubmitted }},
	"publish": {Name: "publish", Roles: access.Experts, Holder: LockHolder, From: diagnosing,
		Apply: func(s *State) { s.Status, s.IsLock = StatusCompleted, 0 }},
	"diagnosis_recall": {Name: "diagnosis_recall", Roles: access.Experts, Holder: AssignedExpert,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.Releasing },
		Apply: func(s *State) { s.Status, s.IsLock, s.Releasing = StatusSubmitted, 1, false }},
	"expert_return": {Name: "expert_return", Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.Assigned && s.IsRecall == RecallNone
		},
		Apply: func(s *State) { s.IsReturn, s.IsLock, s.Assigned = ReturnToCenter, 0, false }},
	"delay": {Name: "delay", Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return (s.Status == StatusSubmitted || s.Status == StatusToReview) && s.Assigned && s.IsRecall == RecallNone
		},
		Apply: func(*State) {}},
	"invite": {Name: "invite", Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return (s.Status == StatusSubmitted || s.Status == StatusToReview) && s.Assigned && s.IsRecall == RecallNone
		},
		Apply: func(*State) {}},
	"invite_reply": {Name: "invite_reply", Roles: access.Experts,
		From:  func(s State) bool { return s.Status != StatusToSubmit && s.IsRecall == RecallNone },
		Apply: func(*State) {}},
	// Supplementary report: the assigned expert writes, sends to review,
	// publishes or discards it while none is under review; the reviewer
	// (named on the supplement, checked by the diagnosis domain) answers.
	"append_diagnosis": {Name: "append_diagnosis", Roles: access.Experts, Holder: AssignedExpert, From: supplementable,
		Apply: func(*State) {}},
	// The expert grades the quality of the case's slides while the case is theirs.
	"slide_judge": {Name: "slide_judge", Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return (s.Status == StatusSubmitted || s.Status == StatusToReview || s.Status == StatusCompleted) && s.Assigned &&
				s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: func(*State) {}},
	"append_toreview": {Name: "append_toreview", Roles: access.Experts, Holder: AssignedExpert, From: supplementable,
		Apply: func(s *State) { s.SupplementReview = true }},
	"append_reviewrecall": {Name: "append_reviewrecall", Roles: access.Experts, Holder: AssignedExpert, From: supplementInReview,
		Apply: func(s *State) { s.SupplementReview = false }},
	"append_approve": {Name: "append_approve", Roles: access.Experts, From: supplementInReview,
		Apply: func(s *State) { s.SupplementReview = false }},
	"append_reviewreturn": {Name: "append_reviewreturn", Roles: access.Experts, From: supplementInReview,
		Apply: func(s *State) { s.SupplementReview = false }},
	"report_print": {Name: "report_print", Roles: access.ReportHandlers,
		From:  func(s State) bool { return s.Status == StatusCompleted && !s.Releasing },
		Apply: func(*State) {}},
	"report_deliver": {Name: "report_deliver", Roles: access.ReportHandlers,
		From:  func(s State) bool { return s.Status == StatusCompleted && !s.Releasing },
		Apply: func(*State) {}},
	// Not while a supplement is under review: the counter-audit reopens the
	// case, which would leave the supplement's review stranded.
	"counter_audit": {Name: "counter_audit", Roles: access.Admins,
		From: func(s State) bool {
			return s.Status == StatusCompleted && !s.Releasing && !s.SupplementReview && (s.ManageConfirm == 0 || s.ManageConfirm == 3)
		},
		Apply: func(s *State) { s.ManageConfirm = 2 }},
	"counter_audit_confirm": {Name: "counter_audit_confirm", Roles: access.Experts, Holder: AssignedExpert,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.ManageConfirm == 2 },
		Apply: func(s *State) { s.Status, s.IsLock, s.ManageConfirm = StatusSubmitted, 1, 0 }},
	// The expert amends their released report: the case reopens, locked to
	// them, for a new version; the earlier one stays in the history, marked.
	"diagnosis_amend": {Name: "diagnosis_amend", Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return s.Status == StatusCompleted && !s.Releasing && s.Assigned && s.ManageConfirm != 2 && !s.SupplementReview
		},
		Apply: func(s *State) { s.Status, s.IsLock = StatusSubmitted, 1 }},
	"counter_audit_reject": {Name: "counter_audit_reject", Roles: access.Experts, Holder: AssignedExpert,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.ManageConfirm == 2 },
		Apply: func(s *State) { s.ManageConfirm = 3 }},
	// The publisher reviews a report in its hesitation period: releases it
	// now, or returns it to the expert with a reason.
	"publisher_publish": {Name: "publisher_publish", Roles: access.Publishers,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.Releasing },
		Apply: func(s *State) { s.Releasing = false }},
	"publisher_return": {Name: "publisher_return", Roles: access.Publishers,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.Releasing },
		Apply: func(s *State) { s.Status, s.IsLock, s.Releasing = StatusSubmitted, 0, false }},
	// The administrator's verdict on the first report, in a counter-audit.
	"change_first_result": {Name: "change_first_result", Roles: access.Admins,
		From: func(s State) bool {
			return s.Status == StatusCompleted && !s.Releasing && (s.ManageConfirm == 2 || s.ManageConfirm == 3)
		},
		Apply: func(*State) {}},
	// Advice: the expert orders special exams or technical re-work; the
	// site executes it or passes a special exam to a third party.
	"advice":          {Name: "advice", Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	"advice_cancel":   {Name: "advice_cancel", Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	"save_shots":      {Name: "save_shots", Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	"shots_update":    {Name: "shots_update", Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	"advice_execute":  {Name: "advice_execute", Roles: access.HospitalRoles, From: atCenter, Apply: func(*State) {}},
	"advice_transfer": {Name: "advice_transfer", Roles: access.HospitalRoles, From: atCenter, Apply: func(*State) {}},
	// The expert changes a pending advice, or records the marker results of
	// an executed special exam.
	"advice_update":  {Name: "advice_update", Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	"advice_results": {Name: "advice_results", Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	"return_to_site": {Name: "return_to_site", Roles: access.Allocators,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.IsRecall == RecallNone && s.IsLock == 0
		},
		Apply: func(s *State) {
			*s = State{Status: StatusToSubmit, IsReturn: ReturnToSite}
		}},
}

// handable: the assigned expert may give the case to a colleague while it
// is theirs to diagnose (not under review, recall or return).
func handable(s State) bool {
	return s.Status == StatusSubmitted && s.Assigned && s.IsRecall == RecallNone && s.IsReturn == ReturnNone
}

// supplementable: the report is released and no supplement is under review.
func supplementable(s State) bool {
	return s.Status == StatusCompleted && !s.Releasing && s.Assigned && !s.SupplementReview
}

func supplementInReview(s State) bool {
	return s.Status == StatusCompleted && !s.Releasing && s.Assigned && s.SupplementReview
}

// advisable: the assigned expert is working on the case.
func advisable(s State) bool {
	return (s.Status == StatusSubmitted || s.Status == StatusToReview) && s.Assigned && s.IsRecall == RecallNone
}

// atCenter: the case is with the center (submitted, not recalled).
func atCenter(s State) bool {
	return s.Status != StatusToSubmit && s.IsRecall == RecallNone
}

func submitted(s *State) {
	*s = State{Status: StatusSubmitted}
}

// Check returns the transition named if p may make it from st.
func Check(p *access.Principal, name string, st State) (Transition, error) {
	t, ok := Transitions[name]
	if !ok {
		return t, apperr.New(apperr.Internal, "error.internal")
	}
	if !p.HasAny(t.Roles) {
		return t, apperr.New(apperr.Forbidden, "error.forbidden")
	}
	if !t.From(st) {
		return t, apperr.New(apperr.Conflict, "case.bad_state").
			With("action", apperr.MsgKey("case.action."+name)).With("status", apperr.MsgKey("case.status."+LabelKey(st)))
	}
	return t, nil
}

// Label keys and colours (spec 2 §4 Status colours), derived in one place.
var colours = map[string]string{
	"withdraw_unconfirmed": "amber", "recalled": "red", "returned_to_site": "red", "returned_to_center": "red",
	"to_be_submitted": "orange", "draft": "orange", "to_allot": "purple", "pending_diagnosis": "blue",
	"diagnosing": "purple", "to_review": "pink", "published": "green", "releasing": "blue",
	"counter_audit_to_confirm": "brown", "counter_audit_rejected": "indigo", "supplement_to_review": "pink",
}

// LabelKey names the display status of st (spec 2 §4 Consultation status labels).
func LabelKey(st State) string {
	switch {
	case st.IsRecall == RecallRequested:
		return "withdraw_unconfirmed"
	case st.IsRecall == RecallAgreed && st.Status == StatusToSubmit:
		return "recalled"
	case st.IsReturn == ReturnToSite && st.Status == StatusToSubmit:
		return "returned_to_site"
	case st.IsReturn == ReturnToCenter && st.Status == StatusSubmitted:
		return "returned_to_center"
	case st.Status == StatusToSubmit && st.IsDraft == 1:
		return "draft"
	case st.Status == StatusToSubmit:
		return "to_be_submitted"
	case st.Status == StatusSubmitted && !st.Assigned:
		return "to_allot"
	case st.Status == StatusSubmitted && st.IsLock == 0:
		return "pending_diagnosis"
	case st.Status == StatusSubmitted:
		return "diagnosing"
	case st.Status == StatusToReview:
		return "to_review"
	case st.Releasing:
		return "releasing"
	case st.ManageConfirm == 2:
		return "counter_audit_to_confirm"
	case st.ManageConfirm == 3:
		return "counter_audit_rejected"
	case st.SupplementReview:
		return "supplement_to_review"
	}
	return "published"
}

// StatusLabel is the display status the web app shows as a coloured tag.
type StatusLabel struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Color string `json:"color"`
}

// Label returns the localized display status of st.
func Label(lang i18n.Lang, st State) StatusLabel {
	k := LabelKey(st)
	return StatusLabel{Key: k, Label: i18n.T(lang, "case.status."+k, nil), Color: colours[k]}
}

// LabelKeys lists every display status, for the web app's filters.
func LabelKeys() []string {
	keys := make([]string, 0, len(colours))
	for k := range colours {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func labelText(lang i18n.Lang, key string) string { return i18n.T(lang, "case.status."+key, nil) }
