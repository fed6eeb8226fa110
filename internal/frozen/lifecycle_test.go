package frozen

import (
	"fmt"
	"testing"
	"time"

	"telepath/internal/platform/access"
)

// Every action, in every phase, for every side: allowed exactly where the
// spec's frozen life cycle says, refused everywhere else.
func TestFrozenStateMachine(t *testing.T) {
	now := time.Now()
	expertID, paraffinCase, paraffinExpert := int64(7), int64(500), int64(8)
	phases := map[string]func() *Appointment{
		"applying":         func() *Appointment { return &Appointment{Status: StatusApplying} },
		"applying_ignored": func() *Appointment { return &Appointment{Status: StatusApplying, IsIgnored: 1} },
		"pending":          func() *Appointment { return &Appointment{Status: StatusPending} },
		"returned":         func() *Appointment { return &Appointment{Status: StatusReturned} },
		"failed":           func() *Appointment { return &Appointment{Status: StatusPending, Failed: true} },
		"recall_asked":     func() *Appointment { return &Appointment{Status: StatusPending, IsRecall: RecallAsked} },
		"recalled":         func() *Appointment { return &Appointment{Status: StatusPending, IsRecall: RecallAgreed} },
		"arrived":          func() *Appointment { return &Appointment{Status: StatusPending, ArrivedAt: &now, ExpertID: &expertID} },
		"reported": func() *Appointment {
			return &Appointment{Status: StatusPending, ArrivedAt: &now, ReportedAt: &now, ExpertID: &expertID}
		},
		// The paraffin case is registered, then its report published.
		"paraffin_registered": func() *Appointment {
			return &Appointment{Status: StatusPending, ArrivedAt: &now, ReportedAt: &now, ExpertID: &expertID, ParaffinCaseID: &paraffinCase, ParaffinExpertID: &paraffinExpert}
		},
		"paraffin_published": func() *Appointment {
			return &Appointment{Status: StatusPending, ArrivedAt: &now, ReportedAt: &now, ExpertID: &expertID, ParaffinCaseID: &paraffinCase, ParaffinExpertID: &paraffinExpert, ParaffinPublished: true}
		},
	}
	callers := map[string]*access.Principal{
		"site":      {UserID: 1, Roles: []string{access.Site}, HospitalIDs: []int64{10}},
		"clinical":  {UserID: 2, Roles: []string{access.Clinical}, HospitalIDs: []int64{10}},
		"site2":     {UserID: 3, Roles: []string{access.Site}, HospitalIDs: []int64{11}},
		"allocator": {UserID: 4, Roles: []string{access.Allocator}, CenterIDs: []int64{1}},
		"alloc2":    {UserID: 5, Roles: []string{access.Allocator}, CenterIDs: []int64{2}},
		"admin":     {UserID: 6, Roles: []string{access.Admin}},
		"expert":    {UserID: expertID, Roles: []string{access.Expert}, CenterIDs: []int64{1}},
		"expert2":   {UserID: 8, Roles: []string{access.Expert}, CenterIDs: []int64{1}},
		"staff":     {UserID: 9, Roles: []string{access.Staff}, CenterIDs: []int64{1}},
		"publisher": {UserID: 10, Roles: []string{access.Publisher}, CenterIDs: []int64{1}},
	}
	allowed := map[string][]string{ // "phase caller" → actions
		"applying site":                {"recall"},
		"applying clinical":            {"recall"},
		"applying allocator":           {"accept", "return", "ignore"},
		"applying admin":               {"accept", "return", "ignore"},
		"applying_ignored site":        {"recall"},
		"applying_ignored clinical":    {"recall"},
		"applying_ignored allocator":   {"accept", "return", "unignore"},
		"applying_ignored admin":       {"accept", "return", "unignore"},
		"returned site":                {"resubmit"},
		"returned clinical":            {"resubmit"},
		"pending site":                 {"recall", "arrive"},
		"pending clinical":             {"recall", "arrive"},
		"pending allocator":            {"return"},
		"pending admin":                {"return"},
		"recall_asked allocator":       {"recall_agree", "recall_reject"},
		"recall_asked admin":           {"recall_agree", "recall_reject"},
		"arrived allocator":            {"assign"},
		"arrived admin":                {"assign"},
		"arrived expert":               {"open"},
		"reported site":                {"after_frozen_paraffin_block"},
		"reported clinical":            {"after_frozen_paraffin_block"},
		"paraffin_published expert2":   {"concordance"},
		"paraffin_published allocator": {"concordance"},
		"paraffin_published admin":     {"concordance"},
	}
	acts := []Action{ActAccept, ActReturn, ActIgnore, ActUnignore, ActRecall, ActRecallAgree, ActRecallReject, ActArrive, ActAssign, ActOpen, ActParaffin, ActConcordance, ActResubmit}
	for ph, mk := range phases {
		for who, p := range callers {
			a := mk()
			a.CenterID, a.HospitalID = 1, 10
			want := map[Action]bool{}
			for _, s := range allowed[ph+" "+who] {
				want[Action(s)] = true
			}
			for _, act := range acts {
				if got := Allowed(p, a, act); got != want[act] {
					t.Errorf("%s as %s, %s: allowed=%v, want %v", ph, who, act, got, want[act])
				}
			}
			if got, w := fmt.Sprint(ActionsOf(p, a)), fmt.Sprint(allowed[ph+" "+who]); got != w && !(len(allowed[ph+" "+who]) == 0 && got == "[]") {
				t.Errorf("%s as %s: actions %s, want %s", ph, who, got, w)
			}
		}
	}
}

func TestCheckSessions(t *testing.T) {
	s := func(pairs ...string) []ShiftSession {
		var out []ShiftSession
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, ShiftSession{Start: pairs[i], End: pairs[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		in   []ShiftSession
		want string
	}{
		{s("08:00", "12:00"), ""},
		{s("08:00", "12:00", "13:00", "17:00"), ""},
		{s("00:00", "08:00", "08:00", "16:00", "16:00", "23:59"), ""},
		{nil, "frozen.sessions_count"},
		{s("01:00", "02:00", "03:00", "04:00", "05:00", "06:00", "07:00", "08:00"), "frozen.sessions_count"},
		{s("12:00", "08:00"), "frozen.sessions_order"},
		{s("08:00", "08:00"), "frozen.sessions_order"},
		{s("13:00", "17:00", "08:00", "12:00"), "frozen.sessions_order"},
		{s("08:00", "12:00", "11:59", "17:00"), "frozen.sessions_order"},
		{s("8h", "12:00"), "frozen.session_time"},
		{s("24:00", "25:00"), "frozen.session_time"},
	} {
		if got := checkSessions(c.in); got != c.want {
			t.Errorf("%v: %q, want %q", c.in, got, c.want)
		}
	}
}
