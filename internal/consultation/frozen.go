package consultation

import (
	"context"
	"encoding/json"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// RegisterFrozen registers a frozen case for the hospital and submits it at
// once, in the caller's transaction (spec 2 §4 "Frozen case"): the
// registration is checked like any other, there is no charge yet (it may
// follow later), and with an expert the case goes straight to them.
func (s *Service) RegisterFrozen(ctx context.Context, tx *db.Tx, hospitalID int64, in CaseInput, expertID *int64) (int64, error) {
	in.ExpertID = nil // the duty schedule chooses, not the hospital's expert setting
	id, created, err := s.registerIn(ctx, tx, hospitalID, in, false, "frozen")
	if err != nil {
		return 0, err
	}
	vals := map[string]any{"status": StatusSubmitted, "is_draft": 0, "submitted_at": s.now(), "updated_at": s.now()}
	if expertID != nil {
		if err := s.assign(ctx, vals, *expertID, true); err != nil {
			return 0, err
		}
	}
	if _, err := db.Exec(ctx, tx, tx.Builder().Update("consultations").SetMap(vals).Where("id = ?", id)); err != nil {
		return 0, apperr.Wrap(err, "submit frozen case")
	}
	to := created
	to.Status, to.IsDraft = StatusSubmitted, 0
	return id, s.record(ctx, tx, id, ActSubmit, created, to, "frozen", created, to)
}

// RegisterDraft registers a draft case for the hospital in the caller's
// transaction (the paraffin case a frozen case is sent on to); the site
// completes and submits it like any draft.
// detail is the case log's note of its creation.
func (s *Service) RegisterDraft(ctx context.Context, tx *db.Tx, hospitalID int64, in CaseInput, detail string) (int64, error) {
	id, _, err := s.registerIn(ctx, tx, hospitalID, in, true, detail)
	return id, err
}

// registerIn registers a new case of the hospital in tx, checked as a draft
// or as a complete registration, and returns its id and state.
func (s *Service) registerIn(ctx context.Context, tx *db.Tx, hospitalID int64, in CaseInput, draft bool, detail string) (int64, State, error) {
	if !access.FromContext(ctx).HasAny(access.HospitalRoles) {
		return 0, State{}, apperr.New(apperr.Forbidden, "error.forbidden")
	}
	if err := in.validate(draft, s.now()).Err(); err != nil {
		return 0, State{}, err
	}
	h, err := s.deps.Org.Hospital(ctx, hospitalID)
	if err != nil {
		return 0, State{}, err
	}
	if err := s.complete(ctx, h, 0, &in, draft); err != nil {
		return 0, State{}, err
	}
	if err := s.checkNumberFree(ctx, tx, 0, in); err != nil {
		return 0, State{}, err
	}
	id, err := s.write(ctx, tx, 0, h.ID, in, draft)
	if err != nil {
		return 0, State{}, err
	}
	created, err := s.detailIn(ctx, tx, id)
	if err != nil {
		return 0, State{}, err
	}
	action := ActCreate
	if draft {
		action = ActDraft
	}
	return id, created.State, s.record(ctx, tx, id, action, State{IsDraft: 1}, created.State, detail, nil, created)
}

// Registration is the case's registration as the site entered it (without
// its specimens, attachments and slides), read in the caller's transaction.
func (s *Service) Registration(ctx context.Context, q db.Runner, id int64) (CaseInput, error) {
	var in CaseInput
	d, err := s.detailIn(ctx, q, id)
	if err != nil {
		return in, err
	}
	if err := json.Unmarshal(d.Case, &in); err != nil {
		return in, apperr.Wrap(err, "read registration")
	}
	return in, nil
}

// AssignIn gives a submitted case to an expert of its center in the
// caller's transaction: bound when it has no expert yet, referred when it
// has another. The caller must be allowed that transition.
func (s *Service) AssignIn(ctx context.Context, tx *db.Tx, id, expertID int64) error {
	r, err := s.rowToWrite(ctx, tx, id)
	if err != nil {
		return err
	}
	if r.ExpertID != nil && *r.ExpertID == expertID {
		return nil
	}
	name := ActBindExpert
	if r.ExpertID != nil {
		name = ActReferral
	}
	return s.transition(ctx, tx, id, name, "frozen", func(tx *db.Tx, r *Row, _ State) (map[string]any, error) {
		if err := s.checkExpert(ctx, r, expertID); err != nil {
			return nil, err
		}
		vals, err := s.endHandover(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		vals["locked_by"] = nil
		return vals, s.assign(ctx, vals, expertID, true)
	})
}
