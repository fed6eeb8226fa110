package statistics

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
)

// Default QC rates (spec 2 §9).
const (
	DefaultQC   = 90
	DefaultGoal = 95
)

// RateKeys are the QC indicators with a target, by type (spec 2 §7).
var RateKeys = []struct{ Type, Key string }{
	{"timeliness", "intime_rate_frozen"},
	{"timeliness", "intime_rate_histology"},
	{"timeliness", "intime_rate_cytology"},
	{"he", "he_excellent"},
	{"diagnosis", "frozen_paraffin_concordance"},
	{"specimen", "specimen_fixation"},
	{"audit", "first_audit"},
	{"hpv", "hpv_inner"},
}

func typeOf(key string) string {
	for _, k := range RateKeys {
		if k.Key == key {
			return k.Type
		}
	}
	return ""
}

// QCTarget is the target of one QC indicator: the QC value it must reach and
// the goal value the center aims at. ID is 0 while the defaults apply.
type QCTarget struct {
	ID        int64      `json:"id" db:"id"`
	Type      string     `json:"type" db:"type"`
	RateKey   string     `json:"rate_key" db:"rate_key"`
	Label     string     `json:"label" db:"-"`
	QCValue   float64    `json:"qc_value" db:"qc_value"`
	GoalValue float64    `json:"goal_value" db:"goal_value"`
	UpdatedAt *time.Time `json:"updated_at" db:"updated_at"`
}

// QCTargetQuery filters the targets by type.
type QCTargetQuery struct {
	Type string `query:"type" doc:"Only the indicators of this type (timeliness, he, diagnosis, specimen, audit, hpv)"`
}

// QCTargetInput sets one target: by rate key (store_many) or by id (update_many).
type QCTargetInput struct {
	ID        int64   `json:"id,omitempty"`
	RateKey   string  `json:"rate_key,omitempty"`
	QCValue   float64 `json:"qc_value"`
	GoalValue float64 `json:"goal_value"`
}

// QCTargetsInput is a batch of targets.
type QCTargetsInput struct {
	Items []QCTargetInput `json:"items" maxItems:"50"`
}

// targets returns every indicator's target by rate key, defaults filled in.
func (s *Service) targets(ctx context.Context) (map[string]QCTarget, error) {
	var stored []QCTarget
	if err := db.Select(ctx, s.db, &stored, s.db.Builder().Select("id, type, rate_key, qc_value, goal_value, updated_at").From("qc_targets")); err != nil {
		return nil, apperr.Wrap(err, "load qc targets")
	}
	lang := i18n.From(ctx)
	out := map[string]QCTarget{}
	for _, k := range RateKeys {
		out[k.Key] = QCTarget{Type: k.Type, RateKey: k.Key, QCValue: DefaultQC, GoalValue: DefaultGoal}
	}
	for _, t := range stored {
		out[t.RateKey] = t
	}
	for k, t := range out {
		t.Label = i18n.T(lang, "statistics.figure."+k, nil)
		out[k] = t
	}
	return out, nil
}

// Targets lists the QC targets (of a type), in the catalogue's order.
func (s *Service) Targets(ctx context.Context, q *QCTargetQuery) ([]QCTarget, error) {
	if q.Type != "" && !containsType(q.Type) {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("type", "statistics.unknown_value")
	}
	all, err := s.targets(ctx)
	if err != nil {
		return nil, err
	}
	out := []QCTarget{}
	for _, k := range RateKeys {
		if q.Type == "" || k.Type == q.Type {
			out = append(out, all[k.Key])
		}
	}
	return out, nil
}

func containsType(t string) bool {
	for _, k := range RateKeys {
		if k.Type == t {
			return true
		}
	}
	return false
}

// checkValues enforces 0 ≤ qc ≤ goal ≤ 100 on item i.
func checkValues(v *apperr.Validation, i int, in QCTargetInput) {
	f := fmt.Sprintf("items[%d]", i)
	if in.QCValue < 0 || in.QCValue > 100 {
		v.Add(f+".qc_value", "statistics.target_range")
	}
	if in.GoalValue < 0 || in.GoalValue > 100 {
		v.Add(f+".goal_value", "statistics.target_range")
	} else if in.GoalValue < in.QCValue {
		v.Add(f+".goal_value", "statistics.goal_below_qc")
	}
}

// StoreMany sets the targets of rate keys, creating their rows or
// replacing them; all or nothing.
func (s *Service) StoreMany(ctx context.Context, in QCTargetsInput) ([]QCTarget, error) {
	var v apperr.Validation
	if len(in.Items) == 0 {
		v.Add("items", "field.required")
	}
	seen := map[string]bool{}
	for i, it := range in.Items {
		if typeOf(it.RateKey) == "" || seen[it.RateKey] {
			v.Add(fmt.Sprintf("items[%d].rate_key", i), "statistics.unknown_value")
		}
		seen[it.RateKey] = true
		checkValues(&v, i, it)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s.write(ctx, "qc_target.store_many", in, func(tx *db.Tx, now time.Time, me int64) error {
		for _, it := range in.Items {
			res, err := db.Exec(ctx, tx, tx.Builder().Update("qc_targets").SetMap(map[string]any{
				"qc_value": it.QCValue, "goal_value": it.GoalValue, "updated_by": me, "updated_at": now}).Where("rate_key = ?", it.RateKey))
			if err != nil {
				return apperr.Wrap(err, "update qc target")
			}
			if n, _ := res.RowsAffected(); n == 1 {
				continue
			}
			if _, err := db.Exec(ctx, tx, tx.Builder().Insert("qc_targets").SetMap(map[string]any{"type": typeOf(it.RateKey), "rate_key": it.RateKey,
				"qc_value": it.QCValue, "goal_value": it.GoalValue, "updated_by": me, "created_at": now, "updated_at": now})); err != nil {
				return apperr.Wrap(err, "insert qc target")
			}
		}
		return nil
	})
}

// UpdateMany changes stored targets by id; all or nothing.
func (s *Service) UpdateMany(ctx context.Context, in QCTargetsInput) ([]QCTarget, error) {
	var v apperr.Validation
	if len(in.Items) == 0 {
		v.Add("items", "field.required")
	}
	for i, it := range in.Items {
		checkValues(&v, i, it)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s.write(ctx, "qc_target.update_many", in, func(tx *db.Tx, now time.Time, me int64) error {
		var bad apperr.Validation
		for i, it := range in.Items {
			res, err := db.Exec(ctx, tx, tx.Builder().Update("qc_targets").SetMap(map[string]any{
				"qc_value": it.QCValue, "goal_value": it.GoalValue, "updated_by": me, "updated_at": now}).Where(sq.Eq{"id": it.ID}))
			if err != nil {
				return apperr.Wrap(err, "update qc target")
			}
			if n, _ := res.RowsAffected(); n != 1 {
				bad.Add(fmt.Sprintf("items[%d].id", i), "error.not_found")
			}
		}
		return bad.Err()
	})
}

// write runs f in one transaction with its audit record and returns the targets.
func (s *Service) write(ctx context.Context, action string, in QCTargetsInput, f func(tx *db.Tx, now time.Time, me int64) error) ([]QCTarget, error) {
	p := access.FromContext(ctx)
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := f(tx, s.clock.Now(), p.UserID); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: action, ObjectType: "qc_target", After: in.Items})
	})
	if err != nil {
		return nil, err
	}
	return s.Targets(ctx, &QCTargetQuery{})
}
