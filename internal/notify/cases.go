package notify

import (
	"context"
	"fmt"
	"slices"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// who names the people of a case an event concerns.
type who int

const (
	expert       who = iota // the case's expert after the change
	prevExpert              // the expert before the change, when another
	reviewer                // the reviewer after the change
	prevReviewer            // the reviewer before the change
	handedOverBy            // the expert who handed the case over
	allocators              // the allocators and center administrators of the case's center
	site                    // the site users (site, clinical) of the case's hospital
	publishers              // the publishers of the case's center
	staffOf                 // the technician named for the case
	addressees              // the people the change names (invitees, a supplement's reviewer, a third party)
)

// rule is what one case action tells whom.
type rule struct {
	event string
	to    []who
	level string
	// link is the screen where the recipients act, when not the case's.
	link string
	// when narrows the rule to some changes (nil: always).
	when func(s *Service, ctx context.Context, e consultation.Event) bool
}

// caseRules is who hears of which change of a case: one line per action,
// every recipient named by their part in the case, so that nobody outside
// the case's hospital, center and people hears of it. Actions not listed
// (lock, save, print…) notify nobody but still refresh the open lists.
var caseRules = map[consultation.Action][]rule{
	consultation.ActSubmit:       {{event: "case.assigned", to: []who{expert}, when: assigned}, {event: "case.submitted", to: []who{allocators}, when: unassigned}},
	consultation.ActConsultAgain: {{event: "case.assigned", to: []who{expert}, when: assigned}, {event: "case.submitted", to: []who{allocators}, when: unassigned}},
	consultation.ActBindExpert:   {{event: "case.assigned", to: []who{expert}}},
	consultation.ActReferral:     {{event: "case.referred", to: []who{expert}}, {event: "case.referred_away", to: []who{prevExpert}}},
	consultation.ActExpertReferral: {{event: "case.referred", to: []who{expert}, when: assigned},
		{event: "case.referral_asked", to: []who{allocators}, when: unassigned}},
	consultation.ActHandover:       {{event: "case.handed_over", to: []who{expert}}},
	consultation.ActHandoverRecall: {{event: "case.handover_recalled", to: []who{prevExpert}}},
	consultation.ActRecall:         {{event: "case.recall_requested", to: []who{allocators, expert}}},
	consultation.ActRecallAgree:    {{event: "case.recall_agreed", to: []who{site, prevExpert}}},
	consultation.ActRecallReject:   {{event: "case.recall_rejected", to: []who{site}}},
	consultation.ActRecallIgnore:   {{event: "case.recall_rejected", to: []who{site}}},
	consultation.ActReturnToSite:   {{event: "case.returned_to_site", to: []who{site, prevExpert}}},
	consultation.ActExpertReturn:   {{event: "case.returned_to_center", to: []who{allocators}}},
	consultation.ActToReview:       {{event: "case.review_requested", to: []who{reviewer}}},
	consultation.ActReviewApprove:  {{event: "case.review_approved", to: []who{expert}}},
	consultation.ActReviewReturn:   {{event: "case.review_returned", to: []who{expert}}},
	consultation.ActReviewRecall:   {{event: "case.review_withdrawn", to: []who{prevReviewer}}},
	// A report in its hesitation period reaches the site when it is
	// released: by the publisher, or when the period ends (the scheduler).
	consultation.ActPublish: {{event: "case.report_published", to: []who{site}, when: released},
		{event: "case.report_to_release", to: []who{publishers}, when: releasing}},
	consultation.ActPublisherPublish:   {{event: "case.report_published", to: []who{site}}, {event: "case.report_released", to: []who{expert}}},
	consultation.ActPublisherReturn:    {{event: "case.report_returned", to: []who{expert}}},
	consultation.ActDiagnosisRecall:    {{event: "case.report_withdrawn", to: []who{publishers}}},
	consultation.ActAppendPublish:      {{event: "case.supplement_published", to: []who{site}}},
	consultation.ActAppendApprove:      {{event: "case.supplement_approved", to: []who{expert}}},
	consultation.ActAppendReviewReturn: {{event: "case.supplement_returned", to: []who{expert}}},
	consultation.ActDiagnosisAmend:     {{event: "case.report_amending", to: []who{site}}},
	consultation.ActCounterAudit:       {{event: "case.counter_audit", to: []who{expert}, level: Important}},
	consultation.ActCounterAuditReject: {{event: "case.counter_audit_rejected", to: []who{allocators}}},
	consultation.ActDelay:              {{event: "case.report_delayed", to: []who{site}, when: delayReport}},
	consultation.ActAdvice:             {{event: "case.advice_ordered", to: []who{site}}},
	consultation.ActAdviceExecute:      {{event: "case.advice_executed", to: []who{expert}}},
	consultation.ActAdviceTransfer:     {{event: "case.advice_transferred", to: []who{expert}}, {event: "case.advice_to_third", to: []who{addressees}, link: "/third/addadvice"}},
	consultation.ActAdviceResults:      {{event: "case.advice_results", to: []who{site}}},
	consultation.ActInvite:             {{event: "case.invited", to: []who{addressees}}},
	consultation.ActInviteReply:        {{event: "case.invitation_answered", to: []who{expert}}},
	consultation.ActAppendToReview:     {{event: "case.supplement_review_requested", to: []who{addressees}}},
	consultation.ActAdviceResult:       {{event: "case.advice_results", to: []who{expert, site}}},
	consultation.ActMessage:            {{event: "case.message", to: []who{expert, reviewer, site}}},
}

func assigned(_ *Service, _ context.Context, e consultation.Event) bool {
	return e.After.ExpertID != nil
}
func unassigned(_ *Service, _ context.Context, e consultation.Event) bool {
	return e.After.ExpertID == nil
}
func releasing(s *Service, _ context.Context, e consultation.Event) bool {
	return e.After.ReleaseAt != nil && e.After.ReleaseAt.After(s.now())
}
func released(s *Service, ctx context.Context, e consultation.Event) bool {
	return !releasing(s, ctx, e)
}
func delayReport(s *Service, ctx context.Context, _ consultation.Event) bool {
	return s.deps.Setting == nil || s.deps.Setting(ctx, "delay_report")
}

// OnCase is the consultation listener: it writes the notifications of a
// case's change and hints every screen showing the case, in the change's
// transaction.
func (s *Service) OnCase(ctx context.Context, tx *db.Tx, e consultation.Event) error {
	var notes []Note
	actor := int64(0)
	if e.Actor != nil {
		actor = e.Actor.UserID
	}
	for _, r := range caseRules[e.Action] {
		if r.when != nil && !r.when(s, ctx, e) {
			continue
		}
		for _, w := range r.to {
			users, err := s.people(ctx, e, w)
			if err != nil {
				return err
			}
			for _, u := range users {
				if u == actor || slices.ContainsFunc(notes, func(n Note) bool { return n.UserID == u && n.Event == r.event }) {
					continue
				}
				notes = append(notes, s.caseNote(e, r, w, u, actor))
			}
		}
	}
	if slices.ContainsFunc(notes, func(n Note) bool { return n.Event == "case.report_published" }) && e.After.ReleaseAt != nil {
		// The site heard of the release: the scheduler need not tell it again.
		if err := s.releaseKey(ctx, tx, e.CaseID, *e.After.ReleaseAt); err != nil {
			return err
		}
	}
	if quiet[e.Action] {
		return s.Raise(ctx, tx, notes, nil)
	}
	hint, err := s.watchers(ctx, e)
	if err != nil {
		return err
	}
	return s.Raise(ctx, tx, notes, hint, TopicCases)
}

// quiet actions change nothing that the lists or badges of others show (a
// draft autosaved every few seconds, images kept for the report): they
// refresh nobody's screen.
var quiet = map[consultation.Action]bool{
	consultation.ActSave: true, consultation.ActSaveShots: true, consultation.ActShotsUpdate: true,
	consultation.ActSlideJudge: true, consultation.ActAdviceUpdate: true, consultation.ActAppendDiagnosis: true,
}

func (s *Service) caseNote(e consultation.Event, r rule, w who, user, actor int64) Note {
	id := e.CaseID
	n := Note{UserID: user, Kind: KindCase, Level: r.level, Event: r.event, CaseID: &id, Link: caseLink(w, id),
		Key: "notify." + r.event, Params: map[string]any{"no": e.After.ConsultNo, "patient": e.After.PatientName,
			"urgent": e.After.Expedite == 1, "days": e.After.DelayDays}}
	if r.link != "" {
		n.Link = r.link
	}
	if e.After.Expedite == 1 && n.Level == "" {
		n.Level = Important
	}
	if actor != 0 {
		n.ActorID = &actor
		n.Params["by"] = e.Actor.Name
	}
	if e.Action == consultation.ActMessage {
		n.Params["text"] = e.Detail
	}
	if e.After.TimeoutAt != nil {
		n.Params["at"] = s.clock.Local(*e.After.TimeoutAt).Format("2006-01-02 15:04")
	}
	return n
}

// caseLink is the screen where a person of the case acts on it.
func caseLink(w who, id int64) string {
	switch w {
	case expert, prevExpert, reviewer, prevReviewer, handedOverBy, staffOf, addressees:
		return fmt.Sprintf("/diagnosis/item/%d", id)
	}
	return fmt.Sprintf("/case/detail/%d", id)
}

func one(id *int64) []int64 {
	if id == nil {
		return nil
	}
	return []int64{*id}
}

// people resolves w for event e.
func (s *Service) people(ctx context.Context, e consultation.Event, w who) ([]int64, error) {
	switch w {
	case expert:
		return one(e.After.ExpertID), nil
	case prevExpert:
		if e.Before.ExpertID != nil && (e.After.ExpertID == nil || *e.After.ExpertID != *e.Before.ExpertID) {
			return one(e.Before.ExpertID), nil
		}
		if e.Action == consultation.ActHandoverRecall || e.Action == consultation.ActRecallAgree {
			return one(e.Before.ExpertID), nil
		}
		return nil, nil
	case reviewer:
		return one(e.After.ReviewerID), nil
	case prevReviewer:
		return one(e.Before.ReviewerID), nil
	case handedOverBy:
		return one(e.Before.HandoverFrom), nil
	case staffOf:
		return one(e.After.StaffID), nil
	case addressees:
		return e.Addressees, nil
	case allocators, publishers:
		if e.After.CenterID == nil {
			return nil, nil
		}
		roles := []string{access.Allocator, access.CenterAdmin}
		if w == publishers {
			roles = []string{access.Publisher}
		}
		return s.deps.Audience(ctx, Audience{Roles: roles, CenterIDs: []int64{*e.After.CenterID}})
	case site:
		return s.deps.Audience(ctx, Audience{Roles: []string{access.Site, access.Clinical}, HospitalIDs: []int64{e.After.HospitalID}})
	}
	return nil, nil
}

// watchers are the users whose open screens may list the case: its
// hospital's users, its center's staff, its experts and the administrators.
func (s *Service) watchers(ctx context.Context, e consultation.Event) ([]int64, error) {
	out := slices.Clone(e.Addressees)
	for _, id := range []*int64{e.Before.ExpertID, e.After.ExpertID, e.Before.ReviewerID, e.After.ReviewerID, e.After.StaffID, e.Before.HandoverFrom, e.After.ReturnedBy} {
		out = append(out, one(id)...)
	}
	hosp, err := s.deps.Audience(ctx, Audience{Roles: access.HospitalRoles, HospitalIDs: []int64{e.After.HospitalID}})
	if err != nil {
		return nil, err
	}
	out = append(out, hosp...)
	if e.After.CenterID != nil {
		center, err := s.deps.Audience(ctx, Audience{Roles: access.CenterWide, CenterIDs: []int64{*e.After.CenterID}})
		if err != nil {
			return nil, err
		}
		out = append(out, center...)
	}
	admins, err := s.deps.Audience(ctx, Audience{Roles: []string{access.Admin}})
	return append(out, admins...), err
}

// releaseKey records that the site heard of the release of a case's report at.
func (s *Service) releaseKey(ctx context.Context, tx *db.Tx, id int64, at time.Time) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Insert("timeout_notices").Columns("consult_id", "kind", "due_at", "sent_at").
		Values(id, "release", at.UTC(), s.now()).Suffix("ON CONFLICT DO NOTHING"))
	return apperr.Wrap(err, "release key")
}
