package frozen

import (
	"context"
	"slices"
	"time"

	"telepath/internal/platform/access"
)

// Status values of a frozen appointment (spec 2 §4 "Frozen case").
const (
	StatusApplying = 99  // applying
	StatusPending  = 100 // appointment successful, pending the tissue
	StatusReturned = 101 // returned with a reason
)

// Recall values (is_recall).
const (
	RecallNone   = 0
	RecallAsked  = 1 // withdraw unconfirmed
	RecallAgreed = 2 // recalled
)

// Phase is where an appointment is in its life, derived from its columns.
type Phase string

const (
	PhaseApplying    Phase = "applying"
	PhasePending     Phase = "pending"
	PhaseFailed      Phase = "failed" // pending, and the tissue never came: a failed appointment
	PhaseReturned    Phase = "returned"
	PhaseRecallAsked Phase = "recall_asked"
	PhaseRecalled    Phase = "recalled"
	PhaseArrived     Phase = "arrived"  // the frozen case's slides arrived: an expert reads it
	PhaseReported    Phase = "reported" // the frozen diagnosis is published
)

// Action names one thing a caller may do with an appointment.
type Action string

const (
	ActAccept       Action = "accept"
	ActReturn       Action = "return"
	ActIgnore       Action = "ignore"
	ActUnignore     Action = "unignore"
	ActRecall       Action = "recall"
	ActRecallAgree  Action = "recall_agree"
	ActRecallReject Action = "recall_reject"
	ActArrive       Action = "arrive"
	ActAssign       Action = "assign"
	ActOpen         Action = "open"
	// ActResubmit sends a returned appointment again, changed.
	ActResubmit Action = "resubmit"
	// ActParaffin registers the paraffin case that follows a reported frozen
	// case (spec 2 §7 after_frozen_paraffin_block).
	ActParaffin Action = "after_frozen_paraffin_block"
	// ActConcordance records how the paraffin diagnosis compares with the frozen one.
	ActConcordance Action = "concordance"
)

// Concordance values: how the published paraffin diagnosis compares with
// the frozen verdict ("" until someone judges it).
const (
	Concordant = "concordant"
	Discordant = "discordant"
	Deferred   = "deferred" // the frozen diagnosis deferred to paraffin sections
)

// Side is the part a caller plays for one appointment.
type Side int

const (
	SideSite           Side = iota // the booking hospital
	SideAllocator                  // the center's allocator, center administrator or an administrator
	SideExpert                     // the expert the frozen case is assigned to
	SideParaffinExpert             // the expert of the paraffin case that followed
)

// Transition is one allowed move: from one of the phases, by one side.
type Transition struct {
	Action Action
	From   []Phase
	By     Side
	// When further restricts the move by the appointment's columns.
	When func(a *Appointment) bool
}

// Transitions is the frozen state machine. Everything not listed is refused.
var Transitions = []Transition{
	{Action: ActAccept, From: []Phase{PhaseApplying}, By: SideAllocator},
	{Action: ActReturn, From: []Phase{PhaseApplying, PhasePending}, By: SideAllocator},
	{Action: ActIgnore, From: []Phase{PhaseApplying}, By: SideAllocator, When: func(a *Appointment) bool { return a.IsIgnored == 0 }},
	{Action: ActUnignore, From: []Phase{PhaseApplying}, By: SideAllocator, When: func(a *Appointment) bool { return a.IsIgnored == 1 }},
	{Action: ActRecall, From: []Phase{PhaseApplying, PhasePending}, By: SideSite},
	{Action: ActResubmit, From: []Phase{PhaseReturned}, By: SideSite},
	{Action: ActRecallAgree, From: []Phase{PhaseRecallAsked}, By: SideAllocator},
	{Action: ActRecallReject, From: []Phase{PhaseRecallAsked}, By: SideAllocator},
	{Action: ActArrive, From: []Phase{PhasePending}, By: SideSite},
	{Action: ActAssign, From: []Phase{PhaseArrived}, By: SideAllocator},
	{Action: ActOpen, From: []Phase{PhaseArrived}, By: SideExpert},
	{Action: ActParaffin, From: []Phase{PhaseReported}, By: SideSite, When: func(a *Appointment) bool { return a.ParaffinCaseID == nil && !a.paraffinOff }},
	{Action: ActConcordance, From: []Phase{PhaseReported}, By: SideParaffinExpert, When: paraffinPublished},
	{Action: ActConcordance, From: []Phase{PhaseReported}, By: SideAllocator, When: paraffinPublished},
}

