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

// Lock values of a case (is_lock): the assigned expert holds the case to write.
const (
	Unlocked = 0
	Locked   = 1
)

// Counter-audit values of a case (manage_confirm).
const (
	CounterAuditNone     = 0
	CounterAuditAsked    = 2 // the administrator asked the expert to reconsider
	CounterAuditRejected = 3 // the expert kept the report
)

// Action names one thing a caller may do with a case: a transition of the
// life cycle, listed in a case's actions when the caller may make it now.
type Action string

// The actions of a case.
const (
	ActUpdate              Action = "update"
	ActDelete              Action = "delete"
	ActSubmit              Action = "submit"
	ActConsultAgain        Action = "consult_again"
	ActRecall              Action = "recall"
	ActRecallAgree         Action = "recall_agree"
	ActRecallReject        Action = "recall_reject"
	ActRecallIgnore        Action = "recall_ignore"
	ActBindExpert          Action = "bind_expert"
	ActReferral            Action = "referral"
	ActExpertReferral      Action = "expert_referral"
	ActHandover            Action = "handover"
	ActHandoverRecall      Action = "handover_recall"
	ActLock                Action = "lock"
	ActUnlock              Action = "unlock"
	ActSave                Action = "save"
	ActToReview            Action = "toreview"
	ActReviewApprove       Action = "review_approve"
	ActReviewReturn        Action = "reviewreturn"
	ActReviewRecall        Action = "reviewrecall"
	ActPublish             Action = "publish"
	ActDiagnosisRecall     Action = "diagnosis_recall"
	ActExpertReturn        Action = "expert_return"
	ActDelay               Action = "delay"
	ActInvite              Action = "invite"
	ActInviteReply         Action = "invite_reply"
	ActShare               Action = "share"
	ActMeeting             Action = "meeting"
	ActAppendDiagnosis     Action = "append_diagnosis"
	ActSlideJudge          Action = "slide_judge"
	ActAppendToReview      Action = "append_toreview"
	ActAppendReviewRecall  Action = "append_reviewrecall"
	ActAppendApprove       Action = "append_approve"
	ActAppendReviewReturn  Action = "append_reviewreturn"
	ActReportPrint         Action = "report_print"
	ActReportDeliver       Action = "report_deliver"
	ActCounterAudit        Action = "counter_audit"
	ActCounterAuditConfirm Action = "counter_audit_confirm"
	ActDiagnosisAmend      Action = "diagnosis_amend"
	ActCounterAuditReject  Action = "counter_audit_reject"
	ActPublisherPublish    Action = "publisher_publish"
	ActPublisherReturn     Action = "publisher_return"
	ActChangeFirstResult   Action = "change_first_result"
	ActAdvice              Action = "advice"
	ActAdviceCancel        Action = "advice_cancel"
	ActSaveShots           Action = "save_shots"
	ActShotsUpdate         Action = "shots_update"
	ActAdviceExecute       Action = "advice_execute"
	ActAdviceTransfer      Action = "advice_transfer"
	ActAdviceUpdate        Action = "advice_update"
	ActAdviceResults       Action = "advice_results"
	ActReturnToSite        Action = "return_to_site"
	// A supplementary report published or discarded: the append_diagnosis
	// transition under its own name, so the list tells them apart.
	ActAppendPublish Action = "append_publish"
	ActAppendDiscard Action = "append_discard"
	// Naming the staff member of a case is no state change, so no transition.
	ActBindStaff Action = "bind_staff"
)

