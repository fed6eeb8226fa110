package user

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/auth"
	"telepath/internal/org"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// Service manages user accounts.
type Service struct {
	clock clock.Clock
	db    *db.DB
	org   *org.Service
	auth  *auth.Service
	// libraries checks expert subspecialties (UseLibraries).
	libraries LibraryLookup
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// New returns the user service.
func New(d *db.DB, o *org.Service, a *auth.Service) *Service {
	return &Service{db: d, org: o, auth: a}
}

var list = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":            {Expr: "u.id", Type: listquery.Int, Sort: true, Filter: true},
		"username":      {Expr: "u.username", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"name":          {Expr: "u.name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"phone":         {Expr: "u.phone", Type: listquery.String, Filter: true, Search: true},
		"email":         {Expr: "u.email", Type: listquery.String, Filter: true},
		"work_no":       {Expr: "u.work_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"status":        {Expr: "u.status", Type: listquery.Int, Sort: true, Filter: true, Enum: []any{0, 1}},
		"created_at":    {Expr: "u.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"updated_at":    {Expr: "u.updated_at", Type: listquery.Time, Sort: true, Filter: true},
		"last_login_at": {Expr: "u.last_login_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"role": {Type: listquery.String, Filter: true, Where: func(d db.Dialect, op listquery.Operator, v []any) (sq.Sqlizer, error) {
			return listquery.InSet(d, "u.id", "SELECT r.user_id FROM user_roles r", "r.role", op, v)
		}},
		"center_id": {Type: listquery.Int, Filter: true, Where: func(d db.Dialect, op listquery.Operator, v []any) (sq.Sqlizer, error) {
			return listquery.InSet(d, "u.id", "SELECT uc.user_id FROM user_centers uc", "uc.center_id", op, v)
		}},
		"hospital_id": {Type: listquery.Int, Filter: true, Where: func(d db.Dialect, op listquery.Operator, v []any) (sq.Sqlizer, error) {
			return listquery.InSet(d, "u.id", "SELECT uh.user_id FROM user_hospitals uh", "uh.hospital_id", op, v)
		}},
	},
	DefaultSort: []string{"u.id DESC"},
	TieBreak:    "u.id DESC",
	ExtraParams: []string{"tab"},
	SearchIndex: searchIndex,
	// The tab counts and the list's total (migration 0076).
	Tally: &listquery.Tally{From: "users u", Table: "user_tallies u", Count: "u.n", Columns: []string{"u.status", "u.deleted_at"}},
}

const columns = "u.id, u.username, u.name, u.phone, u.email, u.work_no, u.status, u.locked_until, u.last_login_at, u.created_at, u.updated_at"

// tabs are the list's tabs; each is also a filter the list takes as params.tab.
func tabs(now time.Time) map[string]sq.Sqlizer {
	return map[string]sq.Sqlizer{
		"all":      sq.Expr("1=1"),
		"enabled":  sq.Eq{"u.status": 1},
		"disabled": sq.Eq{"u.status": 0},
		"locked":   sq.Gt{"u.locked_until": now},
	}
}

// scoped limits b to the users the caller may manage: everyone for admin;
// for a center administrator, users bound to their centers or hospitals.
func (s *Service) scoped(ctx context.Context, b sq.SelectBuilder) (sq.SelectBuilder, error) {
	b = b.Where("u.deleted_at IS NULL")
	sc, err := s.org.ScopeOf(ctx, access.FromContext(ctx))
	if err != nil || sc.All {
		return b, err
	}
	return b.Where(sq.Or{
		sq.Expr("EXISTS (SELECT 1 FROM user_centers uc WHERE uc.user_id = u.id AND ?)", inIDs("uc.center_id", sc.CenterIDs)),
		sq.Expr("EXISTS (SELECT 1 FROM user_hospitals uh WHERE uh.user_id = u.id AND ?)", inIDs("uh.hospital_id", sc.HospitalIDs)),
	}), nil
}

func inIDs(col string, ids []int64) sq.Sqlizer {
	if len(ids) == 0 {
		return sq.Expr("1=0")
	}
	return sq.Eq{col: ids}
}

func (s *Service) parse(ctx context.Context, req listquery.Request, b sq.SelectBuilder) (*listquery.Query, sq.SelectBuilder, error) {
	q, err := list.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, b, err
	}
	if tab := q.ExtraString("tab"); tab != "" {
		cond, ok := tabs(s.clock.Now())[tab]
		if !ok {
			return nil, b, apperr.New(apperr.Invalid, "list.bad_value").With("column", "tab")
		}
		b = b.Where(cond)
	}
	b, err = s.scoped(ctx, b)
	return q, b, err
}

// List returns a page of the users the caller may manage.
func (s *Service) List(ctx context.Context, req listquery.Request) ([]User, listquery.Pagination, error) {
	q, base, err := s.parse(ctx, req, s.db.Builder().Select(columns).From("users u"))
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	_, count, _ := s.parse(ctx, req, s.db.Builder().Select("COUNT(*)").From("users u"))
	rows, page, err := readPage(ctx, s.db, q, base, count)
	if err != nil {
		return nil, page, err
	}
	if err := s.attach(ctx, s.db, rows); err != nil {
		return nil, page, err
	}
	return rows, page, s.markManageable(ctx, rows)
}

// markManageable tells the web app which rows the caller may change.
func (s *Service) markManageable(ctx context.Context, rows []User) error {
	p := access.FromContext(ctx)
	sc, err := s.org.ScopeOf(ctx, p)
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].Manageable = manages(p, sc, &rows[i]) == nil
	}
	return nil
}

