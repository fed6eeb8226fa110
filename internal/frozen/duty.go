package frozen

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

const dayLayout = "2006-01-02"

// centerOf refuses a center the caller does not manage (as not found:
// another center's groups do not exist for it).
func centerOf(ctx context.Context, centerID int64) error {
	p := access.FromContext(ctx)
	if p == nil {
		return apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	if p.IsAdmin() || slices.Contains(p.CenterIDs, centerID) {
		return nil
	}
	return apperr.New(apperr.NotFound, "error.not_found")
}

// parseClock reads "HH:MM" as minutes after midnight.
func parseClock(s string) (int, bool) {
	t, err := time.Parse("15:04", strings.TrimSpace(s))
	if err != nil {
		return 0, false
	}
	return t.Hour()*60 + t.Minute(), true
}

// checkSessions enforces spec 2 §5 and §9 on one shift: one to three
// sessions, each ending after it starts, in chronological order without
// overlap. It returns the message key of the first rule broken.
func checkSessions(ss []ShiftSession) string {
	if len(ss) < 1 || len(ss) > MaxSessions {
		return "frozen.sessions_count"
	}
	prev := -1
	for _, s := range ss {
		a, ok1 := parseClock(s.Start)
		b, ok2 := parseClock(s.End)
		if !ok1 || !ok2 {
			return "frozen.session_time"
		}
		if a >= b || a < prev {
			return "frozen.sessions_order"
		}
		prev = b
	}
	return ""
}

func joinSessions(ss []ShiftSession) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strings.TrimSpace(s.Start) + "-" + strings.TrimSpace(s.End)
	}
	return strings.Join(parts, ",")
}

func splitSessions(raw string) []ShiftSession {
	out := []ShiftSession{}
	for _, p := range strings.Split(raw, ",") {
		if a, b, ok := strings.Cut(p, "-"); ok {
			out = append(out, ShiftSession{Start: a, End: b})
		}
	}
	return out
}

// validateGroup checks a group's input; field errors go to v.
func (s *Service) validateGroup(ctx context.Context, in *GroupInput, v *apperr.Validation) error {
	in.Name, in.PeriodName, in.Office = strings.TrimSpace(in.Name), strings.TrimSpace(in.PeriodName), strings.TrimSpace(in.Office)
	if in.Name == "" {
		v.Add("name", "field.required")
	}
	if in.PeriodName == "" {
		v.Add("period_name", "field.required")
	}
	if len(in.MemberIDs) == 0 {
		v.Add("member_ids", "field.required")
	} else if in.CenterID > 0 {
		experts, err := s.deps.Experts(ctx, in.CenterID)
		if err != nil {
			return err
		}
		for _, id := range in.MemberIDs {
			if !slices.ContainsFunc(experts, func(p DutyExpert) bool { return p.ID == id }) {
				v.Add("member_ids", "frozen.member_not_in_center", "id", id)
				break
			}
		}
	}
	if len(in.Shifts) == 0 {
		v.Add("shifts", "field.required")
	}
	for i, sh := range in.Shifts {
		field := fmt.Sprintf("shifts[%d]", i)
		if strings.TrimSpace(sh.Name) == "" {
			v.Add(field+".name", "field.required")
		}
		if key := checkSessions(sh.Sessions); key != "" {
			v.Add(field+".sessions", key, "max", MaxSessions)
		}
	}
	return nil
}

// CreateGroup adds an attendance group with its members and shifts.
func (s *Service) CreateGroup(ctx context.Context, in GroupInput) (*AttendanceGroup, error) {
	var v apperr.Validation
	if in.CenterID <= 0 {
		v.Add("center_id", "field.required")
	} else if err := centerOf(ctx, in.CenterID); err != nil {
		v.Add("center_id", "frozen.center_not_yours")
		in.CenterID = 0
	}
	if err := s.validateGroup(ctx, &in, &v); err != nil {
		return nil, err
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var out *AttendanceGroup
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("attendance_groups").SetMap(map[string]any{
			"center_id": in.CenterID, "name": in.Name, "period_name": in.PeriodName, "office": in.Office,
			"version": 1, "created_at": now, "updated_at": now}))
		if err != nil {
			return apperr.Wrap(err, "insert attendance group")
		}
		if err := s.writeMembersAndShifts(ctx, tx, id, in, true); err != nil {
			return err
		}
		if out, err = s.group(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "attendance_group.create", ObjectType: "attendance_group", ObjectID: id, After: out})
	})
	return out, err
}