// Events of the case log that are no actions of the list.
const (
	ActCreate        Action = "create"
	ActDraft         Action = "draft"
	ActCharge        Action = "charge"
	ActRefund        Action = "refund"
	ActUnbindStaff   Action = "unbind_staff"
	ActMessage       Action = "message"
	ActMessageDelete Action = "message_delete"
	ActAdviceResult  Action = "advice_result" // a third party's result of advice passed on
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
	Name Action
	// Log names the action in the case log and audit, if not Name.
	Log   Action
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

// logName names the transition in the case log and audit.
func (t Transition) logName() Action {
	if t.Log != "" {
		return t.Log
	}
	return t.Name
}

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

// diagnosing: the assigned expert holds the lock and may work on the case.
func diagnosing(s State) bool {
	return s.Status == StatusSubmitted && s.Assigned && s.IsLock == Locked && s.IsRecall == RecallNone
}

// Transitions is the consultation life cycle (DESIGN.md §4). Diagnosis
// transitions (lock, publish, review…) join it with the diagnosis workspace.
var Transitions = map[Action]Transition{
	ActUpdate: {Name: ActUpdate, Roles: access.HospitalRoles,
		From:  State.editable,
		Apply: func(*State) {}},
	ActDelete: {Name: ActDelete, Roles: access.HospitalRoles,
		From: func(s State) bool {
			return s.Status == StatusToSubmit && s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: func(*State) {}},
	ActSubmit: {Name: ActSubmit, Roles: access.CaseSenders,
		From: func(s State) bool {
			return s.Status == StatusToSubmit && s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: submitted},
	ActConsultAgain: {Name: ActConsultAgain, Roles: access.CaseSenders,
		From: func(s State) bool {
			return s.Status == StatusToSubmit && (s.IsRecall == RecallAgreed || s.IsReturn == ReturnToSite)
		},
		Apply: submitted},
	ActRecall: {Name: ActRecall, Roles: access.CaseSenders,
		From: func(s State) bool {
			return (s.Status == StatusSubmitted || s.Status == StatusToReview) && s.IsRecall == RecallNone
		},
		Apply: func(s *State) { s.IsRecall = RecallRequested }},
	ActRecallAgree: {Name: ActRecallAgree, Roles: access.Allocators,
		From: func(s State) bool { return s.IsRecall == RecallRequested },
		Apply: func(s *State) {
			*s = State{Status: StatusToSubmit, IsRecall: RecallAgreed}
		}},
	ActRecallReject: {Name: ActRecallReject, Roles: access.Allocators,
		From:  func(s State) bool { return s.IsRecall == RecallRequested },
		Apply: func(s *State) { s.IsRecall = RecallNone }},
	ActRecallIgnore: {Name: ActRecallIgnore, Roles: access.Allocators,
		From:  func(s State) bool { return s.IsRecall == RecallRequested },
		Apply: func(s *State) { s.IsRecall = RecallNone }},
	ActBindExpert: {Name: ActBindExpert, Roles: access.Allocators,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.IsRecall == RecallNone && (!s.Assigned || s.IsReturn == ReturnToCenter)
		},
		Apply: func(s *State) { s.Assigned, s.IsReturn, s.IsLock = true, ReturnNone, Unlocked }},
	ActReferral: {Name: ActReferral, Roles: access.Allocators,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.IsRecall == RecallNone && s.Assigned && s.IsLock == Unlocked
		},
		Apply: func(s *State) { s.IsReturn = ReturnNone }},
	ActExpertReferral: {Name: ActExpertReferral, Roles: access.Experts, Holder: AssignedExpert,
		From:  handable,
		Apply: func(s *State) { s.IsLock = Unlocked }},
	ActHandover: {Name: ActHandover, Roles: access.Experts, Holder: AssignedExpert,
		From:  handable,
		Apply: func(s *State) { s.IsLock = Unlocked }},
	// Only the expert who handed the case over, before the colleague locks it.
	ActHandoverRecall: {Name: ActHandoverRecall, Roles: access.Experts, Holder: HandedOverBy,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.Assigned && s.IsLock == Unlocked && s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: func(*State) {}},
	ActLock: {Name: ActLock, Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.Assigned && s.IsLock == Unlocked && s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: func(s *State) { s.IsLock = Locked }},
	ActUnlock: {Name: ActUnlock, Roles: access.Experts, Holder: LockHolder, From: diagnosing,
		Apply: func(s *State) { s.IsLock = Unlocked }},
	ActSave:     {Name: ActSave, Roles: access.Experts, Holder: LockHolder, From: diagnosing, Apply: func(*State) {}},
	ActToReview: {Name: ActToReview, Roles: access.Experts, Holder: LockHolder, From: diagnosing, Apply: func(s *State) { s.Status = StatusToReview }},
	ActReviewApprove: {Name: ActReviewApprove, Roles: access.Experts, Holder: Reviewer,
		From:  func(s State) bool { return s.Status == StatusToReview && s.IsRecall == RecallNone },
		Apply: func(s *State) { s.Status = StatusSubmitted }},
	ActReviewReturn: {Name: ActReviewReturn, Roles: access.Experts, Holder: Reviewer,
		From:  func(s State) bool { return s.Status == StatusToReview && s.IsRecall == RecallNone },
		Apply: func(s *State) { s.Status = StatusSubmitted }},
	ActReviewRecall: {Name: ActReviewRecall, Roles: access.Experts, Holder: AssignedExpert,
		From:  func(s State) bool { return s.Status == StatusToReview && s.IsRecall == RecallNone },
		Apply: func(s *State) { s.Status = StatusSubmitted }},
	ActPublish: {Name: ActPublish, Roles: access.Experts, Holder: LockHolder, From: diagnosing,
		Apply: func(s *State) { s.Status, s.IsLock = StatusCompleted, Unlocked }},
	ActDiagnosisRecall: {Name: ActDiagnosisRecall, Roles: access.Experts, Holder: AssignedExpert,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.Releasing },
		Apply: func(s *State) { s.Status, s.IsLock, s.Releasing = StatusSubmitted, Locked, false }},
	ActExpertReturn: {Name: ActExpertReturn, Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.Assigned && s.IsRecall == RecallNone
		},
		Apply: func(s *State) { s.IsReturn, s.IsLock, s.Assigned = ReturnToCenter, Unlocked, false }},
	ActDelay: {Name: ActDelay, Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return (s.Status == StatusSubmitted || s.Status == StatusToReview) && s.Assigned && s.IsRecall == RecallNone
		},
		Apply: func(*State) {}},
	ActInvite: {Name: ActInvite, Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return (s.Status == StatusSubmitted || s.Status == StatusToReview) && s.Assigned && s.IsRecall == RecallNone
		},
		Apply: func(*State) {}},
	// Sharing by link (internal/share): an expert who sees the case or an
	// administrator, once the case reached its center.
	ActShare: {Name: ActShare, Roles: access.Sharers,
		From:  func(s State) bool { return s.Status != StatusToSubmit },
		Apply: func(*State) {}},
	// A live meeting on the case (internal/meeting): an expert who sees the
	// case, while it is being diagnosed or reviewed.
	ActMeeting: {Name: ActMeeting, Roles: access.Experts,
		From: func(s State) bool {
			return (s.Status == StatusSubmitted || s.Status == StatusToReview) && s.Assigned && s.IsRecall == RecallNone
		},
		Apply: func(*State) {}},
	ActInviteReply: {Name: ActInviteReply, Roles: access.Experts,
		From:  func(s State) bool { return s.Status != StatusToSubmit && s.IsRecall == RecallNone },
		Apply: func(*State) {}},
	// Supplementary report: the assigned expert writes, sends to review,
	// publishes or discards it while none is under review; the reviewer
	// (named on the supplement, checked by the diagnosis domain) answers.
	ActAppendDiagnosis: {Name: ActAppendDiagnosis, Roles: access.Experts, Holder: AssignedExpert, From: supplementable,
		Apply: func(*State) {}},
	// The expert grades the quality of the case's slides while the case is theirs.
	// Publishing or discarding the working supplement (the diagnosis
	// domain's guards: there is one, and its review passed) is logged as
	// writing it, with the step in the detail.
	ActAppendPublish: {Name: ActAppendPublish, Log: ActAppendDiagnosis, Roles: access.Experts, Holder: AssignedExpert, From: supplementable,
		Apply: func(*State) {}},
	ActAppendDiscard: {Name: ActAppendDiscard, Log: ActAppendDiagnosis, Roles: access.Experts, Holder: AssignedExpert, From: supplementable,
		Apply: func(*State) {}},
	ActSlideJudge: {Name: ActSlideJudge, Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return (s.Status == StatusSubmitted || s.Status == StatusToReview || s.Status == StatusCompleted) && s.Assigned &&
				s.IsRecall == RecallNone && s.IsReturn == ReturnNone
		},
		Apply: func(*State) {}},
	ActAppendToReview: {Name: ActAppendToReview, Roles: access.Experts, Holder: AssignedExpert, From: supplementable,
		Apply: func(s *State) { s.SupplementReview = true }},
	ActAppendReviewRecall: {Name: ActAppendReviewRecall, Roles: access.Experts, Holder: AssignedExpert, From: supplementInReview,
		Apply: func(s *State) { s.SupplementReview = false }},
	ActAppendApprove: {Name: ActAppendApprove, Roles: access.Experts, From: supplementInReview,
		Apply: func(s *State) { s.SupplementReview = false }},
	ActAppendReviewReturn: {Name: ActAppendReviewReturn, Roles: access.Experts, From: supplementInReview,
		Apply: func(s *State) { s.SupplementReview = false }},
	ActReportPrint: {Name: ActReportPrint, Roles: access.ReportHandlers,
		From:  func(s State) bool { return s.Status == StatusCompleted && !s.Releasing },
		Apply: func(*State) {}},
	ActReportDeliver: {Name: ActReportDeliver, Roles: access.ReportHandlers,
		From:  func(s State) bool { return s.Status == StatusCompleted && !s.Releasing },
		Apply: func(*State) {}},
	// Not while a supplement is under review: the counter-audit reopens the
	// case, which would leave the supplement's review stranded.
	ActCounterAudit: {Name: ActCounterAudit, Roles: access.Admins,
		From: func(s State) bool {
			return s.Status == StatusCompleted && !s.Releasing && !s.SupplementReview && (s.ManageConfirm == CounterAuditNone || s.ManageConfirm == CounterAuditRejected)
		},
		Apply: func(s *State) { s.ManageConfirm = CounterAuditAsked }},
	ActCounterAuditConfirm: {Name: ActCounterAuditConfirm, Roles: access.Experts, Holder: AssignedExpert,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.ManageConfirm == CounterAuditAsked },
		Apply: func(s *State) { s.Status, s.IsLock, s.ManageConfirm = StatusSubmitted, Locked, CounterAuditNone }},
	// The expert amends their released report: the case reopens, locked to
	// them, for a new version; the earlier one stays in the history, marked.
	ActDiagnosisAmend: {Name: ActDiagnosisAmend, Roles: access.Experts, Holder: AssignedExpert,
		From: func(s State) bool {
			return s.Status == StatusCompleted && !s.Releasing && s.Assigned && s.ManageConfirm != CounterAuditAsked && !s.SupplementReview
		},
		Apply: func(s *State) { s.Status, s.IsLock = StatusSubmitted, Locked }},
	ActCounterAuditReject: {Name: ActCounterAuditReject, Roles: access.Experts, Holder: AssignedExpert,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.ManageConfirm == CounterAuditAsked },
		Apply: func(s *State) { s.ManageConfirm = CounterAuditRejected }},
	// The publisher reviews a report in its hesitation period: releases it
	// now, or returns it to the expert with a reason.
	ActPublisherPublish: {Name: ActPublisherPublish, Roles: access.Publishers,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.Releasing },
		Apply: func(s *State) { s.Releasing = false }},
	ActPublisherReturn: {Name: ActPublisherReturn, Roles: access.Publishers,
		From:  func(s State) bool { return s.Status == StatusCompleted && s.Releasing },
		Apply: func(s *State) { s.Status, s.IsLock, s.Releasing = StatusSubmitted, Unlocked, false }},
	// The administrator's verdict on the first report, in a counter-audit.
	ActChangeFirstResult: {Name: ActChangeFirstResult, Roles: access.Admins,
		From: func(s State) bool {
			return s.Status == StatusCompleted && !s.Releasing && (s.ManageConfirm == CounterAuditAsked || s.ManageConfirm == CounterAuditRejected)
		},
		Apply: func(*State) {}},
	// Advice: the expert orders special exams or technical re-work; the
	// site executes it or passes a special exam to a third party.
	ActAdvice:         {Name: ActAdvice, Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	ActAdviceCancel:   {Name: ActAdviceCancel, Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	ActSaveShots:      {Name: ActSaveShots, Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	ActShotsUpdate:    {Name: ActShotsUpdate, Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	ActAdviceExecute:  {Name: ActAdviceExecute, Roles: access.HospitalRoles, From: atCenter, Apply: func(*State) {}},
	ActAdviceTransfer: {Name: ActAdviceTransfer, Roles: access.HospitalRoles, From: atCenter, Apply: func(*State) {}},
	// The expert changes a pending advice, or records the marker results of
	// an executed special exam.
	ActAdviceUpdate:  {Name: ActAdviceUpdate, Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	ActAdviceResults: {Name: ActAdviceResults, Roles: access.Experts, Holder: AssignedExpert, From: advisable, Apply: func(*State) {}},
	ActReturnToSite: {Name: ActReturnToSite, Roles: access.Allocators,
		From: func(s State) bool {
			return s.Status == StatusSubmitted && s.IsRecall == RecallNone && s.IsLock == Unlocked
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
func Check(p *access.Principal, name Action, st State) (Transition, error) {
	t, ok := Transitions[name]
	if !ok {
		return t, apperr.New(apperr.Internal, "error.internal")
	}
	if !p.HasAny(t.Roles) {
		return t, apperr.New(apperr.Forbidden, "error.forbidden")
	}
	if !t.From(st) {
		return t, apperr.New(apperr.Conflict, "case.bad_state").
			With("action", apperr.MsgKey("case.action."+string(t.logName()))).With("status", apperr.MsgKey("case.status."+LabelKey(st)))
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
	case st.Status == StatusSubmitted && st.IsLock == Unlocked:
		return "pending_diagnosis"
	case st.Status == StatusSubmitted:
		return "diagnosing"
	case st.Status == StatusToReview:
		return "to_review"
	case st.Releasing:
		return "releasing"
	case st.ManageConfirm == CounterAuditAsked:
		return "counter_audit_to_confirm"
	case st.ManageConfirm == CounterAuditRejected:
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