// Count returns the tab counts of the user list.
func (s *Service) Count(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := list.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	base, err := s.scoped(ctx, s.db.Builder().Select().From("users u"))
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, s.db, q, base, tabs(s.clock.Now()))
}

// attach fills roles, configurations and organisation bindings of rows.
func (s *Service) attach(ctx context.Context, q db.Querier, rows []User) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]int64, len(rows))
	byID := map[int64]*User{}
	now := s.clock.Now()
	for i := range rows {
		u := &rows[i]
		ids[i] = u.ID
		byID[u.ID] = u
		u.Roles, u.RoleConfigs, u.CenterIDs, u.HospitalIDs = []string{}, map[string]json.RawMessage{}, []int64{}, []int64{}
		u.IsLocked = u.LockedUntil != nil && now.Before(*u.LockedUntil)
	}
	var bindings []struct {
		UserID int64  `db:"user_id"`
		Kind   string `db:"kind"`
		Role   string `db:"role"`
		Config string `db:"config"`
		Ref    int64  `db:"ref"`
	}
	in, args, _ := sq.Eq{"user_id": ids}.ToSql()
	query := s.db.Rebind(`SELECT user_id, 'r' AS kind, role, config, 0 AS ref FROM user_roles WHERE ` + in + `
		UNION ALL SELECT user_id, 'c', '', '', center_id FROM user_centers WHERE ` + in + `
		UNION ALL SELECT user_id, 'h', '', '', hospital_id FROM user_hospitals WHERE ` + in)
	if err := q.SelectContext(ctx, &bindings, query, slices.Concat(args, args, args)...); err != nil {
		return apperr.Wrap(err, "load user bindings")
	}
	var centers, hospitals []int64
	for _, b := range bindings {
		u := byID[b.UserID]
		switch b.Kind {
		case "r":
			u.Roles = append(u.Roles, b.Role)
			if b.Config != "" && b.Config != "{}" {
				u.RoleConfigs[b.Role] = json.RawMessage(b.Config)
			}
		case "c":
			u.CenterIDs = append(u.CenterIDs, b.Ref)
			centers = append(centers, b.Ref)
		case "h":
			u.HospitalIDs = append(u.HospitalIDs, b.Ref)
			hospitals = append(hospitals, b.Ref)
		}
	}
	cRefs, err := s.org.CenterRefs(ctx, centers)
	if err != nil {
		return err
	}
	hRefs, err := s.org.HospitalRefs(ctx, hospitals)
	if err != nil {
		return err
	}
	for i := range rows {
		u := &rows[i]
		access.SortRoles(u.Roles)
		u.Centers, u.Hospitals = pick(cRefs, u.CenterIDs), pick(hRefs, u.HospitalIDs)
	}
	return nil
}

