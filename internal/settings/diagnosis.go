package settings

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Diagnosis settings (spec 2 §7 Settings keys, GET/POST /config/common/setting):
// the reason lists offered in the diagnosis dialogs and the defaults filled
// into forms. The global copy is the administrator's; a center keeps its own
// copy of the keys its center administrator set, each other key falls back
// to the global value.
//
// delay_report and timeout_reason are also on/off switches of the system
// configuration (System.DelayReport, System.TimeoutReason): those say whether
// a delay notifies the site and whether a late report needs a reason; the keys
// here hold the reasons the dialogs offer.

// Kinds of diagnosis setting values.
const (
	kindList = "list" // a list of short texts (reasons, options)
	kindText = "text" // one text (a default filled into a form)
	kindBool = "bool"
)

// DiagnosisKeys are the settings keys in the spec's order, each with its kind.
var DiagnosisKeys = []struct{ Key, Kind string }{
	{"delay_report", kindList},
	{"timeout_reason", kindList},
	{"cell_fixed", kindText},
	{"routine_fixed", kindText},
	{"after_frozen_paraffin_block", kindBool},
	{"default_molecular_block_remark", kindText},
	{"first_audit_error_reason", kindList},
	{"specimen_reject", kindList},
	{"infectious_specimen", kindList},
	{"special_advice", kindList},
	{"report_class", kindList},
}

// Limits of a diagnosis setting value.
const (
	MaxListItems = 50
	MaxItemChars = 100
	MaxTextChars = 200
)

// MaxFixativeChars is the length of a specimen's fixative (the case
// registration's field): the cell_fixed and routine_fixed defaults fill it.
const MaxFixativeChars = 50

// textLimit is the longest value of a text key.
func textLimit(key string) int {
	if key == "cell_fixed" || key == "routine_fixed" {
		return MaxFixativeChars
	}
	return MaxTextChars
}

func kindOf(key string) string {
	for _, k := range DiagnosisKeys {
		if k.Key == key {
			return k.Kind
		}
	}
	return ""
}

// DiagnosisConfig is the value of every diagnosis settings key.
type DiagnosisConfig struct {
	DelayReport                 []string `json:"delay_report" doc:"Delay reasons offered in the expert's delay dialog"`
	TimeoutReason               []string `json:"timeout_reason" doc:"Reasons offered when a report is signed after its deadline"`
	CellFixed                   string   `json:"cell_fixed" doc:"Default fixation of cytology specimens"`
	RoutineFixed                string   `json:"routine_fixed" doc:"Default fixation of routine specimens"`
	AfterFrozenParaffinBlock    bool     `json:"after_frozen_paraffin_block" doc:"A frozen case offers its paraffin follow-up case"`
	DefaultMolecularBlockRemark string   `json:"default_molecular_block_remark" doc:"Remark filled into a molecular pathology advice item"`
	FirstAuditErrorReason       []string `json:"first_audit_error_reason" doc:"Reasons offered when the reviewer returns a first diagnosis"`
	SpecimenReject              []string `json:"specimen_reject" doc:"Reasons offered when a case is returned"`
	InfectiousSpecimen          []string `json:"infectious_specimen" doc:"Infectious specimen options"`
	SpecialAdvice               []string `json:"special_advice" doc:"Remarks offered in the special exam advice dialog"`
	ReportClass                 []string `json:"report_class" doc:"Report classes"`
}

// DiagnosisDefaults are the values before anyone configures them.
func DiagnosisDefaults() DiagnosisConfig {
	return DiagnosisConfig{
		DelayReport: []string{}, TimeoutReason: []string{}, AfterFrozenParaffinBlock: true,
		FirstAuditErrorReason: []string{}, SpecimenReject: []string{}, InfectiousSpecimen: []string{},
		SpecialAdvice: []string{}, ReportClass: []string{},
	}
}

// DiagnosisSettings is one scope's view of the diagnosis settings.
type DiagnosisSettings struct {
	Scope    string          `json:"scope" enum:"global,center"`
	CenterID *int64          `json:"center_id"`
	Settings DiagnosisConfig `json:"settings" doc:"The values in force in this scope"`
	// Inherited are the keys this center has not set: their value is the global one.
	Inherited []string `json:"inherited"`
}

// DiagnosisQuery picks the scope to read.
type DiagnosisQuery struct {
	CenterID int64 `query:"center_id" doc:"A center's copy (administrators: any center; others: one of theirs, or for hospital accounts one their hospital sends cases to). Default: the caller's first such center, or the global copy for administrators and users without one"`
}

