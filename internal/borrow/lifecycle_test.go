package borrow

import (
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/access"
)

// The loan and archive tables, cell by cell: who may do what from where.
func TestTransitions(t *testing.T) {
	site := &access.Principal{UserID: 1, Roles: []string{access.Site}, HospitalIDs: []int64{10}}
	otherSite := &access.Principal{UserID: 2, Roles: []string{access.Site}, HospitalIDs: []int64{11}}
	keeper := &access.Principal{UserID: 3, Roles: []string{access.CenterAdmin}, CenterIDs: []int64{20}}
	otherKeeper := &access.Principal{UserID: 4, Roles: []string{access.CenterAdmin}, CenterIDs: []int64{21}}
	admin := &access.Principal{UserID: 5, Roles: []string{access.Admin}}
	want := map[Status][]Action{
		StatusChecking:  {ActApprove, ActReject, ActExtend},
		StatusPassed:    {ActLend, ActExtend, ActSlip},
		StatusNotPassed: {},
		StatusBorrowing: {ActReturn, ActExtend, ActSlip},
		StatusReturned:  {ActSlip},
	}
	for _, st := range Statuses {
		l := &Loan{HospitalID: 10, CenterID: 20, Status: st}
		for _, p := range []*access.Principal{keeper, admin} {
			if got := ActionsOf(p, l); !slices.Equal(got, want[st]) {
				t.Errorf("center on %s: %v, want %v", st, got, want[st])
			}
		}
		siteWant := []Action{}
		if slices.Contains(want[st], ActSlip) {
			siteWant = []Action{ActSlip}
		}
		if got := ActionsOf(site, l); !slices.Equal(got, siteWant) {
			t.Errorf("site on %s: %v", st, got)
		}
		for _, p := range []*access.Principal{otherSite, otherKeeper, nil} {
			if got := ActionsOf(p, l); len(got) != 0 {
				t.Errorf("outsider on %s: %v", st, got)
			}
		}
	}
	stored := &Archive{HospitalID: 10, CenterID: 20}
	for _, c := range []struct {
		st       ArchiveStatus
		archived bool
		want     []Action
	}{
		{ArchiveToReceive, false, []Action{ActReceive}},
		{ArchiveNotArchived, false, []Action{ActStore}},
		{ArchiveArchived, true, []Action{ActUndo}},
		{ArchiveNotArchived, true, []Action{ActRearchive}},
	} {
		a := *stored
		a.Status = c.st
		if c.archived {
			at := time.Now()
			a.ArchivedAt = &at
		}
		if got := ArchiveActionsOf(keeper, &a); !slices.Equal(got, c.want) {
			t.Errorf("archive %s (stored before %v): %v, want %v", c.st, c.archived, got, c.want)
		}
		if got := ArchiveActionsOf(site, &a); len(got) != 0 {
			t.Errorf("site on archive %s: %v", c.st, got)
		}
	}
}
