package user

import (
	"context"
	"encoding/json"
	"maps"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"

	"telepath/internal/audit"
	"telepath/internal/auth"
	"telepath/internal/org"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

var (
	usernameRe = regexp.MustCompile(`^[A-Za-z0-9_.@-]{3,32}$`)
	// Mainland mobile numbers, or landlines with an optional area code.
	phoneRe = regexp.MustCompile(`^(1[3-9]\d{9}|(0\d{2,3}-?)?\d{7,8})$`)
)

func (s *Service) validate(ctx context.Context, q db.Querier, sc org.Scope, id int64, in *UserInput) error {
	p := access.FromContext(ctx)
	in.Username, in.Name = strings.TrimSpace(in.Username), strings.TrimSpace(in.Name)
	in.Phone, in.Email = strings.TrimSpace(in.Phone), strings.TrimSpace(in.Email)
	var v apperr.Validation
	switch {
	case in.Username == "":
		v.Add("username", "field.required")
	case !usernameRe.MatchString(in.Username):
		v.Add("username", "user.bad_username")
	default:
		var n int
		if err := db.Get(ctx, q, &n, s.db.Builder().Select("COUNT(*)").From("users").Where("username = ? AND id <> ?", in.Username, id)); err != nil {
			return apperr.Wrap(err, "check username")
		}
		if n > 0 {
			v.Add("username", "user.username_taken")
		}
	}
	if in.Name == "" {
		v.Add("name", "field.required")
	}
	if in.Phone != "" && !phoneRe.MatchString(in.Phone) {
		v.Add("phone", "user.bad_phone")
	}
	if in.Email != "" {
		if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email {
			v.Add("email", "user.bad_email")
		}
	}
	in.Roles = slices.Compact(slices.Sorted(slices.Values(in.Roles)))
	if len(in.Roles) == 0 {
		v.Add("roles", "user.need_role")
	}
	for _, r := range in.Roles {
		if !access.IsRole(r) {
			v.Add("roles", "user.unknown_role")
		} else if !canGrant(p, r) {
			v.Add("roles", "user.cannot_grant")
		}
	}
	for _, r := range slices.Sorted(maps.Keys(in.RoleConfigs)) {
		if !slices.Contains(in.Roles, r) {
			v.Add("role_configs", "user.bad_role_config")
			break
		}
		cfg, err := s.checkRoleConfig(ctx, q, r, in.RoleConfigs[r], in.CenterIDs, in.HospitalIDs, "role_configs."+r, &v)
		if err != nil {
			return err
		}
		in.RoleConfigs[r] = json.RawMessage(cfg)
	}
	if hasAny(in.Roles, access.HospitalRoles) && len(in.HospitalIDs) == 0 {
		v.Add("hospital_ids", "user.need_hospital")
	}
	if hasAny(in.Roles, access.CenterRoles) && len(in.CenterIDs) == 0 {
		v.Add("center_ids", "user.need_center")
	}
	// A center administrator's users must stay within their reach.
	if !sc.All && len(in.CenterIDs) == 0 && len(in.HospitalIDs) == 0 && !v.Has("roles") {
		v.Add("center_ids", "user.need_center")
	}
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.org.CheckCenters(ctx, sc, "center_ids", in.CenterIDs); err != nil {
		return err
	}
	return s.org.CheckHospitals(ctx, sc, "hospital_ids", in.HospitalIDs)
}

func hasAny(have, want []string) bool {
	for _, w := range want {
		if slices.Contains(have, w) {
			return true
		}
	}
	return false
}

// Create adds a user with an initial password.
func (s *Service) Create(ctx context.Context, in UserInput) (*User, error) {
	sc, err := s.org.ScopeOf(ctx, access.FromContext(ctx))
	if err != nil {
		return nil, err
	}
	pw, err := s.auth.Decrypt("password", in.Password)
	if err != nil {
		return nil, err
	}
	if err := auth.CheckPolicy("password", pw, strings.TrimSpace(in.Username)); err != nil {
		return nil, err
	}
	hash, err := auth.HashPassword(pw)
	if err != nil {
		return nil, apperr.Wrap(err, "hash")
	}
	var out *User
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.validate(ctx, tx, sc, 0, &in); err != nil {
			return err
		}
		now := s.clock.Now()
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("users").
			Columns("username", "name", "password_hash", "phone", "email", "work_no", "status", "password_changed_at", "created_at", "updated_at").
			Values(in.Username, in.Name, hash, in.Phone, in.Email, in.WorkNo, statusOr(in.Status, 1), now, now, now))
		if err != nil {
			return apperr.Wrap(err, "insert user")
		}
		if err := s.writeBindings(ctx, tx, id, in); err != nil {
			return err
		}
		if out, err = s.getIn(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "user.create", ObjectType: "user", ObjectID: id, After: out})
	})
	if err != nil {
		return nil, err
	}
	return s.marked(ctx, out)
}

