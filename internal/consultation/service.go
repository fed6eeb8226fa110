package consultation

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/org"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// Timeout is the time allowed to diagnose a case once it is assigned.
type Timeout struct {
	ID          *int64
	Hours       int
	RemindHours int
}

// Deps are the other domains the consultation service calls.
type Deps struct {
	Org *org.Service
	// CheckNumber validates a pathology number against its library's rule.
	CheckNumber func(ctx context.Context, libraryID int64, number string) error
	// TimeoutFor returns the timeout of a normal or an urgent case.
	TimeoutFor func(ctx context.Context, expedite bool) (Timeout, error)
	// Members lists the enabled users of a center who hold role.
	Members func(ctx context.Context, centerID int64, role string) ([]PersonRef, error)
	// Lineage returns a library and the libraries above it (nil: the
	// library alone); an expert bound to a library reads its sub-libraries.
	Lineage func(ctx context.Context, libraryID int64) ([]int64, error)
	// ChargeItems returns the enabled charge items among ids.
	ChargeItems func(ctx context.Context, ids []int64) (map[int64]ChargeItem, error)
	// Files resolves uploaded files the caller may attach.
	Files FileResolver
	// RecallNeedsCheck: a site's recall waits for the center's agreement
	// (rollback_need_check; nil: it does).
	RecallNeedsCheck func(context.Context) bool
	// NeedSlides requires slides before a case is submitted (need_upload_slide).
	NeedSlides func(context.Context) bool
	// Filed is the SQL condition that the case whose id is the SQL
	// expression caseID is stored in the archive, which the borrow domain
	// keeps (nil: none is).
	Filed func(caseID string) string
	// DefaultFixative is the fixative filled into a specimen registered
	// without one, for a case of center and library (nil: none).
	DefaultFixative func(ctx context.Context, centerID, libraryID int64) string
	// FormSettings are the diagnosis settings the registration form uses,
	// as a center has them (0: without a center; nil: none).
	FormSettings func(ctx context.Context, centerID int64) FormSettings
}

// FileResolver checks that uploaded files may be attached by the caller.
type FileResolver interface {
	// Attachable returns the files among ids that the caller (or their
	// hospital) uploaded.
	Attachable(ctx context.Context, hospitalID int64, ids []int64) (map[int64]bool, error)
}

// Service runs the consultation life cycle.
type Service struct {
	db     *db.DB
	deps   Deps
	now    func() time.Time
	clock  clock.Clock // the operator's zone; now is its Now
	guards map[Action][]Guard

	listeners []listener
}

// New returns the consultation service.
func New(d *db.DB, deps Deps) *Service {
	s := &Service{db: d, deps: deps, now: clock.Clock{}.Now, guards: map[Action][]Guard{}}
	s.Guard(ActHandover, noPendingHandover)
	s.Guard(ActUpdate, registers)
	s.Guard(ActUpdate, clinicianDrafts)
	return s
}

// UseClock sets the clock the service reads the time and the operator's
// time zone from.
func (s *Service) UseClock(c clock.Clock) { s.clock, s.now = c, c.Now }

