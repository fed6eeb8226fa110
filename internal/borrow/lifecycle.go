package borrow

import (
	"slices"

	"telepath/internal/platform/access"
)

// Status is where a loan is in its life (spec 2 §4 Borrow).
type Status string

const (
	StatusChecking  Status = "checking"   // requested, waiting for the center's approval
	StatusPassed    Status = "passed"     // approved, not yet handed out
	StatusNotPassed Status = "not_passed" // refused, with a reason
	StatusBorrowing Status = "borrowing"  // lent out until the due date
	StatusReturned  Status = "returned"   // back at the center
)

// Statuses lists every loan status, in the order of a loan's life.
var Statuses = []Status{StatusChecking, StatusPassed, StatusNotPassed, StatusBorrowing, StatusReturned}

// Type is who borrows (spec 2 §9 borrow types).
type Type string

const (
	TypeFamily     Type = "family"     // the patient or their family
	TypeOuter      Type = "outer"      // another hospital
	TypeDepartment Type = "department" // a department of the same hospital
	TypeHospital   Type = "hospital"   // in-hospital (the requesting site itself)
)

// Types lists the borrow types.
var Types = []Type{TypeFamily, TypeOuter, TypeDepartment, TypeHospital}

// ArchiveStatus is where a case's glass is in the archive (spec 2 §4 Archive).
type ArchiveStatus string

const (
	// ArchiveToReceive: the case has no archive record yet (nothing received).
	ArchiveToReceive   ArchiveStatus = "to_receive"
	ArchiveNotArchived ArchiveStatus = "not_archived" // received (or taken out), not in storage
	ArchiveArchived    ArchiveStatus = "archived"     // stored: the case shows "Filed"
)

// Action names one thing a caller may do with a loan or an archive record.
type Action string

const (
	ActApprove Action = "approve" // checking → passed
	ActReject  Action = "reject"  // checking → not passed
	ActLend    Action = "lend"    // passed → borrowing
	ActReturn  Action = "return"  // borrowing → returned
	ActSlip    Action = "slip"    // print the loan slip
	ActExtend  Action = "extend"  // change the due date (the status stays)

	ActReceive   Action = "receive"   // to receive → not archived
	ActStore     Action = "store"     // not archived (never stored) → archived
	ActUndo      Action = "undo"      // archived → not archived (undo archive)
	ActRearchive Action = "rearchive" // not archived (stored before) → archived
)

// Side is the part a caller plays for one loan or archive record.
type Side int

const (
	SideHospital Side = iota // the case's hospital (site): requests, follows
	SideCenter               // the case's center (center administrator) or an administrator: approves, lends, keeps the archive
)

// Transition is one allowed move of a loan: from one of the statuses, by one side.
type Transition struct {
	Action Action
	From   []Status
	By     Side
	To     Status
}

// Transitions is the loan state machine. Everything not listed is refused.
var Transitions = []Transition{
	{Action: ActApprove, From: []Status{StatusChecking}, By: SideCenter, To: StatusPassed},
	{Action: ActReject, From: []Status{StatusChecking}, By: SideCenter, To: StatusNotPassed},
	{Action: ActLend, From: []Status{StatusPassed}, By: SideCenter, To: StatusBorrowing},
	{Action: ActReturn, From: []Status{StatusBorrowing}, By: SideCenter, To: StatusReturned},
	{Action: ActExtend, From: []Status{StatusChecking, StatusPassed, StatusBorrowing}, By: SideCenter},
	{Action: ActSlip, From: []Status{StatusPassed, StatusBorrowing, StatusReturned}, By: SideCenter},
	{Action: ActSlip, From: []Status{StatusPassed, StatusBorrowing, StatusReturned}, By: SideHospital},
}

// ArchiveTransition is one allowed move of a case's archive record; When
// further restricts it (store the first time, re-archive after an undo).
type ArchiveTransition struct {
	Action Action
	From   ArchiveStatus
	To     ArchiveStatus
	When   func(a *Archive) bool
}

// ArchiveTransitions is the archive state machine, all of it the center's.
var ArchiveTransitions = []ArchiveTransition{
	{Action: ActReceive, From: ArchiveToReceive, To: ArchiveNotArchived},
	{Action: ActStore, From: ArchiveNotArchived, To: ArchiveArchived, When: func(a *Archive) bool { return a.ArchivedAt == nil }},
	{Action: ActUndo, From: ArchiveArchived, To: ArchiveNotArchived},
	{Action: ActRearchive, From: ArchiveNotArchived, To: ArchiveArchived, When: func(a *Archive) bool { return a.ArchivedAt != nil }},
}

// sides are the parts p plays for a row of hospital and center.
func sides(p *access.Principal, hospitalID, centerID int64) []Side {
	var out []Side
	if p == nil {
		return out
	}
	if p.Has(access.Site) && slices.Contains(p.HospitalIDs, hospitalID) {
		out = append(out, SideHospital)
	}
	if p.IsAdmin() || (p.Has(access.CenterAdmin) && slices.Contains(p.CenterIDs, centerID)) {
		out = append(out, SideCenter)
	}
	return out
}

// Allowed reports whether p may make act on loan l now.
func Allowed(p *access.Principal, l *Loan, act Action) bool {
	ss := sides(p, l.HospitalID, l.CenterID)
	for _, t := range Transitions {
		if t.Action == act && slices.Contains(t.From, l.Status) && slices.Contains(ss, t.By) {
			return true
		}
	}
	return false
}

// ActionsOf lists what p may do with l now, in the order of Transitions.
func ActionsOf(p *access.Principal, l *Loan) []Action {
	out := []Action{}
	for _, t := range Transitions {
		if !slices.Contains(out, t.Action) && Allowed(p, l, t.Action) {
			out = append(out, t.Action)
		}
	}
	return out
}

// next is the status act leads to from l's (the same for an act that
// changes no status).
func next(l *Loan, act Action) Status {
	for _, t := range Transitions {
		if t.Action == act && slices.Contains(t.From, l.Status) && t.To != "" {
			return t.To
		}
	}
	return l.Status
}

// archiveMove is the transition act makes from a, if p may make it.
func archiveMove(p *access.Principal, a *Archive, act Action) (ArchiveTransition, bool) {
	if !slices.Contains(sides(p, a.HospitalID, a.CenterID), SideCenter) {
		return ArchiveTransition{}, false
	}
	for _, t := range ArchiveTransitions {
		if t.Action == act && t.From == a.Status && (t.When == nil || t.When(a)) {
			return t, true
		}
	}
	return ArchiveTransition{}, false
}

// ArchiveActionsOf lists what p may do with a now.
func ArchiveActionsOf(p *access.Principal, a *Archive) []Action {
	out := []Action{}
	for _, t := range ArchiveTransitions {
		if _, ok := archiveMove(p, a, t.Action); ok && !slices.Contains(out, t.Action) {
			out = append(out, t.Action)
		}
	}
	return out
}