// getIn loads a user inside a write, after the write made it visible.
func (s *Service) getIn(ctx context.Context, tx *db.Tx, id int64) (*User, error) {
	var u User
	if err := db.Get(ctx, tx, &u, tx.Builder().Select(columns).From("users u").Where("u.id = ?", id)); err != nil {
		return nil, apperr.Wrap(err, "reload user")
	}
	rows := []User{u}
	return &rows[0], s.attach(ctx, tx, rows)
}

// writeBindings replaces roles and organisation bindings of a user.
func (s *Service) writeBindings(ctx context.Context, tx *db.Tx, id int64, in UserInput) error {
	for _, table := range []string{"user_roles", "user_centers", "user_hospitals"} {
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete(table).Where("user_id = ?", id)); err != nil {
			return apperr.Wrap(err, "clear %s", table)
		}
	}
	for _, r := range in.Roles {
		cfg := "{}"
		if c, ok := in.RoleConfigs[r]; ok && len(c) > 0 {
			cfg = string(c) // checked and normalised by validate
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("user_roles").Columns("user_id", "role", "config").Values(id, r, cfg)); err != nil {
			return apperr.Wrap(err, "insert role")
		}
	}
	for _, c := range slices.Compact(slices.Sorted(slices.Values(in.CenterIDs))) {
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("user_centers").Columns("user_id", "center_id").Values(id, c)); err != nil {
			return apperr.Wrap(err, "bind center")
		}
	}
	for _, h := range slices.Compact(slices.Sorted(slices.Values(in.HospitalIDs))) {
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("user_hospitals").Columns("user_id", "hospital_id").Values(id, h)); err != nil {
			return apperr.Wrap(err, "bind hospital")
		}
	}
	return nil
}

// editable loads a user the caller may change (see manages).
func (s *Service) editable(ctx context.Context, tx *db.Tx, id int64) (*User, error) {
	u, err := s.get(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	p := access.FromContext(ctx)
	sc, err := s.org.ScopeOf(ctx, p)
	if err != nil {
		return nil, err
	}
	return u, manages(p, sc, u)
}

// manages answers whether p may change u: u holds no role p could not
// grant, and every center and hospital of u lies within p's scope. A user
// shared with another center belongs to that center too, so only an
// administrator changes them (a center administrator who could reset
// their password could sign in as them and read the other center's cases).
func manages(p *access.Principal, sc org.Scope, u *User) error {
	for _, r := range u.Roles {
		if !canGrant(p, r) {
			return apperr.New(apperr.Forbidden, "user.cannot_manage")
		}
	}
	if sc.All {
		return nil
	}
	for _, c := range u.CenterIDs {
		if !slices.Contains(sc.CenterIDs, c) {
			return apperr.New(apperr.Forbidden, "user.shared_outside_scope")
		}
	}
	for _, h := range u.HospitalIDs {
		if !slices.Contains(sc.HospitalIDs, h) {
			return apperr.New(apperr.Forbidden, "user.shared_outside_scope")
		}
	}
	return nil
}

// Update changes a user's details, roles and bindings (not the password).
func (s *Service) Update(ctx context.Context, id int64, in UserInput) (*User, error) {
	p := access.FromContext(ctx)
	sc, err := s.org.ScopeOf(ctx, p)
	if err != nil {
		return nil, err
	}
	var out *User
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.editable(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := s.validate(ctx, tx, sc, id, &in); err != nil {
			return err
		}
		status := statusOr(in.Status, before.Status)
		if id == p.UserID && (status != 1 || !slices.Equal(in.Roles, sortedRoles(before.Roles))) {
			return apperr.New(apperr.Conflict, "user.not_self")
		}
		now := s.clock.Now()
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").SetMap(map[string]any{
			"username": in.Username, "name": in.Name, "phone": in.Phone, "email": in.Email, "work_no": in.WorkNo,
			"status": status, "updated_at": now,
		}).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "update user")
		}
		if err := s.writeBindings(ctx, tx, id, in); err != nil {
			return err
		}
		if status != 1 {
			if err := auth.RevokeSessions(ctx, tx, id, 0, now); err != nil {
				return err
			}
		}
		if out, err = s.getIn(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "user.update", ObjectType: "user", ObjectID: id, Before: before, After: out})
	})
	if err != nil {
		return nil, err
	}
	return s.marked(ctx, out)
}

func sortedRoles(r []string) []string { return slices.Sorted(slices.Values(r)) }