// UpdateGroup replaces a group's name, members and shifts. The version must
// be the one the caller read: two allocators cannot overwrite each other.
func (s *Service) UpdateGroup(ctx context.Context, id int64, in GroupInput) (*AttendanceGroup, error) {
	var out *AttendanceGroup
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.group(ctx, tx, id)
		if err != nil {
			return err
		}
		in.CenterID = before.CenterID
		var v apperr.Validation
		if err := s.validateGroup(ctx, &in, &v); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		if err := s.bump(ctx, tx, id, in.Version, map[string]any{"name": in.Name, "period_name": in.PeriodName, "office": in.Office}); err != nil {
			return err
		}
		if err := s.writeMembersAndShifts(ctx, tx, id, in, false); err != nil {
			return err
		}
		if out, err = s.group(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "attendance_group.update", ObjectType: "attendance_group", ObjectID: id, Before: before, After: out})
	})
	return out, err
}

// bump moves a group to its next version if it is still at version.
func (s *Service) bump(ctx context.Context, tx *db.Tx, id, version int64, set map[string]any) error {
	if set == nil {
		set = map[string]any{}
	}
	set["version"] = sq.Expr("version + 1")
	set["updated_at"] = s.clock.Now()
	res, err := db.Exec(ctx, tx, tx.Builder().Update("attendance_groups").SetMap(set).
		Where("id = ? AND version = ? AND deleted_at IS NULL", id, version))
	if err != nil {
		return apperr.Wrap(err, "update attendance group")
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.New(apperr.Conflict, "frozen.version_conflict")
	}
	return nil
}

func (s *Service) writeMembersAndShifts(ctx context.Context, tx *db.Tx, id int64, in GroupInput, fresh bool) error {
	if !fresh {
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("attendance_members").Where("group_id = ?", id)); err != nil {
			return apperr.Wrap(err, "clear members")
		}
		// Shifts already scheduled stay in the duty they made; they are only
		// no longer offered.
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("attendance_shifts").Set("deleted_at", s.clock.Now()).
			Where("group_id = ? AND deleted_at IS NULL", id)); err != nil {
			return apperr.Wrap(err, "retire shifts")
		}
	}
	seen := map[int64]bool{}
	for _, uid := range in.MemberIDs {
		if seen[uid] {
			continue
		}
		seen[uid] = true
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("attendance_members").Columns("group_id", "user_id").Values(id, uid)); err != nil {
			return apperr.Wrap(err, "insert member")
		}
	}
	for _, sh := range in.Shifts {
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("attendance_shifts").Columns("group_id", "name", "sessions").
			Values(id, strings.TrimSpace(sh.Name), joinSessions(sh.Sessions))); err != nil {
			return apperr.Wrap(err, "insert shift")
		}
	}
	return nil
}

// Group returns an attendance group of the caller's centers.
func (s *Service) Group(ctx context.Context, id int64) (*AttendanceGroup, error) {
	return s.group(ctx, s.db, id)
}