// DiagnosisInput changes some keys of one scope.
type DiagnosisInput struct {
	CenterID int64 `json:"center_id,omitempty" doc:"The center whose copy changes; administrators leave it out for the global copy"`
	// Settings maps keys to values: a list of texts, a text or a boolean by
	// key; null removes a center's own value (the global one applies again).
	Settings map[string]any `json:"settings" doc:"Keys to change, each with a value of its kind"`
}

func diagnosisKey(center int64) string {
	if center == 0 {
		return "diagnosis_config"
	}
	return "diagnosis_config.center." + strconv.FormatInt(center, 10)
}

// scopeOf resolves the center the caller reads or writes; 0 is the global copy.
func (s *Service) scopeOf(ctx context.Context, p *access.Principal, center int64, write bool) (int64, error) {
	if p == nil {
		return 0, apperr.New(apperr.Forbidden, "error.forbidden")
	}
	if p.IsAdmin() {
		return center, nil
	}
	mine := p.CenterIDs
	if !write {
		var err error
		if mine, err = s.readableCenters(ctx, p); err != nil {
			return 0, err
		}
	}
	if center == 0 {
		if len(mine) == 0 {
			if write { // a center administrator without a center has no copy to change
				return 0, apperr.New(apperr.Invalid, "error.validation").Field("center_id", "field.required")
			}
			return 0, nil
		}
		return mine[0], nil
	}
	if !slices.Contains(mine, center) {
		return 0, apperr.New(apperr.NotFound, "error.not_found")
	}
	return center, nil
}

