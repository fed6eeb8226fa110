package invitation

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Invitation asks another expert's opinion on a case.
type Invitation struct {
	ID          int64      `json:"id" db:"id"`
	ConsultID   int64      `json:"consult_id" db:"consult_id"`
	ConsultNo   string     `json:"consult_no" db:"consult_no"`
	PatientName string     `json:"patient_name" db:"patient_name"`
	InviterID   int64      `json:"inviter_id" db:"inviter_id"`
	InviterName string     `json:"inviter_name" db:"inviter_name"`
	InviteeID   int64      `json:"invitee_id" db:"invitee_id"`
	InviteeName string     `json:"invitee_name" db:"invitee_name"`
	Message     string     `json:"message" db:"message"`
	Reply       string     `json:"reply" db:"reply"`
	Status      int        `json:"status" db:"status" doc:"0 not replied, 1 replied"`
	CreatedAt   time.Time  `json:"created_at" db:"created_at"`
	RepliedAt   *time.Time `json:"replied_at" db:"replied_at"`
}

// Invite asks other experts of the center for their opinion on a case.
func (s *Service) Invite(ctx context.Context, id int64, invitees []int64, message string) error {
	me := access.FromContext(ctx).UserID
	message = strings.TrimSpace(message)
	var v apperr.Validation
	if len(invitees) == 0 || len(invitees) > 10 {
		v.Add("invitee_ids", "diagnosis.invitees")
	}
	if len([]rune(message)) > 1000 {
		v.Add("message", "field.too_long", "max", 1000)
	}
	if err := v.Err(); err != nil {
		return err
	}
	ctx, invited := consultation.WithAddressees(ctx)
	return s.deps.Cases.Apply(ctx, id, consultation.ActInvite, message, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		for _, inv := range invitees {
			if inv == me {
				return consultation.Change{}, apperr.New(apperr.Invalid, "error.validation").Field("invitee_ids", "diagnosis.invite_self")
			}
			if err := consultation.ExpertOf(ctx, r, s.deps.Experts, inv, "invitee_ids"); err != nil {
				return consultation.Change{}, err
			}
			var waiting int
			if err := db.Get(ctx, tx, &waiting, tx.Builder().Select("COUNT(*)").From("invitations").
				Where("consult_id = ? AND invitee_id = ? AND status = 0", id, inv)); err != nil {
				return consultation.Change{}, apperr.Wrap(err, "load invitations")
			}
			if waiting > 0 {
				return consultation.Change{}, apperr.New(apperr.Invalid, "error.validation").Field("invitee_ids", "diagnosis.invite_waiting")
			}
			if _, err := db.Exec(ctx, tx, tx.Builder().Insert("invitations").
				Columns("consult_id", "inviter_id", "invitee_id", "message", "created_at").Values(id, me, inv, message, s.now())); err != nil {
				return consultation.Change{}, apperr.Wrap(err, "invite")
			}
			invited.Add(inv)
		}
		return consultation.Change{}, nil
	})
}

// Reply answers an invitation to a case addressed to the caller.
func (s *Service) Reply(ctx context.Context, consultID, invitationID int64, reply string) error {
	me := access.FromContext(ctx).UserID
	reply = strings.TrimSpace(reply)
	if reply == "" || len([]rune(reply)) > 5000 {
		return apperr.New(apperr.Invalid, "error.validation").Field("reply", "diagnosis.reply")
	}
	var inv struct {
		ConsultID int64 `db:"consult_id"`
		InviteeID int64 `db:"invitee_id"`
		Status    int   `db:"status"`
	}
	err := db.Get(ctx, s.db, &inv, s.db.Builder().Select("consult_id", "invitee_id", "status").From("invitations").Where("id = ?", invitationID))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (inv.InviteeID != me || inv.ConsultID != consultID)) {
		return apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return apperr.Wrap(err, "load invitation")
	}
	if inv.Status == 1 {
		return apperr.New(apperr.Conflict, "diagnosis.already_replied")
	}
	return s.deps.Cases.Apply(ctx, inv.ConsultID, consultation.ActInviteReply, reply, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("invitations").Set("reply", reply).Set("status", 1).Set("replied_at", s.now()).
			Where("id = ? AND status = 0", invitationID))
		return consultation.Change{}, apperr.Wrap(err, "reply")
	})
}

const invitationColumns = `i.id, i.consult_id, c.consult_no, c.patient_name, i.inviter_id, a.name AS inviter_name, i.invitee_id,
	b.name AS invitee_name, i.message, i.reply, i.status, i.created_at, i.replied_at`

func (s *Service) invitations(ctx context.Context, where sq.Sqlizer) ([]Invitation, error) {
	out := []Invitation{}
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select(invitationColumns).From("invitations i").
		Join("consultations c ON c.id = i.consult_id").Join("users a ON a.id = i.inviter_id").Join("users b ON b.id = i.invitee_id").
		Where(where).OrderBy("i.id DESC").Limit(500))
	return out, apperr.Wrap(err, "load invitations")
}

// CaseInvitations lists the invitations of a case the caller may see.
func (s *Service) CaseInvitations(ctx context.Context, id int64) ([]Invitation, error) {
	if _, err := s.deps.Cases.Case(ctx, id); err != nil {
		return nil, err
	}
	return s.invitations(ctx, sq.Eq{"i.consult_id": id})
}

// InvitationInfo lists the invitations to a case addressed to the caller,
// unanswered first, for answering them beside the case.
func (s *Service) InvitationInfo(ctx context.Context, id int64) ([]Invitation, error) {
	if _, err := s.deps.Cases.Case(ctx, id); err != nil {
		return nil, err
	}
	l, err := s.invitations(ctx, sq.Eq{"i.consult_id": id, "i.invitee_id": access.FromContext(ctx).UserID})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(l, func(a, b Invitation) int { return a.Status - b.Status })
	return l, nil
}

// MyInvitations lists the invitations the caller received (pending first)
// or, with sent, the ones they made.
func (s *Service) MyInvitations(ctx context.Context, sent bool) ([]Invitation, error) {
	me := access.FromContext(ctx).UserID
	// Only on cases they may see: not once the hospital has the case back.
	scope, err := s.deps.Cases.Scope(ctx)
	if err != nil {
		return nil, err
	}
	if sent {
		return s.invitations(ctx, sq.And{scope, sq.Eq{"i.inviter_id": me}})
	}
	return s.invitations(ctx, sq.And{scope, sq.Eq{"i.invitee_id": me}})
}

// Waiting lists the experts asked about a case who have not answered yet.
func Waiting(ctx context.Context, q db.Runner, consultID int64) ([]int64, error) {
	var asked []int64
	err := db.Select(ctx, q, &asked, q.Builder().Select("invitee_id").From("invitations").
		Where("consult_id = ? AND status = 0", consultID))
	return asked, apperr.Wrap(err, "load invitations")
}

// Unanswered is a query column counting the invitations userID has not
// answered, named as.
func Unanswered(userID int64, as string) sq.Sqlizer {
	return sq.Expr("(SELECT COUNT(*) FROM invitations i WHERE i.invitee_id = ? AND i.status = 0) AS "+as, userID)
}