func (s *Service) group(ctx context.Context, q db.Querier, id int64) (*AttendanceGroup, error) {
	var g AttendanceGroup
	err := db.Get(ctx, q, &g, s.db.Builder().Select("id, center_id, name, period_name, office, version, created_at, updated_at").
		From("attendance_groups").Where("id = ? AND deleted_at IS NULL", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load attendance group")
	}
	if err := centerOf(ctx, g.CenterID); err != nil {
		return nil, err
	}
	gs := []AttendanceGroup{g}
	if err := s.fill(ctx, q, gs); err != nil {
		return nil, err
	}
	return &gs[0], nil
}

func (s *Service) fill(ctx context.Context, q db.Querier, gs []AttendanceGroup) error {
	if len(gs) == 0 {
		return nil
	}
	ids := make([]int64, len(gs))
	for i, g := range gs {
		ids[i] = g.ID
	}
	var members []struct {
		GroupID int64 `db:"group_id"`
		DutyExpert
	}
	if err := db.Select(ctx, q, &members, s.db.Builder().Select("m.group_id, u.id, u.name").From("attendance_members m").
		Join("users u ON u.id = m.user_id").Where(sq.Eq{"m.group_id": ids}).OrderBy("u.name", "u.id")); err != nil {
		return apperr.Wrap(err, "load members")
	}
	var shifts []Shift
	if err := db.Select(ctx, q, &shifts, s.db.Builder().Select("id, group_id, name, sessions").From("attendance_shifts").
		Where(sq.Eq{"group_id": ids}).Where("deleted_at IS NULL").OrderBy("id")); err != nil {
		return apperr.Wrap(err, "load shifts")
	}
	for i := range gs {
		gs[i].Members, gs[i].Shifts = []DutyExpert{}, []Shift{}
		for _, m := range members {
			if m.GroupID == gs[i].ID {
				gs[i].Members = append(gs[i].Members, m.DutyExpert)
			}
		}
		for _, sh := range shifts {
			if sh.GroupID == gs[i].ID {
				sh.Sessions = splitSessions(sh.Raw)
				gs[i].Shifts = append(gs[i].Shifts, sh)
			}
		}
	}
	return nil
}

// Groups lists the attendance groups of the caller's centers.
func (s *Service) Groups(ctx context.Context) ([]AttendanceGroup, error) {
	p := access.FromContext(ctx)
	b := s.db.Builder().Select("id, center_id, name, period_name, office, version, created_at, updated_at").
		From("attendance_groups").Where("deleted_at IS NULL").OrderBy("id")
	if !p.IsAdmin() {
		b = b.Where(sq.Eq{"center_id": p.CenterIDs})
	}
	gs := []AttendanceGroup{}
	if err := db.Select(ctx, s.db, &gs, b); err != nil {
		return nil, apperr.Wrap(err, "list attendance groups")
	}
	return gs, s.fill(ctx, s.db, gs)
}

// DeleteGroup retires a group; its future duty goes with it, past duty stays.
func (s *Service) DeleteGroup(ctx context.Context, id int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		g, err := s.group(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := s.bump(ctx, tx, id, g.Version, map[string]any{"deleted_at": s.clock.Now()}); err != nil {
			return err
		}
		today := s.clock.Local(s.clock.Now()).Format(dayLayout)
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("duty_sessions").Where("group_id = ? AND day >= ?", id, today)); err != nil {
			return apperr.Wrap(err, "drop future duty")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "attendance_group.delete", ObjectType: "attendance_group", ObjectID: id, Before: g})
	})
}

// Schedule replaces a group's duty over one scheduling cycle (spec 2 §5, §9):
// at most 31 days, starting today or later (past duty cannot be changed),
// each assignment a member on a shift of the group on a day of the cycle,
// no expert on two overlapping sessions. Sessions are stored as UTC
// instants computed in the operator's time zone.
func (s *Service) Schedule(ctx context.Context, in ScheduleInput) (*AttendanceGroup, error) {
	var out *AttendanceGroup
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		g, err := s.group(ctx, tx, in.GroupID)
		if err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Code == apperr.NotFound {
				return apperr.New(apperr.Invalid, "error.validation").Field("group_id", "error.not_found")
			}
			return err
		}
		zone := s.clock.Zone()
		var v apperr.Validation
		start, perr := time.ParseInLocation(dayLayout, in.Start, zone)
		today := s.clock.Local(s.clock.Now()).Format(dayLayout)
		switch {
		case perr != nil:
			v.Add("start", "field.invalid")
		case in.Start < today:
			v.Add("start", "frozen.past_duty")
		}
		if in.Days < 1 || in.Days > MaxCycleDays {
			v.Add("days", "frozen.cycle_too_long", "max", MaxCycleDays)
		}
		if err := v.Err(); err != nil {
			return err
		}
		end := start.AddDate(0, 0, in.Days).Format(dayLayout)
		shifts := map[int64]Shift{}
		for _, sh := range g.Shifts {
			shifts[sh.ID] = sh
		}
		type span struct{ a, b time.Time }
		taken := map[string][]span{}
		var rows [][]any
		for i, a := range in.Assignments {
			field := fmt.Sprintf("assignments[%d]", i)
			d, err := time.ParseInLocation(dayLayout, a.Day, zone)
			if err != nil || a.Day < in.Start || a.Day >= end {
				v.Add(field+".day", "frozen.day_outside_cycle")
				continue
			}
			if !slices.ContainsFunc(g.Members, func(p DutyExpert) bool { return p.ID == a.UserID }) {
				v.Add(field+".user_id", "frozen.member_not_in_group")
				continue
			}
			sh, ok := shifts[a.ShiftID]
			if !ok {
				v.Add(field+".shift_id", "error.not_found")
				continue
			}
			for _, ses := range sh.Sessions {
				m1, _ := parseClock(ses.Start)
				m2, _ := parseClock(ses.End)
				from := time.Date(d.Year(), d.Month(), d.Day(), m1/60, m1%60, 0, 0, zone).UTC()
				to := time.Date(d.Year(), d.Month(), d.Day(), m2/60, m2%60, 0, 0, zone).UTC()
				key := fmt.Sprint(a.UserID)
				for _, t := range taken[key] {
					if from.Before(t.b) && t.a.Before(to) {
						v.Add(field, "frozen.duty_overlap")
					}
				}
				taken[key] = append(taken[key], span{from, to})
				rows = append(rows, []any{g.CenterID, g.ID, sh.ID, a.UserID, a.Day, from, to})
			}
		}
		if err := v.Err(); err != nil {
			return err
		}
		if err := s.bump(ctx, tx, g.ID, in.Version, nil); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("duty_sessions").
			Where("group_id = ? AND day >= ? AND day < ?", g.ID, in.Start, end)); err != nil {
			return apperr.Wrap(err, "clear duty")
		}
		for _, r := range rows {
			if _, err := db.Exec(ctx, tx, tx.Builder().Insert("duty_sessions").
				Columns("center_id", "group_id", "shift_id", "user_id", "day", "starts_at", "ends_at").Values(r...)); err != nil {
				return apperr.Wrap(err, "insert duty")
			}
		}
		if out, err = s.group(ctx, tx, g.ID); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "duty.schedule", ObjectType: "attendance_group", ObjectID: g.ID,
			After: map[string]any{"start": in.Start, "days": in.Days, "sessions": len(rows)}})
	})
	return out, err
}

