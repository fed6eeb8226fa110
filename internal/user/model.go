// Package user manages user accounts, their roles with per-role
// configuration, and their bindings to centers and hospitals.
package user

import (
	"encoding/json"
	"time"

	"telepath/internal/org"
)

// User is an account as administrators see it.
type User struct {
	ID          int64                      `json:"id" db:"id"`
	Username    string                     `json:"username" db:"username"`
	Name        string                     `json:"name" db:"name"`
	Phone       string                     `json:"phone" db:"phone"`
	Email       string                     `json:"email" db:"email"`
	WorkNo      string                     `json:"work_no" db:"work_no"`
	Status      int                        `json:"status" db:"status" enum:"0,1" doc:"1 enabled, 0 disabled"`
	IsLocked    bool                       `json:"is_locked" db:"-"`
	LockedUntil *time.Time                 `json:"locked_until" db:"locked_until"`
	Roles       []string                   `json:"roles" db:"-"`
	RoleConfigs map[string]json.RawMessage `json:"role_configs" db:"-"`
	CenterIDs   []int64                    `json:"center_ids" db:"-"`
	HospitalIDs []int64                    `json:"hospital_ids" db:"-"`
	Centers     []org.Ref                  `json:"centers" db:"-"`
	Hospitals   []org.Ref                  `json:"hospitals" db:"-"`
	LastLoginAt *time.Time                 `json:"last_login_at" db:"last_login_at"`
	CreatedAt   time.Time                  `json:"created_at" db:"created_at"`
	UpdatedAt   time.Time                  `json:"updated_at" db:"updated_at"`
	Manageable  bool                       `json:"manageable" db:"-" doc:"The caller may change this user (edit, reset the password, unlock, enable or disable, delete); false shows them read-only"`
}

// UserInput is the editable part of a user. Password is only read on create.
type UserInput struct {
	Username    string                     `json:"username,omitempty" maxLength:"32"`
	Name        string                     `json:"name,omitempty" maxLength:"50"`
	Password    string                     `json:"password,omitempty" maxLength:"1024" doc:"Encrypted like the login password; create only"`
	Phone       string                     `json:"phone,omitempty" maxLength:"20"`
	Email       string                     `json:"email,omitempty" maxLength:"100"`
	WorkNo      string                     `json:"work_no,omitempty" maxLength:"32"`
	Status      *int                       `json:"status,omitempty" enum:"0,1"`
	Roles       []string                   `json:"roles,omitempty" maxItems:"12"`
	RoleConfigs map[string]json.RawMessage `json:"role_configs,omitempty"`
	CenterIDs   []int64                    `json:"center_ids,omitempty" maxItems:"100"`
	HospitalIDs []int64                    `json:"hospital_ids,omitempty" maxItems:"100"`
}

// RoleInfo describes a role for selects.
type RoleInfo struct {
	Role   string `json:"role"`
	Name   string `json:"name"`
	EnName string `json:"en_name"`
}

// RoleBinding is one of the caller's roles with its configuration.
type RoleBinding struct {
	Role   string          `json:"role"`
	Config json.RawMessage `json:"config"`
}

// Info is what the web app loads after sign-in (GET /api/auth/info).
type Info struct {
	User struct {
		ID       int64  `json:"id"`
		Username string `json:"username"`
		Name     string `json:"name"`
		Phone    string `json:"phone"`
		Email    string `json:"email"`
		WorkNo   string `json:"work_no"`
		// MustChangePassword: an administrator set the password; until the user
		// chooses one (POST /api/user/password) every other call is refused.
		MustChangePassword bool `json:"must_change_password"`
	} `json:"user"`
	Roles     []RoleBinding `json:"roles"`
	Centers   []org.Ref     `json:"centers"`
	Hospitals []org.Ref     `json:"hospitals"`
	Settings  struct {
		IdleTimeoutMinutes int `json:"idle_timeout_minutes"`
	} `json:"settings"`
}
