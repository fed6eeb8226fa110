package statistics

import (
	"context"
	"fmt"
	"slices"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
)

const dayLayout = "2006-01-02"

// MaxYears is the longest period a request may cover.
const MaxYears = 5

// Kinds are the case kinds, the report kinds of the libraries.
var Kinds = []string{"routine", "frozen", "cell"}

// scope is the part of the data a caller sees on a screen: everything
// (admin), the cases of some centers (center_admin, allocator, qc_expert),
// of some hospitals (site) or one expert's own work (expert).
type scope struct {
	all       bool
	centers   []int64
	hospitals []int64
	expert    int64
}

// scopeOf is the widest scope among the caller's roles that open the screen.
func scopeOf(p *access.Principal, roles []string) scope {
	has := func(r string) bool { return slices.Contains(roles, r) && p.Has(r) }
	switch {
	case has(access.Admin):
		return scope{all: true}
	case has(access.CenterAdmin) || has(access.Allocator) || has(access.QCExpert):
		return scope{centers: append([]int64{0}, p.CenterIDs...)}
	case has(access.Site):
		return scope{hospitals: append([]int64{0}, p.HospitalIDs...)}
	default:
		return scope{expert: p.UserID}
	}
}

// run is one computation: the period, its buckets and the conditions every
// row must meet.
type run struct {
	lang        i18n.Lang
	from, to    time.Time // UTC instants: the first day's local midnight, the day after the last one's
	start, end  string
	now         time.Time
	offset      int // minutes east of UTC at the period's start
	granularity string
	buckets     []string       // labels in order
	bucketOf    map[string]int // local day → bucket index
	scope       scope
	q           StatQuery
	dialect     db.Dialect
	names       map[string]string // cache of labels
}

// prepare validates q for a screen open to roles and returns the run, or a localized 422.
func (s *Service) prepare(ctx context.Context, roles []string, q StatQuery) (*run, error) {
	zone := s.clock.Zone()
	now := s.clock.Now()
	today := now.In(zone).Format(dayLayout)
	if q.Start == "" {
		q.Start = today[:8] + "01"
	}
	if q.End == "" {
		q.End = today
	}
	var v apperr.Validation
	start, err1 := time.ParseInLocation(dayLayout, q.Start, zone)
	end, err2 := time.ParseInLocation(dayLayout, q.End, zone)
	if err1 != nil {
		v.Add("start", "field.invalid")
	}
	if err2 != nil {
		v.Add("end", "field.invalid")
	}
	if err1 == nil && err2 == nil {
		if end.Before(start) {
			v.Add("end", "statistics.end_before_start")
		} else if end.After(start.AddDate(MaxYears, 0, 0)) {
			v.Add("end", "statistics.range_too_long", "years", MaxYears)
		}
	}
	if q.Granularity != "" && !slices.Contains([]string{"day", "week", "month"}, q.Granularity) {
		v.Add("granularity", "statistics.unknown_value")
	}
	if q.Kind != "" && !slices.Contains(Kinds, q.Kind) {
		v.Add("kind", "statistics.unknown_value")
	}
	p := access.FromContext(ctx)
	r := &run{lang: i18n.From(ctx), start: q.Start, end: q.End, now: now, scope: scopeOf(p, roles), q: q,
		dialect: s.db.Dialect, names: map[string]string{}}
	if err := s.checkFilters(ctx, r, &v); err != nil {
		return nil, err
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	r.from, r.to = start.UTC(), end.AddDate(0, 0, 1).UTC()
	_, off := start.Zone()
	r.offset = off / 60
	r.granularity = q.Granularity
	if r.granularity == "" {
		switch days := int(end.Sub(start).Hours()/24) + 1; {
		case days <= 62:
			r.granularity = "day"
		case days <= 366:
			r.granularity = "week"
		default:
			r.granularity = "month"
		}
	}
	r.bucketOf = map[string]int{}
	for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
		label := bucketLabel(d, r.granularity)
		if len(r.buckets) == 0 || r.buckets[len(r.buckets)-1] != label {
			r.buckets = append(r.buckets, label)
		}
		r.bucketOf[d.Format(dayLayout)] = len(r.buckets) - 1
	}
	return r, nil
}

// bucketLabel names the bucket of local day d: the day, the Monday of its
// week, or its month.
func bucketLabel(d time.Time, granularity string) string {
	switch granularity {
	case "week":
		back := (int(d.Weekday()) + 6) % 7
		return d.AddDate(0, 0, -back).Format(dayLayout)
	case "month":
		return d.Format("2006-01")
	}
	return d.Format(dayLayout)
}

