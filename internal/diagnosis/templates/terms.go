package templates

import (
	"context"
	"strings"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Limits of a term, checked here rather than in the schema so the message
// names them.
const (
	termCategoryMax = 30
	termTextMax     = 200
	termSortMax     = 9999
)

// Term is a short standard phrase inserted while writing a diagnosis.
type Term struct {
	ID        int64     `json:"id" db:"id"`
	Category  string    `json:"category" db:"category"`
	Text      string    `json:"text" db:"text"`
	SortOrder int       `json:"sort_order" db:"sort_order"`
	Public    bool      `json:"public" db:"-"`
	OwnerID   *int64    `json:"owner_id" db:"owner_id"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	UpdatedAt time.Time `json:"updated_at" db:"updated_at"`
}

// TermInput is the editable part of a term.
type TermInput struct {
	Category  string `json:"category,omitempty" doc:"At most 30 characters; empty for none"`
	Text      string `json:"text" doc:"Required, at most 200 characters"`
	SortOrder int    `json:"sort_order,omitempty" doc:"Smaller first within a category, 0 to 9999"`
	Public    bool   `json:"public,omitempty" doc:"Offered to every expert (administrators only)"`
}

func (in *TermInput) validate(p *access.Principal) error {
	in.Category, in.Text = strings.TrimSpace(in.Category), strings.TrimSpace(in.Text)
	var v apperr.Validation
	if len([]rune(in.Category)) > termCategoryMax {
		v.Add("category", "field.too_long", "max", termCategoryMax)
	}
	switch n := len([]rune(in.Text)); {
	case n == 0:
		v.Add("text", "field.required")
	case n > termTextMax:
		v.Add("text", "field.too_long", "max", termTextMax)
	}
	if in.SortOrder < 0 || in.SortOrder > termSortMax {
		v.Add("sort_order", "term.sort_range", "max", termSortMax)
	}
	if in.Public && !p.IsAdmin() {
		v.Add("public", "user.cannot_grant")
	}
	return v.Err()
}

// Terms lists the public terms and the caller's own, by category then order.
func (s *Service) Terms(ctx context.Context) ([]Term, error) {
	return s.terms(ctx, s.db, 0)
}

// terms lists the caller's terms, or with id only that one.
func (s *Service) terms(ctx context.Context, q db.Querier, id int64) ([]Term, error) {
	out := []Term{}
	b := s.db.Builder().Select("id", "category", "text", "sort_order", "owner_id", "created_at", "updated_at").From("diagnosis_terms").
		Where("deleted_at IS NULL AND (owner_id IS NULL OR owner_id = ?)", access.FromContext(ctx).UserID).
		OrderBy("category", "sort_order", "id")
	if id != 0 {
		b = b.Where("id = ?", id)
	}
	err := db.Select(ctx, q, &out, b)
	for i := range out {
		out[i].Public = out[i].OwnerID == nil
	}
	return out, apperr.Wrap(err, "load terms")
}

// SaveTerm creates (id 0) or changes a term. Public terms are the
// administrators'; an expert's are their own. The same text twice in one
// category of the same owner is refused.
func (s *Service) SaveTerm(ctx context.Context, id int64, in TermInput) (*Term, error) {
	p := access.FromContext(ctx)
	if err := in.validate(p); err != nil {
		return nil, err
	}
	var owner any = p.UserID
	if in.Public {
		owner = nil
	}
	now := s.now()
	vals := map[string]any{"category": in.Category, "text": in.Text, "sort_order": in.SortOrder, "owner_id": owner, "updated_at": now}
	var out *Term
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if id != 0 {
			if err := s.ownTerm(ctx, tx, id); err != nil {
				return err
			}
		}
		if err := s.uniqueTerm(ctx, tx, id, owner, in); err != nil {
			return err
		}
		action := "term.update"
		if id == 0 {
			vals["created_at"], action = now, "term.create"
			var err error
			if id, err = db.InsertID(ctx, tx, tx.Builder().Insert("diagnosis_terms").SetMap(vals)); err != nil {
				return apperr.Wrap(err, "insert term")
			}
		} else if _, err := db.Exec(ctx, tx, tx.Builder().Update("diagnosis_terms").SetMap(vals).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "update term")
		}
		if err := audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: action, ObjectType: "diagnosis_term", ObjectID: id, After: in}); err != nil {
			return err
		}
		l, err := s.terms(ctx, tx, id)
		if err == nil && len(l) == 1 {
			out = &l[0]
		}
		return err
	})
	return out, err
}

func (s *Service) uniqueTerm(ctx context.Context, tx *db.Tx, id int64, owner any, in TermInput) error {
	q := tx.Builder().Select("COUNT(*)").From("diagnosis_terms").
		Where("deleted_at IS NULL AND id <> ? AND category = ? AND text = ?", id, in.Category, in.Text)
	if owner == nil {
		q = q.Where("owner_id IS NULL")
	} else {
		q = q.Where("owner_id = ?", owner)
	}
	var n int
	if err := db.Get(ctx, tx, &n, q); err != nil {
		return apperr.Wrap(err, "check term")
	}
	if n > 0 {
		return apperr.New(apperr.Invalid, "error.validation").Field("text", "term.duplicate")
	}
	return nil
}

// DeleteTerm removes one of the caller's terms (or a public one, for admins).
func (s *Service) DeleteTerm(ctx context.Context, id int64) error {
	return s.remove(ctx, termKind, id)
}

func (s *Service) ownTerm(ctx context.Context, tx *db.Tx, id int64) error {
	return own(ctx, tx, termKind, id)
}
