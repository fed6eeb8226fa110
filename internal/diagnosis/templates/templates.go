package templates

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Template is a reusable diagnosis text.
type Template struct {
	ID               int64     `json:"id" db:"id"`
	Name             string    `json:"name" db:"name"`
	Category         string    `json:"category" db:"category"`
	Microscopic      string    `json:"microscopic" db:"microscopic"`
	Opinion          string    `json:"opinion" db:"opinion"`
	GrossDescription string    `json:"gross_description" db:"gross_description"`
	Public           bool      `json:"public" db:"-"`
	OwnerID          *int64    `json:"owner_id" db:"owner_id"`
	CreatedAt        time.Time `json:"created_at" db:"created_at"`
	UpdatedAt        time.Time `json:"updated_at" db:"updated_at"`
}

// TemplateInput is the editable part of a template.
type TemplateInput struct {
	Name             string `json:"name,omitempty" maxLength:"100"`
	Category         string `json:"category,omitempty" maxLength:"50"`
	Microscopic      string `json:"microscopic,omitempty" maxLength:"20000"`
	Opinion          string `json:"opinion,omitempty" maxLength:"10000"`
	GrossDescription string `json:"gross_description,omitempty" maxLength:"10000"`
	Public           bool   `json:"public,omitempty" doc:"Offered to every expert (administrators only)"`
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
	return s.remove(ctx, templateKind, id)
}

func (s *Service) ownTemplate(ctx context.Context, tx *db.Tx, id int64) error {
	return own(ctx, tx, templateKind, id)
}

// kind is one kind of text this package keeps: its table and its names in
// the audit log.
type kind struct{ table, object, name string }

var (
	templateKind = kind{"diagnosis_templates", "diagnosis_template", "template"}
	termKind     = kind{"diagnosis_terms", "diagnosis_term", "term"}
)

// remove deletes a text the caller may change (own).
func (s *Service) remove(ctx context.Context, k kind, id int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := own(ctx, tx, k, id); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update(k.table).Set("deleted_at", s.now()).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete "+k.name)
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: k.name + ".delete", ObjectType: k.object, ObjectID: id})
	})
}

// own finds a text the caller may change: their own, or a public one for an
// administrator. Anything else is not found.
func own(ctx context.Context, tx *db.Tx, k kind, id int64) error {
	p := access.FromContext(ctx)
	var owner *int64
	err := db.Get(ctx, tx, &owner, tx.Builder().Select("owner_id").From(k.table).Where("id = ? AND deleted_at IS NULL", id))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !(owner == nil && p.IsAdmin()) && (owner == nil || *owner != p.UserID)) {
		return apperr.New(apperr.NotFound, "error.not_found")
	}
	return apperr.Wrap(err, "load "+k.name)
}