// scope is the condition on "c" for the cases the caller may see: a site
// or uploader its hospitals', a clinician those they registered there, an allocator or center administrator their centers', an
// expert or staff member those assigned to them, an administrator all.
// A case the hospital has not submitted (a draft, or one whose recall was
// agreed) is the hospital's alone: no center-side role sees it. One the
// center returned to the hospital stays readable to the center, read-only:
// the allocator's menu (spec 1 §2) lists them under /distribute/return.
func (s *Service) scope(ctx context.Context) (sq.Sqlizer, error) {
	p := access.FromContext(ctx)
	if p.IsAdmin() {
		return sq.Expr("c.deleted_at IS NULL"), nil
	}
	or := sq.Or{}
	switch {
	case len(p.HospitalIDs) == 0:
	case p.HasAny(access.CaseSenders):
		or = append(or, eqOrIn("c.hospital_id", p.HospitalIDs))
	case p.Has(access.Clinical):
		// A clinician follows the requests they registered, in their hospital.
		or = append(or, sq.And{eqOrIn("c.hospital_id", p.HospitalIDs), sq.Eq{"c.user_id": p.UserID}})
	}
	center := sq.Or{}
	if p.HasAny(access.CenterWide) {
		sc, err := s.deps.Org.ScopeOf(ctx, p)
		if err != nil {
			return nil, err
		}
		if len(sc.CenterIDs) > 0 {
			center = append(center, eqOrIn("c.center_id", sc.CenterIDs))
		}
	}
	if p.Has(access.Expert) {
		// The cases they are named on: assigned, reviewing (a diagnosis or a
		// supplement), returned, handed over or invited to. Migration 0056
		// keeps them in case_experts, read by index.
		center = append(center, s.caseIn(sq.Expr("SELECT case_id FROM case_experts WHERE expert_id = ?", p.UserID)))
	}
	if p.Has(access.Staff) {
		center = append(center, sq.Eq{"c.staff_id": p.UserID})
	}
	switch len(center) {
	case 0:
	case 1:
		or = append(or, sq.And{sentToCenter, center[0]})
	default:
		or = append(or, sq.And{sentToCenter, center})
	}
	switch len(or) {
	case 0:
		return sq.Expr("1=0"), nil
	case 1:
		return sq.And{sq.Expr("c.deleted_at IS NULL"), or[0]}, nil
	}
	return sq.And{sq.Expr("c.deleted_at IS NULL"), or}, nil
}

// caseIn is the condition "c.id is one of the ids ids selects". On
// PostgreSQL it is written = ANY(ARRAY(…)), which the planner can read by
// index as one branch of the scope's OR (an IN subquery there is a filter
// over every row).
func (s *Service) caseIn(ids sq.Sqlizer) sq.Sqlizer {
	if s.db.Dialect == db.Postgres {
		return sq.Expr("c.id = ANY(ARRAY(?))", ids)
	}
	return sq.Expr("c.id IN (?)", ids)
}

// sentToCenter: the case is with the center, or the center returned it.
var sentToCenter = sq.Expr("(c.status <> 0 OR c.is_return = -1)")

// eqOrIn writes one id as "=" so that SQLite walks an index in sort order.
func eqOrIn(col string, ids []int64) sq.Sqlizer {
	if len(ids) == 1 {
		return sq.Eq{col: ids[0]}
	}
	return sq.Eq{col: ids}
}

