package library

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// validate applies the bank config rules and normalises in.
func (s *Service) validate(ctx context.Context, q db.Querier, id int64, in *LibraryInput) error {
	in.Name, in.PisCode, in.NumberName = strings.TrimSpace(in.Name), strings.TrimSpace(in.PisCode), strings.TrimSpace(in.NumberName)
	in.Prefix, in.Symbol = strings.TrimSpace(in.Prefix), strings.TrimSpace(in.Symbol)
	var v apperr.Validation
	if in.Name == "" {
		v.Add("name", "field.required")
	}
	for field, val := range map[string]string{"prefix": in.Prefix, "symbol": in.Symbol} {
		if !ValidChars(val) {
			v.Add(field, "library.bad_chars")
		} else if len(val) > MaxPartLength {
			v.Add(field, "field.too_long", "max", MaxPartLength)
		}
	}
	for field, n := range map[string]int{"middle_digits": in.MiddleDigits, "digit_length": in.DigitLength} {
		if n < 0 || n > MaxPartLength {
			v.Add(field, "library.bad_length", "max", MaxPartLength)
		}
	}
	if in.DelayHours != nil && (*in.DelayHours < 0 || *in.DelayHours > MaxDelayHours) {
		v.Add("delay_hours", "library.bad_delay", "max", MaxDelayHours)
	}
	switch in.ReportKind {
	case "", KindRoutine, KindFrozen, KindCell:
	default:
		v.Add("report_kind", "field.invalid")
	}
	if in.ParentID != nil {
		if err := s.checkParent(ctx, q, id, *in.ParentID, &v); err != nil {
			return err
		}
	}
	if in.Name != "" {
		// Names are unique among siblings, so a select shows no two alike.
		b := s.db.Builder().Select("COUNT(*)").From("libraries").Where("name = ? AND id <> ? AND deleted_at IS NULL", in.Name, id)
		if in.ParentID == nil {
			b = b.Where("parent_id IS NULL")
		} else {
			b = b.Where("parent_id = ?", *in.ParentID)
		}
		var n int
		if err := db.Get(ctx, q, &n, b); err != nil {
			return apperr.Wrap(err, "check library name")
		}
		if n > 0 {
			v.Add("name", "library.name_taken")
		}
	}
	return v.Err()
}

// checkParent refuses a parent that is the library itself, lies below it,
// or does not exist (spec 2 §5: a parent cannot be itself).
func (s *Service) checkParent(ctx context.Context, q db.Querier, id, parent int64, v *apperr.Validation) error {
	if parent == id {
		v.Add("parent_id", "library.parent_self")
		return nil
	}
	cur := parent
	for depth := 0; ; depth++ {
		var up struct {
			ParentID *int64 `db:"parent_id"`
		}
		err := db.Get(ctx, q, &up, s.db.Builder().Select("parent_id").From("libraries").Where("id = ? AND deleted_at IS NULL", cur))
		if errors.Is(err, sql.ErrNoRows) {
			v.Add("parent_id", "library.unknown")
			return nil
		} else if err != nil {
			return apperr.Wrap(err, "library parent")
		}
		if id != 0 && up.ParentID != nil && *up.ParentID == id {
			v.Add("parent_id", "library.parent_cycle")
			return nil
		}
		if up.ParentID == nil || depth >= maxDepth {
			if up.ParentID != nil {
				v.Add("parent_id", "library.too_deep")
			}
			return nil
		}
		cur = *up.ParentID
	}
}

func (in *LibraryInput) values(before *Library, now time.Time) map[string]any {
	delay, kind, status := DefaultDelayHours, KindRoutine, 1
	if before != nil {
		delay, kind, status = before.DelayHours, before.ReportKind, before.Status
	}
	if in.DelayHours != nil {
		delay = *in.DelayHours
	}
	if in.ReportKind != "" {
		kind = in.ReportKind
	}
	if in.Status != nil {
		status = *in.Status
	}
	return map[string]any{
		"name": in.Name, "pis_code": in.PisCode, "parent_id": in.ParentID, "number_name": in.NumberName,
		"prefix": in.Prefix, "middle_digits": in.MiddleDigits, "symbol": in.Symbol, "digit_length": in.DigitLength,
		"delay_hours": delay, "report_kind": kind, "status": status, "updated_at": now,
	}
}

// Create adds a library or sub-library.
func (s *Service) Create(ctx context.Context, in LibraryInput) (*Library, error) {
	var out *Library
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		out, err = s.create(ctx, tx, in)
		return err
	})
	return out, err
}

func (s *Service) create(ctx context.Context, tx *db.Tx, in LibraryInput) (*Library, error) {
	if err := s.validate(ctx, tx, 0, &in); err != nil {
		return nil, err
	}
	vals := in.values(nil, s.clock.Now())
	vals["created_at"] = vals["updated_at"]
	id, err := db.InsertID(ctx, tx, tx.Builder().Insert("libraries").SetMap(vals))
	if err != nil {
		return nil, apperr.Wrap(err, "insert library")
	}
	out, err := s.get(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return out, audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "library.create", ObjectType: "library", ObjectID: id, After: out})
}

// Update replaces a library's settings.
func (s *Service) Update(ctx context.Context, id int64, in LibraryInput) (*Library, error) {
	var out *Library
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.get(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := s.validate(ctx, tx, id, &in); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("libraries").SetMap(in.values(before, s.clock.Now())).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "update library")
		}
		if out, err = s.get(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "library.update", ObjectType: "library", ObjectID: id, Before: before, After: out})
	})
	return out, err
}

// Delete removes a library that has no sub-libraries left (spec 2 §5: a
// sub-library must be deleted before its parent). Cases keep their
// reference: the row stays, marked deleted.
func (s *Service) Delete(ctx context.Context, id int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.get(ctx, tx, id)
		if err != nil {
			return err
		}
		var children int
		if err := db.Get(ctx, tx, &children, tx.Builder().Select("COUNT(*)").From("libraries").Where("parent_id = ? AND deleted_at IS NULL", id)); err != nil {
			return apperr.Wrap(err, "count sub-libraries")
		}
		if children > 0 {
			return apperr.New(apperr.Conflict, "library.has_children")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("libraries").Set("deleted_at", s.clock.Now()).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete library")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "library.delete", ObjectType: "library", ObjectID: id, Before: before})
	})
}