// paraffinPublished: the paraffin case's report is out, so the two
// diagnoses can be compared.
func paraffinPublished(a *Appointment) bool { return a.ParaffinPublished }

// FailedAfter is how long after the planned operation time an accepted
// appointment whose tissue never arrived counts as failed (spec 2 §4
// "failed appointment"): the operation did not take place as booked.
const FailedAfter = 24 * time.Hour

// PhaseOf derives an appointment's phase.
func PhaseOf(a *Appointment) Phase {
	switch {
	case a.ReportedAt != nil:
		return PhaseReported
	case a.ArrivedAt != nil:
		return PhaseArrived
	case a.IsRecall == RecallAgreed:
		return PhaseRecalled
	case a.IsRecall == RecallAsked:
		return PhaseRecallAsked
	case a.Status == StatusReturned:
		return PhaseReturned
	case a.Status == StatusPending && a.Failed:
		return PhaseFailed
	case a.Status == StatusPending:
		return PhasePending
	}
	return PhaseApplying
}

// sides are the parts the caller plays for a.
func sides(p *access.Principal, a *Appointment) []Side {
	var out []Side
	if p == nil {
		return out
	}
	if (p.Has(access.Site) || p.Has(access.Clinical)) && slices.Contains(p.HospitalIDs, a.HospitalID) {
		out = append(out, SideSite)
	}
	if p.IsAdmin() || ((p.Has(access.Allocator) || p.Has(access.CenterAdmin)) && slices.Contains(p.CenterIDs, a.CenterID)) {
		out = append(out, SideAllocator)
	}
	if p.Has(access.Expert) && a.ExpertID != nil && *a.ExpertID == p.UserID {
		out = append(out, SideExpert)
	}
	if p.Has(access.Expert) && a.ParaffinExpertID != nil && *a.ParaffinExpertID == p.UserID {
		out = append(out, SideParaffinExpert)
	}
	return out
}

// Allowed reports whether the caller may make act on a now.
func Allowed(p *access.Principal, a *Appointment, act Action) bool {
	ph, ss := PhaseOf(a), sides(p, a)
	for _, t := range Transitions {
		if t.Action == act && slices.Contains(t.From, ph) && slices.Contains(ss, t.By) && (t.When == nil || t.When(a)) {
			return true
		}
	}
	return false
}

// allowedAs reports whether the side by may make act on a now.
func allowedAs(a *Appointment, act Action, by Side) bool {
	ph := PhaseOf(a)
	for _, t := range Transitions {
		if t.Action == act && slices.Contains(t.From, ph) && t.By == by && (t.When == nil || t.When(a)) {
			return true
		}
	}
	return false
}

// ActionsOf lists what the caller may do with a now, in the order of Transitions.
func ActionsOf(p *access.Principal, a *Appointment) []Action {
	out := []Action{}
	for _, t := range Transitions {
		if !slices.Contains(out, t.Action) && Allowed(p, a, t.Action) {
			out = append(out, t.Action)
		}
	}
	return out
}