// action runs a change on one editable user in a transaction with its audit record.
func (s *Service) action(ctx context.Context, id int64, name string, allowSelf bool, fn func(tx *db.Tx, u *User, now time.Time) error) error {
	p := access.FromContext(ctx)
	if id == p.UserID && !allowSelf {
		return apperr.New(apperr.Conflict, "user.not_self")
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.editable(ctx, tx, id)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		if err := fn(tx, before, now); err != nil {
			return err
		}
		after, err := s.getIn(ctx, tx, id)
		if err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "user." + name, ObjectType: "user", ObjectID: id, Before: before, After: after})
	})
}

// SetStatus enables (1) or disables (0) a user; disabling ends their sessions.
func (s *Service) SetStatus(ctx context.Context, id int64, status int) error {
	if status != 0 && status != 1 {
		return apperr.New(apperr.Invalid, "error.validation").Field("status", "field.invalid")
	}
	name := map[int]string{0: "disable", 1: "enable"}[status]
	return s.action(ctx, id, name, false, func(tx *db.Tx, _ *User, now time.Time) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("status", status).Set("updated_at", now).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "set status")
		}
		if status == 0 {
			return auth.RevokeSessions(ctx, tx, id, 0, now)
		}
		return nil
	})
}

// ResetPassword sets a new password chosen by an administrator, ends the
// user's sessions and clears their sign-in throttle; the user must choose a
// password of their own at the next sign-in.
func (s *Service) ResetPassword(ctx context.Context, id int64, encrypted string) error {
	pw, err := s.auth.Decrypt("password", encrypted)
	if err != nil {
		return err
	}
	var username string // unknown ids are refused by action below
	_ = db.Get(ctx, s.db, &username, s.db.Builder().Select("username").From("users").Where("id = ?", id))
	if err := auth.CheckPolicy("password", pw, username); err != nil {
		return err
	}
	hash, err := auth.HashPassword(pw)
	if err != nil {
		return apperr.Wrap(err, "hash")
	}
	return s.action(ctx, id, "reset_password", false, func(tx *db.Tx, u *User, now time.Time) error {
		if err := auth.SetPassword(ctx, tx, id, hash, true, now); err != nil {
			return err
		}
		if err := auth.ClearThrottle(ctx, tx, id, u.Username); err != nil {
			return err
		}
		return auth.RevokeSessions(ctx, tx, id, 0, now)
	})
}

// Unlock clears the sign-in throttle of a user: the waits imposed on the
// addresses that sent wrong passwords, and the captcha demanded after them.
func (s *Service) Unlock(ctx context.Context, id int64) error {
	return s.action(ctx, id, "unlock", true, func(tx *db.Tx, u *User, now time.Time) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("updated_at", now).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "unlock")
		}
		return auth.ClearThrottle(ctx, tx, id, u.Username)
	})
}

// Delete removes a user; the user name stays reserved.
func (s *Service) Delete(ctx context.Context, id int64) error {
	return s.action(ctx, id, "delete", false, func(tx *db.Tx, _ *User, now time.Time) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("deleted_at", now).Set("status", 0).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete user")
		}
		return auth.RevokeSessions(ctx, tx, id, 0, now)
	})
}

// Info returns the caller's account, roles with configuration and bindings.
func (s *Service) Info(ctx context.Context, idle time.Duration) (*Info, error) {
	p := access.FromContext(ctx)
	var u User
	if err := db.Get(ctx, s.db, &u, s.db.Builder().Select(columns).From("users u").Where("u.id = ?", p.UserID)); err != nil {
		return nil, apperr.Wrap(err, "load user")
	}
	rows := []User{u}
	if err := s.attach(ctx, s.db, rows); err != nil {
		return nil, err
	}
	u = rows[0]
	out := &Info{Roles: []RoleBinding{}, Centers: u.Centers, Hospitals: u.Hospitals}
	out.User.ID, out.User.Username, out.User.Name = u.ID, u.Username, u.Name
	out.User.Phone, out.User.Email, out.User.WorkNo = u.Phone, u.Email, u.WorkNo
	if err := db.Get(ctx, s.db, &out.User.MustChangePassword, s.db.Builder().Select("must_change_password").From("users").Where("id = ?", p.UserID)); err != nil {
		return nil, apperr.Wrap(err, "load password state")
	}
	for _, r := range u.Roles {
		cfg := u.RoleConfigs[r]
		if cfg == nil {
			cfg = json.RawMessage("{}")
		}
		out.Roles = append(out.Roles, RoleBinding{Role: r, Config: cfg})
	}
	out.Settings.IdleTimeoutMinutes = int(idle.Minutes())
	return out, nil
}

func statusOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