var list = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":               {Expr: "c.id", Type: listquery.Int, Sort: true, Filter: true},
		"consult_no":       {Expr: "c.consult_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"pathology_number": {Expr: "c.pathology_number", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"patient_name":     {Expr: "c.patient_name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"id_number":        idNumberColumn,
		"hospital_name":    hospitalNameColumn,
		"gender":           {Expr: "c.gender", Type: listquery.String, Filter: true, Enum: []any{"male", "female", "unknown"}},
		"age":              {Expr: "c.age", Type: listquery.Int, Sort: true, Filter: true, Nullable: true},
		"hospital_id":      {Expr: "c.hospital_id", Type: listquery.Int, Filter: true, Lenient: true},
		"center_id":        {Expr: "c.center_id", Type: listquery.Int, Filter: true},
		"expert_id":        {Expr: "c.expert_id", Type: listquery.Int, Filter: true},
		"library_id":       {Expr: "c.library_id", Type: listquery.Int, Filter: true},
		"status":           {Expr: "c.status", Type: listquery.Int, Sort: true, Filter: true, Enum: []any{0, 1, 2, 4}},
		"is_recall":        {Expr: "c.is_recall", Type: listquery.Int, Filter: true},
		"is_return":        {Expr: "c.is_return", Type: listquery.Int, Filter: true},
		"expedite":         {Expr: "c.expedite", Type: listquery.Int, Sort: true, Filter: true},
		"charge_status":    {Expr: "c.charge_status", Type: listquery.Int, Filter: true},
		"slide_count":      {Expr: "c.slide_count", Type: listquery.Int, Sort: true, Filter: true},
		"inspection_date":  {Expr: "c.inspection_date", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"created_at":       {Expr: "c.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"updated_at":       {Expr: "c.updated_at", Type: listquery.Time, Sort: true, Filter: true},
		"submitted_at":     {Expr: "c.submitted_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"assigned_at":      {Expr: "c.assigned_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"timeout_at":       {Expr: "c.timeout_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
	},
	DefaultSort: []string{"c.id DESC"},
	TieBreak:    "c.id DESC",
	ExtraParams: []string{"tab"},
	SearchIndex: searchIndex,
	// Kept by the triggers of migration 0041.
	Tally: &listquery.Tally{From: "consultations c", Table: "consultation_tallies c", Count: "c.n",
		Columns: []string{"c.hospital_id", "c.center_id", "c.expert_id", "c.status", "c.is_draft", "c.is_recall", "c.is_return",
			"c.is_lock", "c.supplement_review", "c.print_deliver_status", "c.deleted_at"}},
}

// tabs are the named views of the case lists; the web app shows the ones
// that fit each screen, with counts from Count.
func (s *Service) tabs(now time.Time) map[string]sq.Sqlizer { return tabsOn(now, "c", s.db.Dialect) }

// tabsOn writes the tabs over the case columns of alias: "c" the cases, or
// "x" an expert's rows of case_experts, which hold copies of every column
// the tabs name (migration 0069; "x.assigned = 1" stands for an expert
// assigned, "x.deleted" for deleted_at set).
func tabsOn(now time.Time, a string, dialect db.Dialect) map[string]sq.Sqlizer {
	r := strings.NewReplacer("c.expert_id IS NOT NULL", a+".assigned = 1", "c.expert_id IS NULL", a+".assigned = 0", "c.", a+".")
	if a == "c" {
		r = strings.NewReplacer()
	}
	e := func(text string, args ...any) sq.Sqlizer { return sq.Expr(r.Replace(text), args...) }
	col := func(name string) string { return r.Replace(name) }
	open := e("c.status IN (1, 2) AND c.is_recall = 0")
	return map[string]sq.Sqlizer{
		"all":             nil,
		"draft":           e("c.status = 0 AND c.is_draft = 1 AND c.is_recall = 0 AND c.is_return = 0"),
		"to_submit":       e("c.status = 0 AND c.is_draft = 0 AND c.is_recall = 0 AND c.is_return = 0"),
		"unsubmitted":     e("c.status = 0 AND c.is_recall = 0 AND c.is_return = 0"),
		"submitted":       e("c.status IN (1, 2)"),
		"to_allot":        e("c.status = 1 AND c.expert_id IS NULL AND c.is_recall = 0"),
		"returned_center": e("c.status = 1 AND c.is_return = 1"),
		"assigned":        e("c.status = 1 AND c.expert_id IS NOT NULL AND c.is_recall = 0"),
		"pending":         e("c.status = ? AND c.expert_id IS NOT NULL AND c.is_lock = ? AND c.is_recall = ?", StatusSubmitted, Unlocked, RecallNone),
		"diagnosing":      e("c.status = ? AND c.expert_id IS NOT NULL AND c.is_lock = ? AND c.is_recall = ?", StatusSubmitted, Locked, RecallNone),
		"to_review":       e("(c.status = 2 OR c.supplement_review = 1)"),
		"completed":       e("c.status = 4"),
		"recall_pending":  e("c.is_recall = 1"),
		"recalled":        e("c.is_recall = 2 AND c.status = 0"),
		"recall":          e("c.is_recall IN (1, 2)"),
		"returned_site":   e("c.is_return = -1 AND c.status = 0"),
		"releasing":       sq.And{e("c.status = 4"), sq.Gt{col("c.release_at"): now}},
		"to_print":        sq.And{e("c.status = 4 AND c.print_deliver_status = 1"), sq.LtOrEq{col("c.release_at"): now}},
		"to_send":         sq.And{e("c.status = 4 AND c.print_deliver_status = 2"), sq.LtOrEq{col("c.release_at"): now}},
		"sent":            e("c.status = 4 AND c.print_deliver_status = 3"),
		"timeout":         sq.And{open, timedOut(col("c.timeout_at"), now, dialect)},
		// Soon timed out: past the reminder time of its timeout config, as decorate marks it.
		"soon_timeout": sq.And{open, sq.GtOrEq{col("c.timeout_at"): now}, sq.LtOrEq{col("c.remind_at"): now}},
	}
}

// timedOut: the time limit is past. PostgreSQL reads COALESCE(limit, now)
// < now (the same rows: an unset limit, or one at now, is not past), an
// expression it has no statistics for. Of limit < now it multiplied the
// open cases' share by the past limits' share (which are the open cases'
// own), took ~5,300 cases for ~30, read and sorted them all; with the
// expression's default share it walks consultations_open (migration 0075)
// in the sort's order.
func timedOut(limit string, now time.Time, dialect db.Dialect) sq.Sqlizer {
	if dialect == db.Postgres {
		return sq.Expr("COALESCE("+limit+", ?) < ?", now, now)
	}
	return sq.Lt{limit: now}
}

// expertOnly reports whether the caller's cases are exactly those they are
// named on as an expert (no other role of theirs widens the scope).
func expertOnly(p *access.Principal) bool {
	if p.IsAdmin() || !p.Has(access.Expert) || p.Has(access.Staff) || p.HasAny(access.CenterWide) {
		return false
	}
	return len(p.HospitalIDs) == 0 || !(p.HasAny(access.CaseSenders) || p.Has(access.Clinical))
}

// expertCopies are the sortable case columns an expert's rows of
// case_experts hold copies of (migrations 0069, 0077), the case id first;
// a text column also as PostgreSQL's sort names it (COLLATE "C").
var expertCopies = map[string]string{"c.id": "x.case_id", "c.status": "x.status", "c.submitted_at": "x.submitted_at", "c.timeout_at": "x.timeout_at",
	"c.pathology_number": "x.pathology_number", `c.pathology_number COLLATE "C"`: `x.pathology_number COLLATE "C"`}

// expertTally counts an expert's rows of case_experts by the columns their
// scope and tabs name (migration 0080) and by hospital (0091: a search
// that names hospitals only, see expertParse), for a count over
// "case_experts x" alone.
var expertTally = &listquery.Tally{From: "case_experts x", Table: "case_expert_tallies x", Count: "x.n",
	Columns: []string{"x.expert_id", "x.deleted", "x.status", "x.is_draft", "x.is_recall", "x.is_return", "x.is_lock", "x.assigned",
		"x.supplement_review", "x.print_deliver_status", "x.hospital_id"}}

const rowColumns = `c.id, c.consult_no, c.pathology_number, c.patient_name, c.gender, c.age, c.age_unit,
	c.hospital_id, h.name AS hospital_name, c.center_id, ce.name AS center_name, c.expert_id, ex.name AS expert_name,
	c.library_id, lb.name AS library_name, c.expedite, c.charge_status, c.slide_count, c.inspection_date, c.submitted_at,
	c.assigned_at, c.timeout_at, c.recall_reason, c.return_reason, c.created_at, c.updated_at,
	c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.manage_confirm, c.remind_at,
	c.locked_by, c.reviewer_id, c.release_at, c.delay_days, c.delay_reason, c.print_deliver_status,
	c.handover_from, c.supplement_review`

func (s *Service) rows(b sq.StatementBuilderType) sq.SelectBuilder {
	return s.rowsFrom(b, "consultations c")
}

// rowsFrom selects the row columns from the cases, or from a driving table
// joined to them (see listing).
func (s *Service) rowsFrom(b sq.StatementBuilderType, from string) sq.SelectBuilder {
	filed := "0"
	if s.deps.Filed != nil {
		filed = "CASE WHEN " + s.deps.Filed("c.id") + " THEN 1 ELSE 0 END"
	}
	// The cases drive the join, so that the tab's and the sort's index on
	// consultations serves the page. On SQLite an inner join lets the
	// planner read the 50 hospitals first and each one's cases of a status
	// by (hospital_id, status, …), then sort them all: 24 s for the
	// completed tab at a million cases. CROSS JOIN keeps SQLite's tables in
	// the order written; the rows are the same (hospital_id is NOT NULL
	// and references hospitals).
	hospital := "JOIN hospitals h ON h.id = c.hospital_id"
	if s.db.Dialect == db.SQLite {
		hospital = "CROSS " + hospital
	}
	return b.Select(rowColumns + ", " + filed + " AS filed").From(from).
		JoinClause(hospital).
		LeftJoin("centers ce ON ce.id = c.center_id").
		LeftJoin("users ex ON ex.id = c.expert_id").
		LeftJoin("libraries lb ON lb.id = c.library_id")
}

// listing is a parsed list or count request: the query, the condition
// (scope, tab and the query's) and the tables it reads.
type listing struct {
	q     *listquery.Query
	where sq.Sqlizer
	// from is the FROM of the rows: the cases "c", or for an expert (and
	// no other role) their rows of case_experts "x" joined to the cases,
	// which drive the read: the scope, the tab and the default sort are
	// conditions on x's copies of the case columns (migration 0069), so a
	// page is a walk of x's index over the expert's rows of a status.
	from string
	// count is the FROM of the count: x alone when nothing else names c.
	count string
	tabs  map[string]sq.Sqlizer
}

func (s *Service) parse(ctx context.Context, req listquery.Request) (*listing, error) {
	p := access.FromContext(ctx)
	var q *listquery.Query
	var err error
	onX, keysFirst := false, false
	if expertOnly(p) {
		q, onX, keysFirst, err = expertParse(ctx, s.db, req)
	} else {
		q, err = parseList(ctx, s.db, req)
	}
	if err != nil {
		return nil, err
	}
	l := &listing{q: q, from: "consultations c", count: "consultations c", tabs: s.tabs(s.now())}
	var where sq.And
	id := "c.id"
	if expertOnly(p) {
		l.tabs, id = tabsOn(s.now(), "x", s.db.Dialect), "x.case_id"
		join := "JOIN consultations c ON c.id = x.case_id"
		if s.db.Dialect == db.SQLite {
			join = "CROSS " + join // case_experts first (see rowsFrom)
		}
		l.from, l.count = "case_experts x "+join, "case_experts x"
		q.Drive(expertCopies)
		// A condition on the cases' columns (one x holds no copy of) joins
		// them to the count; past the first page the count's FROM also
		// selects the page's keys in order (see listquery.Run).
		// A page read by its keys first (expertParse) selects them from the
		// count's FROM too.
		if keysFirst {
			q.KeysFirst()
		}
		if (q.Filtered() && !onX) || ((q.Page > 1 || keysFirst) && slices.ContainsFunc(q.OrderBy, func(t string) bool { return strings.HasPrefix(t, "c.") })) {
			l.count = l.from
		}
		// Counts over x alone sum the tally; over x joined to the cases
		// they count rows (the Tally's From is x alone).
		q.UseTally(expertTally)
		// The scope of an expert (see scope) on the copies.
		where = sq.And{sq.Expr("x.expert_id = ? AND x.deleted = 0 AND (x.status <> 0 OR x.is_return = -1)", p.UserID)}
	} else {
		scope, err := s.scope(ctx)
		if err != nil {
			return nil, err
		}
		where = sq.And{scope}
		// The count's FROM is the cases alone, which names every column
		// of the WHERE and the sort: a searched first page reads its keys
		// first (at 1M an admin's search of 王, 9,860 cases, read and
		// joined all their rows to keep twenty).
		q.KeysFirst()
	}
	if tab := q.ExtraString("tab"); tab == "collected" {
		where = append(where, sq.Expr(id+" IN (SELECT consult_id FROM case_collections WHERE user_id = ?)", p.UserID))
	} else if tab != "" {
		cond, ok := l.tabs[tab]
		if !ok {
			return nil, apperr.New(apperr.Invalid, "list.bad_value").With("column", "tab")
		}
		if cond != nil {
			where = append(where, cond)
		}
	}
	l.where = where
	return l, nil
}

// List returns a page of the cases the caller may see.
func (s *Service) List(ctx context.Context, req listquery.Request) ([]Row, listquery.Pagination, error) {
	l, err := s.parse(ctx, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	b := s.db.Builder()
	rows, page, err := listquery.Run[Row](ctx, s.db, l.q, s.rowsFrom(b, l.from).Where(l.where),
		b.Select("COUNT(*)").From(l.count).Where(l.where))
	if err != nil {
		return nil, page, err
	}
	for i := range rows {
		s.decorate(ctx, s.db, &rows[i])
	}
	return rows, page, s.markCollected(ctx, s.db, rows)
}

// Count returns the number of cases in every tab under the same filters.
func (s *Service) Count(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	req.Params = withoutTab(req.Params)
	l, err := s.parse(ctx, req)
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, s.db, l.q, s.db.Builder().Select().From(l.count).Where(l.where), l.tabs)
}

// decorate derives what the lists show from the stored state.
func (s *Service) decorate(ctx context.Context, q db.Querier, r *Row) {
	r.Assigned = r.ExpertID != nil
	r.Releasing = r.Status == StatusCompleted && r.ReleaseAt != nil && s.now().Before(*r.ReleaseAt)
	r.StatusLabel = Label(i18n.From(ctx), r.State)
	if r.Filed && r.StatusLabel.Key == "published" {
		// Spec 2 §4 Case display status: a case whose material is in the archive shows Filed.
		r.StatusLabel = StatusLabel{Key: "filed", Label: labelText(i18n.From(ctx), "filed"), Color: "lightblue"}
	}
	r.Actions = s.actions(ctx, q, r)
	if r.TimeoutAt != nil && (r.Status == StatusSubmitted || r.Status == StatusToReview) && r.IsRecall == RecallNone {
		now := s.now()
		switch {
		case now.After(*r.TimeoutAt):
			r.Timing = "timeout"
		case r.RemindAt != nil && !now.Before(*r.RemindAt):
			r.Timing = "soon"
		}
	}
}

// row loads one case the caller may see, inside q.
func (s *Service) row(ctx context.Context, q db.Querier, id int64) (*Row, error) {
	scope, err := s.scope(ctx)
	if err != nil {
		return nil, err
	}
	var r Row
	err = db.Get(ctx, q, &r, s.rows(s.db.Builder()).Where(scope).Where("c.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load case")
	}
	s.decorate(ctx, q, &r)
	one := []Row{r}
	if err := s.markCollected(ctx, q, one); err != nil {
		return nil, err
	}
	return &one[0], nil
}

// CanSee reports whether the caller may see a case (for files attached to it).
func (s *Service) CanSee(ctx context.Context, id int64) bool {
	_, err := s.row(ctx, s.db, id)
	return err == nil
}

// Case returns a case the caller may see.
func (s *Service) Case(ctx context.Context, id int64) (*Row, error) { return s.row(ctx, s.db, id) }

// Scope is the condition on the consultations alias "c" for the cases the
// caller may see, for other domains' lists joined to cases.
func (s *Service) Scope(ctx context.Context) (sq.Sqlizer, error) { return s.scope(ctx) }
