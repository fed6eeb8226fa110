package user

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sort"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// RoleConfig is the configuration of one of a user's roles (spec 2 §6: the
// expert, allocator and site roles carry one; the others none). Only the
// keys of the role are set.
//
// An expert's subspecialties are pathology libraries (internal/library): the
// center's subspecialties are its libraries, and binding a library binds its
// sub-libraries too. An expert who does not take cases is offered for no new
// assignment.
type RoleConfig struct {
	Subspecialties []int64 `json:"subspecialties,omitempty" doc:"expert: ids of the pathology libraries (or sub-libraries) the expert reads"`
	TakesCases     *bool   `json:"takes_cases,omitempty" doc:"expert: receives new cases (default true)"`
	CenterIDs      []int64 `json:"center_ids,omitempty" doc:"allocator: the centers whose cases they allot (among the user's centers)"`
	SiteID         *int64  `json:"site_id,omitempty" doc:"site: the hospital the site account acts for (among the user's hospitals)"`
}

// RoleConfigEntry is one role of a user with its configuration.
type RoleConfigEntry struct {
	Role   string     `json:"role"`
	Config RoleConfig `json:"config"`
}

// RoleConfigs lists a user's roles with their configuration.
type RoleConfigs struct {
	UserID int64             `json:"user_id"`
	Roles  []RoleConfigEntry `json:"roles"`
}

// RoleConfigInput sets one role's configuration of one user.
type RoleConfigInput struct {
	UserID int64           `json:"user_id" minimum:"1"`
	Role   string          `json:"role" maxLength:"32"`
	Config json.RawMessage `json:"config" doc:"The role's keys: expert {subspecialties, takes_cases}, allocator {center_ids}, site {site_id}; other roles {}"`
}

// configKeys are the keys each role's configuration may hold.
var configKeys = map[string][]string{
	access.Expert:    {"subspecialties", "takes_cases"},
	access.Allocator: {"center_ids"},
	access.Site:      {"site_id"},
}

// TakesCasesOrDefault reads the takes_cases of an expert configuration (default true).
func (c RoleConfig) TakesCasesOrDefault() bool { return c.TakesCases == nil || *c.TakesCases }

// parseConfig reads a stored configuration; a corrupt one reads as empty.
func parseConfig(raw string) RoleConfig {
	var c RoleConfig
	_ = json.Unmarshal([]byte(raw), &c)
	return c
}

// checkRoleConfig validates raw as role's configuration of a user bound to
// centers and hospitals; field errors go to v under prefix (e.g.
// role_configs.expert). It returns the configuration to store (compact JSON).
func (s *Service) checkRoleConfig(ctx context.Context, q db.Querier, role string, raw json.RawMessage, centers, hospitals []int64, prefix string, v *apperr.Validation) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	var obj map[string]json.RawMessage
	if len(raw) > 8<<10 || json.Unmarshal(raw, &obj) != nil || obj == nil {
		v.Add(prefix, "user.bad_role_config")
		return "", nil
	}
	allowed := configKeys[role]
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var c RoleConfig
	for _, k := range keys {
		val := obj[k]
		if !slices.Contains(allowed, k) {
			v.Add(prefix, "user.role_config_unknown_key", "key", k)
			continue
		}
		var err error
		switch k {
		case "subspecialties":
			err = strictList(val, &c.Subspecialties)
		case "takes_cases":
			err = json.Unmarshal(val, &c.TakesCases)
			if bytes.Equal(val, []byte("null")) {
				err = errNull
			}
		case "center_ids":
			err = strictList(val, &c.CenterIDs)
		case "site_id":
			err = json.Unmarshal(val, &c.SiteID)
			if c.SiteID == nil {
				err = errNull
			}
		}
		if err != nil {
			v.Add(prefix+"."+k, "user.role_config_bad_type")
		}
	}
	if v.Has(prefix) || v.Has(prefix+".subspecialties") || v.Has(prefix+".takes_cases") || v.Has(prefix+".center_ids") || v.Has(prefix+".site_id") {
		return "", nil
	}
	c.Subspecialties = compactIDs(c.Subspecialties)
	c.CenterIDs = compactIDs(c.CenterIDs)
	if len(c.Subspecialties) > 0 {
		if s.libraries == nil {
			return "", apperr.Wrap(errNoLibraries, "check subspecialties")
		}
		known, err := s.libraries(ctx, q, c.Subspecialties)
		if err != nil {
			return "", err
		}
		for _, id := range c.Subspecialties {
			if !slices.Contains(known, id) {
				v.Add(prefix+".subspecialties", "user.subspecialty_unknown", "id", id)
				break
			}
		}
	}
	for _, id := range c.CenterIDs {
		if !slices.Contains(centers, id) {
			v.Add(prefix+".center_ids", "user.allocator_center_outside", "id", id)
			break
		}
	}
	if c.SiteID != nil && !slices.Contains(hospitals, *c.SiteID) {
		v.Add(prefix+".site_id", "user.site_hospital_outside", "id", *c.SiteID)
	}
	b, err := json.Marshal(c)
	return string(b), apperr.Wrap(err, "encode role config")
}