// readableCenters are the centers whose copy the caller reads: those they
// work in, then those their hospitals send cases to (site, clinical and
// uploader accounts, spec 2 §6), each once, in that order.
func (s *Service) readableCenters(ctx context.Context, p *access.Principal) ([]int64, error) {
	out := slices.Clone(p.CenterIDs)
	if s.hospitalCenters == nil {
		return out, nil
	}
	for _, h := range p.HospitalIDs {
		ids, err := s.hospitalCenters(ctx, h)
		if err != nil {
			return nil, err
		}
		for _, c := range ids {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// storedMap reads one scope's stored keys (none when nothing is stored).
func storedMap(ctx context.Context, q db.Runner, key string) (map[string]json.RawMessage, string, error) {
	text, err := Value(ctx, q, key)
	if errors.Is(err, sql.ErrNoRows) {
		return map[string]json.RawMessage{}, "", nil
	} else if err != nil {
		return nil, "", apperr.Wrap(err, "load diagnosis settings")
	}
	m := map[string]json.RawMessage{}
	if json.Unmarshal([]byte(text), &m) != nil {
		m = map[string]json.RawMessage{} // corrupt: defaults (spec 2 §3)
	}
	return m, text, nil
}

// apply decodes the stored keys over cfg; a key whose stored value does not
// decode keeps the value below it.
func apply(cfg *DiagnosisConfig, m map[string]json.RawMessage) {
	b, _ := json.Marshal(cfg)
	var all map[string]json.RawMessage
	_ = json.Unmarshal(b, &all)
	for k, v := range m {
		if kindOf(k) == "" {
			continue
		}
		probe := map[string]json.RawMessage{k: v}
		pb, _ := json.Marshal(probe)
		next := *cfg
		if json.Unmarshal(pb, &next) == nil {
			*cfg = next
		}
	}
	normalise(cfg)
}

func normalise(cfg *DiagnosisConfig) {
	for _, l := range []*[]string{&cfg.DelayReport, &cfg.TimeoutReason, &cfg.FirstAuditErrorReason, &cfg.SpecimenReject, &cfg.InfectiousSpecimen, &cfg.SpecialAdvice, &cfg.ReportClass} {
		if *l == nil {
			*l = []string{}
		}
	}
}

func (s *Service) diagnosisIn(ctx context.Context, q db.Runner, center int64) (DiagnosisSettings, error) {
	cfg := DiagnosisDefaults()
	global, _, err := storedMap(ctx, q, diagnosisKey(0))
	if err != nil {
		return DiagnosisSettings{}, err
	}
	apply(&cfg, global)
	out := DiagnosisSettings{Scope: "global", Inherited: []string{}}
	if center != 0 {
		own, _, err := storedMap(ctx, q, diagnosisKey(center))
		if err != nil {
			return DiagnosisSettings{}, err
		}
		apply(&cfg, own)
		out.Scope, out.CenterID = "center", &center
		for _, k := range DiagnosisKeys {
			if _, ok := own[k.Key]; !ok {
				out.Inherited = append(out.Inherited, k.Key)
			}
		}
	}
	out.Settings = cfg
	return out, nil
}

// Diagnosis returns the diagnosis settings in force for the caller's scope.
func (s *Service) Diagnosis(ctx context.Context, in *DiagnosisQuery) (DiagnosisSettings, error) {
	center, err := s.scopeOf(ctx, access.FromContext(ctx), in.CenterID, false)
	if err != nil {
		return DiagnosisSettings{}, err
	}
	return s.diagnosisIn(ctx, s.db, center)
}

// DiagnosisFor returns the settings in force for a center (0: global), for
// other domains.
func (s *Service) DiagnosisFor(ctx context.Context, center int64) DiagnosisConfig {
	out, err := s.diagnosisIn(ctx, s.db, center)
	if err != nil {
		cfg := DiagnosisDefaults()
		return cfg
	}
	return out.Settings
}

// checkValue validates and normalises one value of key.
func checkValue(v *apperr.Validation, key string, raw any) any {
	field := "settings." + key
	switch kindOf(key) {
	case kindBool:
		b, ok := raw.(bool)
		if !ok {
			v.Add(field, "settings.want_bool")
		}
		return b
	case kindText:
		s, ok := raw.(string)
		if !ok {
			v.Add(field, "settings.want_text")
			return nil
		}
		s = strings.TrimSpace(s)
		if max := textLimit(key); utf8.RuneCountInString(s) > max {
			v.Add(field, "field.too_long", "max", max)
		}
		return s
	case kindList:
		items, ok := raw.([]any)
		if !ok {
			v.Add(field, "settings.want_list")
			return nil
		}
		if len(items) > MaxListItems {
			v.Add(field, "settings.too_many", "max", MaxListItems)
			return nil
		}
		out := make([]string, 0, len(items))
		for _, it := range items {
			s, ok := it.(string)
			if !ok {
				v.Add(field, "settings.want_list")
				return nil
			}
			s = strings.TrimSpace(s)
			switch {
			case s == "":
				v.Add(field, "settings.empty_item")
				return nil
			case utf8.RuneCountInString(s) > MaxItemChars:
				v.Add(field, "settings.item_too_long", "max", MaxItemChars)
				return nil
			case slices.Contains(out, s):
				v.Add(field, "settings.duplicate_item", "item", s)
				return nil
			}
			out = append(out, s)
		}
		return out
	}
	v.Add(field, "settings.unknown_key")
	return nil
}

// UpdateDiagnosis changes the given keys of one scope: the global copy for
// an administrator without a center, else the center's copy. Every value is
// checked before anything is written; the change is audited in the same
// transaction.
func (s *Service) UpdateDiagnosis(ctx context.Context, in DiagnosisInput) (DiagnosisSettings, error) {
	center, err := s.scopeOf(ctx, access.FromContext(ctx), in.CenterID, true)
	if err != nil {
		return DiagnosisSettings{}, err
	}
	var v apperr.Validation
	if len(in.Settings) == 0 {
		v.Add("settings", "field.required")
	}
	clean := map[string]any{}
	for k, raw := range in.Settings {
		if raw == nil && center != 0 && kindOf(k) != "" {
			clean[k] = nil // back to the global value
			continue
		}
		if raw == nil {
			v.Add("settings."+k, "field.required")
			continue
		}
		clean[k] = checkValue(&v, k, raw)
	}
	if err := v.Err(); err != nil {
		return DiagnosisSettings{}, err
	}
	var out DiagnosisSettings
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.diagnosisIn(ctx, tx, center)
		if err != nil {
			return err
		}
		key := diagnosisKey(center)
		own, _, err := storedMap(ctx, tx, key)
		if err != nil {
			return err
		}
		for k, val := range clean {
			if val == nil {
				delete(own, k)
				continue
			}
			b, err := json.Marshal(val)
			if err != nil {
				return apperr.Wrap(err, "encode %s", k)
			}
			own[k] = b
		}
		value, err := json.Marshal(own)
		if err != nil {
			return apperr.Wrap(err, "encode diagnosis settings")
		}
		now := s.clock.Now()
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("settings").Columns("key", "value", "updated_at").
			Values(key, string(value), now).
			Suffix("ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at")); err != nil {
			return apperr.Wrap(err, "store diagnosis settings")
		}
		if out, err = s.diagnosisIn(ctx, tx, center); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "settings.diagnosis_update", ObjectType: "settings", ObjectID: key, Before: before, After: out})
	})
	return out, err
}