func pick(refs []org.Ref, ids []int64) []org.Ref {
	out := []org.Ref{}
	for _, r := range refs {
		if slices.Contains(ids, r.ID) {
			out = append(out, r)
		}
	}
	return out
}

// Get returns a user the caller may see, marked whether they may change them.
func (s *Service) Get(ctx context.Context, id int64) (*User, error) {
	u, err := s.get(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	return s.marked(ctx, u)
}

func (s *Service) marked(ctx context.Context, u *User) (*User, error) {
	rows := []User{*u}
	return &rows[0], s.markManageable(ctx, rows)
}

func (s *Service) get(ctx context.Context, q db.Querier, id int64) (*User, error) {
	b, err := s.scoped(ctx, s.db.Builder().Select(columns).From("users u").Where("u.id = ?", id))
	if err != nil {
		return nil, err
	}
	var u User
	if err := db.Get(ctx, q, &u, b); errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load user")
	}
	rows := []User{u}
	if err := s.attach(ctx, q, rows); err != nil {
		return nil, err
	}
	return &rows[0], nil
}

// Roles lists the roles the caller may grant, with their names.
func (s *Service) Roles(ctx context.Context) []RoleInfo {
	p := access.FromContext(ctx)
	out := []RoleInfo{}
	for _, r := range access.Roles {
		if canGrant(p, r) {
			out = append(out, RoleInfo{Role: r, Name: roleNames[r][0], EnName: roleNames[r][1]})
		}
	}
	return out
}

var roleNames = map[string][2]string{
	access.Admin: {"管理员", "Administrator"}, access.CenterAdmin: {"分中心管理员", "Center administrator"},
	access.Site: {"站点", "Site"}, access.Allocator: {"分配员", "Allocator"}, access.Expert: {"专家", "Expert"},
	access.QCExpert: {"质控专家", "QC expert"}, access.Staff: {"技术员", "Staff"}, access.Publisher: {"发布员", "Publisher"},
	access.Third: {"第三方", "Third party"}, access.Clinical: {"临床医生", "Clinician"}, access.Uploader: {"上传员", "Uploader"},
	access.Root: {"超级用户", "Root"},
}

// canGrant: only root grants root; admin grants the rest; a center
// administrator grants the working roles of their center's staff and sites.
func canGrant(p *access.Principal, role string) bool {
	switch {
	case slices.Contains(p.Roles, access.Root):
		return true
	case role == access.Root:
		return false
	case p.IsAdmin():
		return true
	case p.Has(access.CenterAdmin):
		return role != access.Admin && role != access.CenterAdmin
	}
	return false
}

// Member is a user offered in a select (an expert to assign, a staff member).
type Member struct {
	ID   int64  `json:"id" db:"id"`
	Name string `json:"name" db:"name"`
	Availability
	// An expert's configuration: whether they take new cases and the
	// libraries they read.
	TakesCases     bool    `json:"-" db:"-"`
	Subspecialties []int64 `json:"-" db:"-"`
	Config         string  `json:"-" db:"config"`
}

// Members lists the enabled users bound to a center who hold role.
func (s *Service) Members(ctx context.Context, centerID int64, role string) ([]Member, error) {
	out := []Member{}
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select("u.id", "u.name", "u.away <> 0 AS away", "u.away_note", "u.away_until", "r.config").From("users u").
		Join("user_roles r ON r.user_id = u.id AND r.role = ?", role).
		Join("user_centers uc ON uc.user_id = u.id AND uc.center_id = ?", centerID).
		Where("u.status = 1 AND u.deleted_at IS NULL").OrderBy("u.name", "u.id"))
	for i := range out {
		c := parseConfig(out[i].Config)
		out[i].TakesCases, out[i].Subspecialties = c.TakesCasesOrDefault(), c.Subspecialties
	}
	return out, apperr.Wrap(err, "center members")
}