type configError string

func (e configError) Error() string { return string(e) }

const (
	errNull        = configError("null")
	errNoLibraries = configError("no library lookup")
)

// strictList reads a JSON array of positive ids.
func strictList(raw json.RawMessage, dst *[]int64) error {
	if bytes.Equal(raw, []byte("null")) {
		return errNull
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return err
	}
	if slices.ContainsFunc(*dst, func(id int64) bool { return id <= 0 }) {
		return errNull
	}
	return nil
}

func compactIDs(ids []int64) []int64 {
	if len(ids) == 0 {
		return nil
	}
	return slices.Compact(slices.Sorted(slices.Values(ids)))
}

// LibraryLookup returns the ids among ids of existing pathology libraries.
type LibraryLookup func(ctx context.Context, q db.Querier, ids []int64) ([]int64, error)

// UseLibraries sets how expert subspecialties are checked.
func (s *Service) UseLibraries(l LibraryLookup) { s.libraries = l }

// RoleConfigsOf lists the roles of a user the caller may see with their
// configuration.
func (s *Service) RoleConfigsOf(ctx context.Context, userID int64) (*RoleConfigs, error) {
	u, err := s.get(ctx, s.db, userID)
	if err != nil {
		return nil, err
	}
	return roleConfigsOf(u), nil
}

func roleConfigsOf(u *User) *RoleConfigs {
	out := &RoleConfigs{UserID: u.ID, Roles: []RoleConfigEntry{}}
	for _, r := range u.Roles {
		out.Roles = append(out.Roles, RoleConfigEntry{Role: r, Config: parseConfig(string(u.RoleConfigs[r]))})
	}
	return out
}

// SetRoleConfig replaces one role's configuration of a user the caller may
// change; the role must be one the user holds.
func (s *Service) SetRoleConfig(ctx context.Context, in RoleConfigInput) (*RoleConfigEntry, error) {
	var out *RoleConfigEntry
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.editable(ctx, tx, in.UserID)
		if err != nil {
			return err
		}
		var v apperr.Validation
		if !slices.Contains(before.Roles, in.Role) {
			v.Add("role", "user.role_not_held")
			return v.Err()
		}
		cfg, err := s.checkRoleConfig(ctx, tx, in.Role, in.Config, before.CenterIDs, before.HospitalIDs, "config", &v)
		if err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("user_roles").Set("config", cfg).Where("user_id = ? AND role = ?", in.UserID, in.Role)); err != nil {
			return apperr.Wrap(err, "set role config")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("updated_at", s.clock.Now()).Where("id = ?", in.UserID)); err != nil {
			return apperr.Wrap(err, "touch user")
		}
		out = &RoleConfigEntry{Role: in.Role, Config: parseConfig(cfg)}
		was := RoleConfigEntry{Role: in.Role, Config: parseConfig(string(before.RoleConfigs[in.Role]))}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "user.role_config", ObjectType: "user", ObjectID: in.UserID, Before: was, After: out})
	})
	return out, err
}
