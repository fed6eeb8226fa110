package diagnosis

import (
	"context"
	"strings"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// CounterAudit asks the expert to reconsider a published report (admin).
func (s *Service) CounterAudit(ctx context.Context, id int64, reason string) error {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return apperr.New(apperr.Invalid, "error.validation").Field("reason", "case.reason_required")
	}
	return s.deps.Cases.Apply(ctx, id, consultation.ActCounterAudit, reason, func(*db.Tx, *consultation.Row, consultation.State) (consultation.Change, error) {
		return consultation.Change{}, nil
	})
}

// AnswerCounterAudit is the expert's answer: confirming reopens the case
// for a new version of the diagnosis (the published one stays in the
// history); rejecting keeps the report, with the expert's reason.
func (s *Service) AnswerCounterAudit(ctx context.Context, id int64, confirm bool, reason string) error {
	me := access.FromContext(ctx).UserID
	reason = strings.TrimSpace(reason)
	name := consultation.ActCounterAuditConfirm
	if !confirm {
		name = consultation.ActCounterAuditReject
		if reason == "" {
			return apperr.New(apperr.Invalid, "error.validation").Field("reason", "case.reason_required")
		}
	}
	return s.deps.Cases.Apply(ctx, id, name, reason, func(_ *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		if confirm {
			return consultation.Change{LockedBy: consultation.Set(me), PrintDeliver: consultation.Set(0)}, nil
		}
		return consultation.Change{}, nil
	})
}

// Amend reopens the expert's released report for a new version, with the
// reason in the case log. The new version is reviewed and signed as usual;
// the released one stays valid until then and is marked superseded after.
func (s *Service) Amend(ctx context.Context, id int64, reason string) error {
	me := access.FromContext(ctx).UserID
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return apperr.New(apperr.Invalid, "error.validation").Field("reason", "case.reason_required")
	}
	return s.deps.Cases.Apply(ctx, id, consultation.ActDiagnosisAmend, reason, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		// The new version starts from the released text.
		released, err := s.query(tx)(ctx, "d.consult_id = ? AND d.type = ? AND d.status = ?", id, TypeNormal, Published)
		if err != nil {
			return consultation.Change{}, err
		}
		if len(released) > 0 {
			last := released[len(released)-1]
			if _, err := s.writeDraft(ctx, tx, id, me, Input{Microscopic: last.Microscopic, Opinion: last.Opinion,
				GrossDescription: last.GrossDescription, Remark: last.Remark, CriticalValues: last.CriticalValues, FrozenVerdict: last.FrozenVerdict, ReportClass: last.ReportClass}); err != nil {
				return consultation.Change{}, err
			}
		}
		return consultation.Change{LockedBy: consultation.Set(me), ReviewerID: consultation.Clear[int64](), PrintDeliver: consultation.Set(0)}, nil
	})
}

func (s *Service) amend(ctx context.Context, in *NoteBody) error {
	return s.Amend(ctx, in.ID, in.Text())
}

func (s *Service) counterAudit(ctx context.Context, in *NoteBody) error {
	return s.CounterAudit(ctx, in.ID, in.Text())
}

func (s *Service) confirmCounterAudit(ctx context.Context, in *NoteBody) error {
	return s.AnswerCounterAudit(ctx, in.ID, true, in.Text())
}

func (s *Service) rejectCounterAudit(ctx context.Context, in *NoteBody) error {
	return s.AnswerCounterAudit(ctx, in.ID, false, in.Text())
}
