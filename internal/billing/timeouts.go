package billing

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

var timeoutList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":           {Expr: "t.id", Type: listquery.Int, Sort: true, Filter: true},
		"name":         {Expr: "t.name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"hours":        {Expr: "t.hours", Type: listquery.Int, Sort: true, Filter: true},
		"remind_hours": {Expr: "t.remind_hours", Type: listquery.Int, Sort: true, Filter: true},
		"expedite":     {Expr: "t.expedite", Type: listquery.Int, Sort: true, Filter: true, Enum: []any{0, 1}},
		"is_default":   {Expr: "t.is_default", Type: listquery.Int, Sort: true, Filter: true, Enum: []any{0, 1}},
		"created_at":   {Expr: "t.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"updated_at":   {Expr: "t.updated_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"t.id ASC"},
	TieBreak:    "t.id ASC",
}

const timeoutColumns = `t.id, t.name, t.hours, t.remind_hours, t.expedite, t.is_default, t.created_at, t.updated_at`

func (s *Service) selectTimeouts() sq.SelectBuilder {
	return s.db.Builder().Select(timeoutColumns).From("timeout_configs t").Where("t.deleted_at IS NULL")
}

// ListTimeouts returns a page of timeout configurations.
func (s *Service) ListTimeouts(ctx context.Context, req listquery.Request) ([]TimeoutConfig, listquery.Pagination, error) {
	q, err := timeoutList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	count := s.db.Builder().Select("COUNT(*)").From("timeout_configs t").Where("t.deleted_at IS NULL")
	return listquery.Run[TimeoutConfig](ctx, s.db, q, s.selectTimeouts(), count)
}

func (s *Service) timeout(ctx context.Context, q db.Querier, id int64) (*TimeoutConfig, error) {
	var t TimeoutConfig
	if err := db.Get(ctx, q, &t, s.selectTimeouts().Where("t.id = ?", id)); errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load timeout")
	}
	return &t, nil
}

// TimeoutFor returns the time limit of a new case. For an urgent case
// (expedite) it is the expedite configuration (the lowest id if several);
// otherwise, or when there is none, the default configuration; with no
// default either, BuiltinTimeout (72 h, reminder 24 h, ID nil). Errors are
// internal (database).
func (s *Service) TimeoutFor(ctx context.Context, expedite bool) (Timeout, error) {
	var rows []TimeoutConfig
	b := s.selectTimeouts().Where(sq.Or{sq.Eq{"t.is_default": 1}, sq.Eq{"t.expedite": 1}}).OrderBy("t.id")
	if err := db.Select(ctx, s.db, &rows, b); err != nil {
		return Timeout{}, apperr.Wrap(err, "load timeouts")
	}
	pick := func(match func(TimeoutConfig) bool) (Timeout, bool) {
		for _, t := range rows {
			if match(t) {
				return Timeout{ID: &t.ID, Hours: t.Hours, RemindHours: t.RemindHours}, true
			}
		}
		return Timeout{}, false
	}
	if expedite {
		if t, ok := pick(func(t TimeoutConfig) bool { return t.Expedite == 1 }); ok {
			return t, nil
		}
	}
	if t, ok := pick(func(t TimeoutConfig) bool { return t.IsDefault == 1 }); ok {
		return t, nil
	}
	return BuiltinTimeout, nil
}

func (s *Service) validateTimeout(ctx context.Context, q db.Querier, t *TimeoutConfig) error {
	t.Name = strings.TrimSpace(t.Name)
	var v apperr.Validation
	if t.Name == "" {
		v.Add("name", "field.required")
	} else {
		var n int
		if err := db.Get(ctx, q, &n, s.db.Builder().Select("COUNT(*)").From("timeout_configs").
			Where("name = ? AND id <> ? AND deleted_at IS NULL", t.Name, t.ID)); err != nil {
			return apperr.Wrap(err, "check timeout name")
		}
		if n > 0 {
			v.Add("name", "billing.taken")
		}
	}
	if t.Hours < 1 || t.Hours > MaxTimeoutHours {
		v.Add("hours", "billing.bad_hours", "max", MaxTimeoutHours)
	} else if t.RemindHours < 0 || t.RemindHours > t.Hours {
		v.Add("remind_hours", "billing.bad_remind")
	}
	if t.Expedite == 1 && t.IsDefault == 1 {
		v.Add("is_default", "billing.default_expedite")
	}
	return v.Err()
}

