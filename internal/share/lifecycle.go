package share

import (
	"slices"
	"time"

	"telepath/internal/platform/access"
)

// Action names one thing a caller may do with a share.
type Action string

const (
	ActCancel Action = "cancel"
)

// Transition is one allowed move: from one of the phases, by the owner or
// an administrator.
type Transition struct {
	Action Action
	From   []Phase
}

// Transitions is the share state machine; everything not listed is refused.
// Expiry is not a move: a share is expired when its time has passed.
var Transitions = []Transition{
	{Action: ActCancel, From: []Phase{PhaseSharing, PhasePermanent}},
}

// phaseAt is the phase of s at now.
func phaseAt(s *Share, now time.Time) Phase {
	switch {
	case s.CancelledAt != nil:
		return PhaseCancelled
	case s.ExpiresAt == nil:
		return PhasePermanent
	case !now.Before(*s.ExpiresAt):
		return PhaseExpired
	}
	return PhaseSharing
}

// live reports whether a share still opens.
func (p Phase) live() bool { return p == PhaseSharing || p == PhasePermanent }

// allowed reports whether p may make act on s (in phase ph).
func allowed(p *access.Principal, s *Share, act Action) bool {
	if p == nil || (p.UserID != s.UserID && !p.IsAdmin()) {
		return false
	}
	for _, t := range Transitions {
		if t.Action == act && slices.Contains(t.From, s.Phase) {
			return true
		}
	}
	return false
}

// actionsOf lists what p may do with s now.
func actionsOf(p *access.Principal, s *Share) []Action {
	out := []Action{}
	for _, t := range Transitions {
		if allowed(p, s, t.Action) {
			out = append(out, t.Action)
		}
	}
	return out
}