// checkFilters refuses filter values that do not exist or lie outside the
// caller's scope (the same answer for both: another center's hospital does
// not exist for the caller).
func (s *Service) checkFilters(ctx context.Context, r *run, v *apperr.Validation) error {
	q, sc := r.q, r.scope
	type check struct {
		field string
		id    int64
		b     sq.SelectBuilder
	}
	b := s.db.Builder()
	checks := []check{
		{"center_id", q.CenterID, b.Select("COUNT(*)").From("centers").Where("id = ? AND deleted_at IS NULL", q.CenterID)},
		{"hospital_id", q.HospitalID, b.Select("COUNT(*)").From("hospitals").Where("id = ? AND deleted_at IS NULL", q.HospitalID)},
		{"library_id", q.LibraryID, b.Select("COUNT(*)").From("libraries").Where("id = ? AND deleted_at IS NULL", q.LibraryID)},
		{"expert_id", q.ExpertID, b.Select("COUNT(*)").From("users u").Join("user_roles ur ON ur.user_id = u.id").
			Where("u.id = ? AND ur.role = ? AND u.deleted_at IS NULL", q.ExpertID, access.Expert)},
	}
	for i := range checks {
		c := &checks[i]
		switch {
		case c.field == "center_id" && len(sc.centers) > 0:
			c.b = c.b.Where(sq.Eq{"id": sc.centers})
		case c.field == "hospital_id" && len(sc.centers) > 0:
			c.b = c.b.Where(sq.Expr("id IN (SELECT hospital_id FROM hospital_centers WHERE center_id IN ("+sq.Placeholders(len(sc.centers))+"))", ids(sc.centers)...))
		case c.field == "hospital_id" && len(sc.hospitals) > 0:
			c.b = c.b.Where(sq.Eq{"id": sc.hospitals})
		case c.field == "center_id" && (len(sc.hospitals) > 0 || sc.expert > 0):
			c.b = c.b.Where(sq.Expr("id IN (SELECT center_id FROM hospital_centers WHERE hospital_id IN ("+sq.Placeholders(len(sc.hospitals)+1)+")) OR id IN (SELECT center_id FROM user_centers WHERE user_id = ?)",
				append(ids(append([]int64{0}, sc.hospitals...)), sc.expert)...))
		case c.field == "expert_id" && sc.expert > 0:
			c.b = c.b.Where("u.id = ?", sc.expert)
		case c.field == "expert_id" && len(sc.centers) > 0:
			c.b = c.b.Where(sq.Expr("u.id IN (SELECT user_id FROM user_centers WHERE center_id IN ("+sq.Placeholders(len(sc.centers))+"))", ids(sc.centers)...))
		}
		if c.id == 0 {
			continue
		}
		var n int
		if err := db.Get(ctx, s.db, &n, c.b); err != nil {
			return apperr.Wrap(err, "check statistics filter")
		}
		if n == 0 {
			v.Add(c.field, "statistics.unknown_value")
		}
	}
	return nil
}

func ids(xs []int64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// where is the scope and the filters on the cases (alias c). expertCol is
// the column the expert filter and an expert's scope apply to: the case's
// expert, or the author of a log line or an invitation.
func (r *run) where(expertCol string) sq.And { return r.filters(expertCol, false) }

// filters is where on the cases, or on the rollups (alias c too), which
// hold no deleted case and 0 for a case without a center.
func (r *run) filters(expertCol string, rollup bool) sq.And {
	w := sq.And{}
	if !rollup {
		w = append(w, sq.Expr("c.deleted_at IS NULL"))
	}
	sc, q := r.scope, r.q
	if len(sc.centers) > 0 {
		w = append(w, sq.Eq{"c.center_id": slices.DeleteFunc(slices.Clone(sc.centers), func(id int64) bool { return id == 0 })})
	}
	if len(sc.hospitals) > 0 {
		w = append(w, sq.Eq{"c.hospital_id": sc.hospitals})
	}
	if sc.expert > 0 {
		w = append(w, sq.Eq{expertCol: sc.expert})
	}
	if q.CenterID > 0 {
		w = append(w, sq.Eq{"c.center_id": q.CenterID})
	}
	if q.HospitalID > 0 {
		w = append(w, sq.Eq{"c.hospital_id": q.HospitalID})
	}
	if q.ExpertID > 0 {
		w = append(w, sq.Eq{expertCol: q.ExpertID})
	}
	if q.LibraryID > 0 {
		w = append(w, sq.Expr("c.library_id IN (SELECT id FROM libraries WHERE id = ? OR parent_id = ?)", q.LibraryID, q.LibraryID))
	}
	if q.Kind != "" {
		w = append(w, sq.Expr("c.library_id IN (SELECT id FROM libraries WHERE report_kind = ?)", q.Kind))
	}
	return w
}

// day is the SQL of the local day (YYYY-MM-DD) of the instant col: the same
// text on both databases, shifted by the zone's offset at the period's start.
func (r *run) day(col string) string {
	if r.dialect == db.Postgres {
		return fmt.Sprintf("to_char((%s AT TIME ZONE 'UTC') + interval '%d minutes', 'YYYY-MM-DD')", col, r.offset)
	}
	return fmt.Sprintf("strftime('%%Y-%%m-%%d', %s, '%+d minutes')", col, r.offset)
}

// seconds is the SQL of the seconds from instant a to instant b.
func (r *run) seconds(a, b string) string {
	if r.dialect == db.Postgres {
		return fmt.Sprintf("EXTRACT(EPOCH FROM (%s - %s))", b, a)
	}
	return fmt.Sprintf("((julianday(%s) - julianday(%s)) * 86400.0)", b, a)
}

// text casts a key expression to text on both databases.
func text(expr string) string { return "CAST(" + expr + " AS TEXT)" }
