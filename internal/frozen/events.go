package frozen

import (
	"context"
	"fmt"

	"telepath/internal/notify"
	"telepath/internal/platform/access"
	"telepath/internal/platform/db"
)

// TopicFrozen is the live hint that the frozen lists changed.
const TopicFrozen = "frozen"

// Notifier raises notifications and live hints in the writer's transaction.
type Notifier interface {
	Raise(ctx context.Context, tx *db.Tx, notes []notify.Note, hintUsers []int64, topics ...string) error
}

// tell raises what a change of appointment a means, in tx: a note for the
// people who act next (with a link to where they act) and a live hint to
// everyone whose frozen list shows it, so the expert's list updates at once.
func (s *Service) tell(ctx context.Context, tx *db.Tx, event string, a *Appointment) error {
	if s.deps.Notify == nil {
		return nil
	}
	allocators := []int64{}
	if s.deps.Allocators != nil {
		var err error
		if allocators, err = s.deps.Allocators(ctx, a.CenterID); err != nil {
			return err
		}
	}
	var actor *int64
	by := ""
	if p := access.FromContext(ctx); p != nil {
		actor, by = &p.UserID, p.Name
	}
	note := func(user int64, level, link string) notify.Note {
		n := notify.Note{UserID: user, Kind: notify.KindCase, Level: level, Event: "frozen." + event, CaseID: a.ConsultationID, Link: link,
			Key: "notify.frozen." + event, ActorID: actor,
			Params: map[string]any{"patient": a.PatientName, "hospital": a.HospitalName, "by": by,
				"at": s.clock.Local(a.OperationAt).Format("2006-01-02 15:04"), "reason": a.ReturnReason + a.RecallReason}}
		if a.ExpertName != nil {
			n.Params["expert"] = *a.ExpertName
		}
		return n
	}
	var notes []notify.Note
	toAllocators := func(level, link string) {
		for _, u := range allocators {
			notes = append(notes, note(u, level, link))
		}
	}
	switch event {
	case "booked":
		toAllocators(notify.Important, "/frozen-distribute/manage")
	case "recall_asked":
		toAllocators(notify.Normal, "/frozen-distribute/recall")
	case "accepted":
		notes = append(notes, note(a.UserID, notify.Normal, "/frozen-case/todo"))
	case "returned", "recall_agreed", "recall_rejected":
		notes = append(notes, note(a.UserID, notify.Important, "/frozen-case/apply"))
	case "assigned":
		// The case's own assignment tells the expert (case.assigned); the lists only refresh.
	case "arrived":
		if a.ExpertID != nil && a.ConsultationID != nil {
			notes = append(notes, note(*a.ExpertID, notify.VeryImportant, fmt.Sprintf("/diagnosis/item/%d", *a.ConsultationID)))
		} else {
			toAllocators(notify.VeryImportant, "/frozen-distribute/manage")
		}
	}
	hint := append([]int64{a.UserID}, allocators...)
	if a.ExpertID != nil {
		hint = append(hint, *a.ExpertID)
	}
	return s.deps.Notify.Raise(ctx, tx, notes, hint, TopicFrozen, notify.TopicCases)
}

// events names the notification of each action.
var events = map[Action]string{
	ActAccept: "accepted", ActReturn: "returned", ActRecall: "recall_asked", ActRecallAgree: "recall_agreed",
	ActRecallReject: "recall_rejected", ActArrive: "arrived", ActAssign: "assigned", ActResubmit: "booked",
}

// hintCase refreshes the frozen lists of the people of the frozen case
// consultation id (its site, expert and allocators), in tx.
func (s *Service) hintCase(ctx context.Context, tx *db.Tx, caseID int64) error {
	if s.deps.Notify == nil {
		return nil
	}
	var rows []struct {
		UserID   int64  `db:"user_id"`
		ExpertID *int64 `db:"expert_id"`
		CenterID int64  `db:"center_id"`
	}
	if err := db.Select(ctx, tx, &rows, tx.Builder().Select("user_id", "expert_id", "center_id").From("frozen_appointments").Where("consultation_id = ?", caseID)); err != nil {
		return err
	}
	for _, r := range rows {
		hint := []int64{r.UserID}
		if r.ExpertID != nil {
			hint = append(hint, *r.ExpertID)
		}
		if s.deps.Allocators != nil {
			al, err := s.deps.Allocators(ctx, r.CenterID)
			if err != nil {
				return err
			}
			hint = append(hint, al...)
		}
		if err := s.deps.Notify.Raise(ctx, tx, nil, hint, TopicFrozen); err != nil {
			return err
		}
	}
	return nil
}