// DutyQuery asks for the duty between two days (inclusive) of the caller's centers.
type DutyQuery struct {
	From     string `query:"from" example:"2026-12-01"`
	To       string `query:"to" example:"2026-12-31"`
	CenterID int64  `query:"center_id"`
}

// Duty lists who is on duty between two days, for the month calendar.
func (s *Service) Duty(ctx context.Context, in *DutyQuery) ([]DutyEntry, error) {
	if _, err := time.Parse(dayLayout, in.From); err != nil {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("from", "field.invalid")
	}
	if _, err := time.Parse(dayLayout, in.To); err != nil {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("to", "field.invalid")
	}
	p := access.FromContext(ctx)
	b := s.db.Builder().Select("d.id, d.group_id, d.shift_id, sh.name AS shift_name, d.user_id, u.name AS user_name, g.office, d.day, d.starts_at, d.ends_at").
		From("duty_sessions d").Join("attendance_shifts sh ON sh.id = d.shift_id").Join("users u ON u.id = d.user_id").
		Join("attendance_groups g ON g.id = d.group_id").
		Where("d.day >= ? AND d.day <= ?", in.From, in.To).OrderBy("d.starts_at", "u.name", "d.id")
	if !p.IsAdmin() {
		b = b.Where(sq.Eq{"d.center_id": p.CenterIDs})
	}
	if in.CenterID > 0 {
		b = b.Where("d.center_id = ?", in.CenterID)
	}
	out := []DutyEntry{}
	return out, apperr.Wrap(db.Select(ctx, s.db, &out, b), "list duty")
}

// OnDuty lists the experts of a center on duty at instant t, in the order
// they should next receive a frozen case (round robin: the one whose last
// frozen case was assigned longest ago first). q is the caller's transaction.
func (s *Service) OnDuty(ctx context.Context, q db.Querier, centerID int64, t time.Time) ([]DutyExpert, error) {
	b := s.db.Builder().Select("u.id, u.name").From("duty_sessions d").Join("users u ON u.id = d.user_id").
		LeftJoin("(SELECT expert_id, MAX(assigned_at) AS last_at FROM frozen_appointments WHERE center_id = ? GROUP BY expert_id) r ON r.expert_id = u.id", centerID).
		// A session lies within one day, so it started less than a day before t:
		// the lower bound keeps the index range to a day, however long the schedule.
		Where("d.center_id = ? AND d.starts_at > ? AND d.starts_at <= ? AND d.ends_at > ?", centerID, t.Add(-24*time.Hour), t, t).
		Where("u.status = 1 AND u.deleted_at IS NULL").
		GroupBy("u.id", "u.name", "r.last_at").
		OrderBy("CASE WHEN r.last_at IS NULL THEN 0 ELSE 1 END", "r.last_at", "u.id")
	out := []DutyExpert{}
	return out, apperr.Wrap(db.Select(ctx, q, &out, b), "experts on duty")
}
