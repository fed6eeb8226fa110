// Package frozen holds frozen sections (spec 2 §3, §4, §5, §9): attendance
// groups and their shifts, the duty schedule (who is on duty when, per
// center), and frozen-section appointments from booking to the frozen
// diagnosis with their turnaround timestamps. It owns the tables
// attendance_groups, attendance_members, attendance_shifts, duty_sessions and
// frozen_appointments; other domains ask it through OnDuty.
package frozen

import (
	"context"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Deps are the questions the frozen domain asks other domains.
type Deps struct {
	// Experts lists the enabled experts of a center.
	Experts func(ctx context.Context, centerID int64) ([]DutyExpert, error)
	// HospitalCenters lists the centers a hospital sends its cases to.
	HospitalCenters func(ctx context.Context, hospitalID int64) ([]int64, error)
	// HospitalName names a hospital (the registration's inspection hospital).
	HospitalName func(ctx context.Context, hospitalID int64) (string, error)
	// FrozenLibrary is the library frozen cases are registered in, and the
	// next pathology number it suggests.
	FrozenLibrary func(ctx context.Context) (id int64, next string, err error)
	// Cases registers, submits and assigns frozen cases in the caller's transaction.
	Cases Cases
	// Allocators lists the allocators of a center (who confirm and assign).
	Allocators func(ctx context.Context, centerID int64) ([]int64, error)
	// Notify raises notifications and live hints (nil: none).
	Notify Notifier
	// ParaffinAfterFrozen says whether a center's reported frozen cases offer
	// their paraffin case (the after_frozen_paraffin_block diagnosis setting;
	// nil: always).
	ParaffinAfterFrozen func(ctx context.Context, centerID int64) bool
	// RecallNeedsCheck says whether a site's recall waits for the center's
	// agreement (the rollback_need_check system setting; nil: it does).
	RecallNeedsCheck func(ctx context.Context) bool
}

// Cases is what the frozen domain asks of the consultation domain.
type Cases interface {
	RegisterFrozen(ctx context.Context, tx *db.Tx, hospitalID int64, in consultation.CaseInput, expertID *int64) (int64, error)
	AssignIn(ctx context.Context, tx *db.Tx, id, expertID int64) error
	RegisterDraft(ctx context.Context, tx *db.Tx, hospitalID int64, in consultation.CaseInput, detail string) (int64, error)
	Registration(ctx context.Context, q db.Runner, id int64) (consultation.CaseInput, error)
}

// Service manages attendance, the duty schedule and appointments.
type Service struct {
	db    *db.DB
	deps  Deps
	clock clock.Clock
}

// New returns the frozen service.
func New(d *db.DB, deps Deps) *Service { return &Service{db: d, deps: deps} }

// UseClock sets the clock the service reads the time and the zone from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// DutyExpert is a user by id and name.
type DutyExpert struct {
	ID   int64  `json:"id" db:"id"`
	Name string `json:"name" db:"name"`
	// From the expert's role configuration (Deps.Experts): whether they
	// take new cases, and the libraries they are bound to.
	TakesCases     bool    `json:"-" db:"-"`
	Subspecialties []int64 `json:"-" db:"-"`
}

// Limits of spec 2 §9.
const (
	MaxCycleDays = 31
	MaxSessions  = 3
)

// ShiftSession is one commute of a shift: from Start to End, "HH:MM" in the center's zone.
type ShiftSession struct {
	Start string `json:"start" example:"08:00"`
	End   string `json:"end" example:"12:00"`
}

// Shift is a named pattern of one to three sessions a day.
type Shift struct {
	ID       int64          `json:"id" db:"id"`
	GroupID  int64          `json:"group_id" db:"group_id"`
	Name     string         `json:"name" db:"name"`
	Raw      string         `json:"-" db:"sessions"`
	Sessions []ShiftSession `json:"sessions" db:"-"`
}

// AttendanceGroup is an attendance group: the experts who share a duty schedule.
type AttendanceGroup struct {
	ID         int64        `json:"id" db:"id"`
	CenterID   int64        `json:"center_id" db:"center_id"`
	Name       string       `json:"name" db:"name"`
	PeriodName string       `json:"period_name" db:"period_name"`
	Office     string       `json:"office" db:"office" doc:"Duty office: where the expert on duty sits"`
	Version    int64        `json:"version" db:"version" doc:"Changes with every write; send it back to change the group or its schedule"`
	CreatedAt  time.Time    `json:"created_at" db:"created_at"`
	UpdatedAt  time.Time    `json:"updated_at" db:"updated_at"`
	Members    []DutyExpert `json:"members" db:"-"`
	Shifts     []Shift      `json:"shifts" db:"-"`
}

// ShiftInput is a shift of a group being written.
type ShiftInput struct {
	Name     string         `json:"name,omitempty" maxLength:"100"`
	Sessions []ShiftSession `json:"sessions,omitempty" maxItems:"10"`
}

// GroupInput creates or changes an attendance group.
type GroupInput struct {
	CenterID   int64        `json:"center_id,omitempty"`
	Name       string       `json:"name,omitempty" maxLength:"100"`
	PeriodName string       `json:"period_name,omitempty" maxLength:"100"`
	Office     string       `json:"office,omitempty" maxLength:"200"`
	MemberIDs  []int64      `json:"member_ids,omitempty" maxItems:"200"`
	Shifts     []ShiftInput `json:"shifts,omitempty" maxItems:"20"`
	Version    int64        `json:"version,omitempty" doc:"Required to change a group"`
}

// DutyEntry is one session of one expert on duty.
type DutyEntry struct {
	ID        int64     `json:"id" db:"id"`
	GroupID   int64     `json:"group_id" db:"group_id"`
	ShiftID   int64     `json:"shift_id" db:"shift_id"`
	ShiftName string    `json:"shift_name" db:"shift_name"`
	UserID    int64     `json:"user_id" db:"user_id"`
	UserName  string    `json:"user_name" db:"user_name"`
	Office    string    `json:"office" db:"office"`
	Day       string    `json:"day" db:"day" doc:"Date in the center's time zone"`
	StartsAt  time.Time `json:"starts_at" db:"starts_at"`
	EndsAt    time.Time `json:"ends_at" db:"ends_at"`
}

// Assignment puts an expert on a shift on a day of the cycle.
type Assignment struct {
	Day     string `json:"day,omitempty" example:"2026-12-01"`
	UserID  int64  `json:"user_id,omitempty"`
	ShiftID int64  `json:"shift_id,omitempty"`
}

// ScheduleInput replaces a group's duty over a scheduling cycle.
type ScheduleInput struct {
	GroupID     int64        `json:"group_id,omitempty"`
	Version     int64        `json:"version,omitempty"`
	Start       string       `json:"start,omitempty" example:"2026-12-01" doc:"First day of the cycle, in the center's time zone"`
	Days        int          `json:"days,omitempty" doc:"Length of the cycle, at most 31 days"`
	Assignments []Assignment `json:"assignments,omitempty" maxItems:"2000"`
}