// Appointment is a frozen-section appointment and, once its tissue
// arrived, the frozen case with its turnaround.
type Appointment struct {
	ID                int64      `json:"id" db:"id"`
	CenterID          int64      `json:"center_id" db:"center_id"`
	CenterName        string     `json:"center_name" db:"center_name"`
	HospitalID        int64      `json:"hospital_id" db:"hospital_id"`
	HospitalName      string     `json:"hospital_name" db:"hospital_name"`
	UserID            int64      `json:"user_id" db:"user_id"`
	Status            int        `json:"status" db:"status" enum:"99,100,101" doc:"99 applying, 100 appointment successful (pending), 101 returned"`
	IsRecall          int        `json:"is_recall" db:"is_recall" enum:"0,1,2" doc:"1 withdraw unconfirmed, 2 recalled"`
	IsIgnored         int        `json:"is_ignored" db:"is_ignored" enum:"0,1"`
	PatientName       string     `json:"patient_name" db:"patient_name"`
	Gender            string     `json:"gender" db:"gender"`
	Age               string     `json:"age" db:"age"`
	OperationAt       time.Time  `json:"operation_at" db:"operation_at"`
	OperatingRoom     string     `json:"operating_room" db:"operating_room"`
	Surgeon           string     `json:"surgeon" db:"surgeon"`
	Phone             string     `json:"phone" db:"phone"`
	SpecimenSite      string     `json:"specimen_site" db:"specimen_site"`
	ClinicalQuestion  string     `json:"clinical_question" db:"clinical_question"`
	ReturnReason      string     `json:"return_reason" db:"return_reason"`
	RecallReason      string     `json:"recall_reason" db:"recall_reason"`
	ConsultationID    *int64     `json:"consultation_id" db:"consultation_id" doc:"The frozen case, once the tissue arrived"`
	ExpertID          *int64     `json:"expert_id" db:"expert_id"`
	ExpertName        *string    `json:"expert_name" db:"expert_name"`
	ArrivedAt         *time.Time `json:"arrived_at" db:"arrived_at" doc:"The frozen case's slides arrived"`
	AssignedAt        *time.Time `json:"assigned_at" db:"assigned_at"`
	FirstOpenAt       *time.Time `json:"first_open_at" db:"first_open_at"`
	ReportedAt        *time.Time `json:"reported_at" db:"reported_at" doc:"The frozen case's report was published (released at once: no hesitation period)"`
	FrozenAmberMin    int        `json:"frozen_amber_min" db:"frozen_amber_min" doc:"The center's amber threshold of the frozen clock, minutes"`
	FrozenRedMin      int        `json:"frozen_red_min" db:"frozen_red_min" doc:"The center's red threshold of the frozen clock, minutes"`
	FrozenVerdict     *string    `json:"frozen_verdict" db:"frozen_verdict" doc:"The frozen diagnosis' intra-operative verdict (benign, malignant, deferred), empty or null when none"`
	FrozenOpinion     *string    `json:"frozen_opinion" db:"frozen_opinion" doc:"The frozen diagnosis' text (its latest version)"`
	ParaffinCaseID    *int64     `json:"paraffin_case_id" db:"paraffin_case_id" doc:"The paraffin case registered after the frozen case"`
	ParaffinConsultNo *string    `json:"paraffin_consult_no" db:"paraffin_consult_no"`
	ParaffinExpertID  *int64     `json:"paraffin_expert_id" db:"paraffin_expert_id"`
	ParaffinPublished bool       `json:"paraffin_published" db:"paraffin_published" doc:"The paraffin case's report is published"`
	Concordance       string     `json:"concordance" db:"concordance" enum:",concordant,discordant,deferred" doc:"How the paraffin diagnosis compares with the frozen one; empty until judged"`
	ConcordanceNote   string     `json:"concordance_note" db:"concordance_note"`
	ConcordanceBy     *string    `json:"concordance_by" db:"concordance_by_name" doc:"Who judged the concordance"`
	ConcordanceAt     *time.Time `json:"concordance_at" db:"concordance_at"`
	Version           int64      `json:"version" db:"version"`
	CreatedAt         time.Time  `json:"created_at" db:"created_at"`
	UpdatedAt         time.Time  `json:"updated_at" db:"updated_at"`
	Failed            bool       `json:"-" db:"-"` // set by finish from the clock
	Phase             Phase      `json:"phase" db:"-"`
	TurnaroundSec     *int64     `json:"turnaround_seconds" db:"-" doc:"Arrival to report, in seconds"`
	Actions           []Action   `json:"actions" db:"-" doc:"What the caller may do now"`
	// paraffinOff: the center's settings do not offer the paraffin case.
	paraffinOff bool
}

// finish derives the fields that are not columns, for the caller of ctx, at now.
func finish(ctx context.Context, a *Appointment, now time.Time) {
	a.Failed = a.ArrivedAt == nil && now.Sub(a.OperationAt) > FailedAfter
	a.Phase = PhaseOf(a)
	if a.ArrivedAt != nil && a.ReportedAt != nil {
		sec := int64(a.ReportedAt.Sub(*a.ArrivedAt) / time.Second)
		a.TurnaroundSec = &sec
	}
	a.Actions = ActionsOf(access.FromContext(ctx), a)
}