// save writes t (insert when t.ID is 0) after clearing any other default
// when t is the default, each change audited.
func (s *Service) save(ctx context.Context, tx *db.Tx, t *TimeoutConfig) (int64, error) {
	now := s.clock.Now()
	if t.IsDefault == 1 {
		var others []TimeoutConfig
		if err := db.Select(ctx, tx, &others, s.selectTimeouts().Where("t.is_default = 1 AND t.id <> ?", t.ID)); err != nil {
			return 0, apperr.Wrap(err, "load default timeout")
		}
		for _, o := range others {
			if _, err := db.Exec(ctx, tx, tx.Builder().Update("timeout_configs").Set("is_default", 0).Set("updated_at", now).Where("id = ?", o.ID)); err != nil {
				return 0, apperr.Wrap(err, "clear default timeout")
			}
			after := o
			after.IsDefault, after.UpdatedAt = 0, now
			if err := audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "timeout.update", ObjectType: "timeout", ObjectID: o.ID,
				Before: o, After: after, Message: "default moved"}); err != nil {
				return 0, err
			}
		}
	}
	vals := map[string]any{"name": t.Name, "hours": t.Hours, "remind_hours": t.RemindHours, "expedite": t.Expedite,
		"is_default": t.IsDefault, "updated_at": now}
	if t.ID != 0 {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("timeout_configs").SetMap(vals).Where("id = ?", t.ID))
		return t.ID, apperr.Wrap(err, "update timeout")
	}
	vals["created_at"] = now
	id, err := db.InsertID(ctx, tx, tx.Builder().Insert("timeout_configs").SetMap(vals))
	return id, apperr.Wrap(err, "insert timeout")
}

// CreateTimeout adds a timeout configuration; when it is the default, the
// previous default stops being one in the same transaction.
func (s *Service) CreateTimeout(ctx context.Context, in TimeoutInput) (*TimeoutConfig, error) {
	t := TimeoutConfig{Name: in.Name, Hours: in.Hours, RemindHours: intOr(in.RemindHours, min(BuiltinTimeout.RemindHours, max(in.Hours, 0))),
		Expedite: intOr(in.Expedite, 0), IsDefault: intOr(in.IsDefault, 0)}
	var out *TimeoutConfig
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.validateTimeout(ctx, tx, &t); err != nil {
			return err
		}
		id, err := s.save(ctx, tx, &t)
		if err != nil {
			return err
		}
		if out, err = s.timeout(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "timeout.create", ObjectType: "timeout", ObjectID: id, After: out})
	})
	return out, err
}

// UpdateTimeout changes the fields present in p.
func (s *Service) UpdateTimeout(ctx context.Context, id int64, p TimeoutPatch) (*TimeoutConfig, error) {
	var out *TimeoutConfig
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.timeout(ctx, tx, id)
		if err != nil {
			return err
		}
		t := *before
		setStr(&t.Name, p.Name)
		t.Hours, t.RemindHours = intOr(p.Hours, t.Hours), intOr(p.RemindHours, t.RemindHours)
		t.Expedite, t.IsDefault = intOr(p.Expedite, t.Expedite), intOr(p.IsDefault, t.IsDefault)
		if err := s.validateTimeout(ctx, tx, &t); err != nil {
			return err
		}
		if _, err := s.save(ctx, tx, &t); err != nil {
			return err
		}
		if out, err = s.timeout(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "timeout.update", ObjectType: "timeout", ObjectID: id, Before: before, After: out})
	})
	return out, err
}

// DeleteTimeout removes a timeout configuration. Cases keep the limit they
// were given; deleting the default leaves TimeoutFor with the built-in one
// until another default is set.
func (s *Service) DeleteTimeout(ctx context.Context, id int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.timeout(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("timeout_configs").SetMap(map[string]any{
			"deleted_at": s.clock.Now(), "is_default": 0}).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete timeout")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "timeout.delete", ObjectType: "timeout", ObjectID: id, Before: before})
	})
}
