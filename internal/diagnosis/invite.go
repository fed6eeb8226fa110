package diagnosis

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

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
	return s.deps.Cases.Apply(ctx, id, consultation.ActInvite, message, func(tx *db.Tx, r *consultation.Row, _ consultation.State) (map[string]any, error) {
		for _, inv := range invitees {
			if inv == me {
				return nil, apperr.New(apperr.Invalid, "error.validation").Field("invitee_ids", "diagnosis.invite_self")
			}
			if err := s.checkExpert(ctx, r, inv, "invitee_ids"); err != nil {
				return nil, err
			}
			var waiting int
			if err := db.Get(ctx, tx, &waiting, tx.Builder().Select("COUNT(*)").From("invitations").
				Where("consult_id = ? AND invitee_id = ? AND status = 0", id, inv)); err != nil {
				return nil, apperr.Wrap(err, "load invitations")
			}
			if waiting > 0 {
				return nil, apperr.New(apperr.Invalid, "error.validation").Field("invitee_ids", "diagnosis.invite_waiting")
			}
			if _, err := db.Exec(ctx, tx, tx.Builder().Insert("invitations").
				Columns("consult_id", "inviter_id", "invitee_id", "message", "created_at").Values(id, me, inv, message, s.now())); err != nil {
				return nil, apperr.Wrap(err, "invite")
			}
		}
		return nil, nil
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
		return refuse("diagnosis.already_replied")
	}
	return s.deps.Cases.Apply(ctx, inv.ConsultID, consultation.ActInviteReply, reply, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (map[string]any, error) {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("invitations").Set("reply", reply).Set("status", 1).Set("replied_at", s.now()).
			Where("id = ? AND status = 0", invitationID))
		return nil, apperr.Wrap(err, "reply")
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

// Templates lists the public templates and the caller's own.
func (s *Service) Templates(ctx context.Context) ([]Template, error) {
	me := access.FromContext(ctx).UserID
	out := []Template{}
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select("id", "name", "category", "microscopic", "opinion", "gross_description",
		"owner_id", "created_at", "updated_at").From("diagnosis_templates").
		Where("deleted_at IS NULL AND (owner_id IS NULL OR owner_id = ?)", me).OrderBy("category", "name"))
	for i := range out {
		out[i].Public = out[i].OwnerID == nil
	}
	return out, apperr.Wrap(err, "load templates")
}

// SaveTemplate creates (id 0) or changes a template. Public templates are
// the administrators'; an expert's are their own.
func (s *Service) SaveTemplate(ctx context.Context, id int64, in TemplateInput) (*Template, error) {
	p := access.FromContext(ctx)
	in.Name = strings.TrimSpace(in.Name)
	var v apperr.Validation
	if in.Name == "" {
		v.Add("name", "field.required")
	}
	if strings.TrimSpace(in.Microscopic+in.Opinion+in.GrossDescription) == "" {
		v.Add("opinion", "diagnosis.template_empty")
	}
	if in.Public && !p.IsAdmin() {
		v.Add("public", "user.cannot_grant")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var owner any = p.UserID
	if in.Public {
		owner = nil
	}
	now := s.now()
	vals := map[string]any{"name": in.Name, "category": in.Category, "microscopic": in.Microscopic, "opinion": in.Opinion,
		"gross_description": in.GrossDescription, "owner_id": owner, "updated_at": now}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		action := "template.update"
		if id == 0 {
			vals["created_at"], action = now, "template.create"
			var err error
			if id, err = db.InsertID(ctx, tx, tx.Builder().Insert("diagnosis_templates").SetMap(vals)); err != nil {
				return apperr.Wrap(err, "insert template")
			}
		} else {
			if err := s.ownTemplate(ctx, tx, id); err != nil {
				return err
			}
			if _, err := db.Exec(ctx, tx, tx.Builder().Update("diagnosis_templates").SetMap(vals).Where("id = ?", id)); err != nil {
				return apperr.Wrap(err, "update template")
			}
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: action, ObjectType: "diagnosis_template", ObjectID: id, After: in})
	})
	if err != nil {
		return nil, err
	}
	all, err := s.Templates(ctx)
	for _, t := range all {
		if t.ID == id {
			return &t, err
		}
	}
	return nil, err
}

// DeleteTemplate removes one of the caller's templates (or a public one, for admins).
func (s *Service) DeleteTemplate(ctx context.Context, id int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.ownTemplate(ctx, tx, id); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("diagnosis_templates").Set("deleted_at", s.now()).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete template")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "template.delete", ObjectType: "diagnosis_template", ObjectID: id})
	})
}

func (s *Service) ownTemplate(ctx context.Context, tx *db.Tx, id int64) error {
	p := access.FromContext(ctx)
	var owner *int64
	err := db.Get(ctx, tx, &owner, tx.Builder().Select("owner_id").From("diagnosis_templates").Where("id = ? AND deleted_at IS NULL", id))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !(owner == nil && p.IsAdmin()) && (owner == nil || *owner != p.UserID)) {
		return apperr.New(apperr.NotFound, "error.not_found")
	}
	return apperr.Wrap(err, "load template")
}
