package notify

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// Notice kinds (spec 2 §3 Notices: text, task urgent) and targets.
const (
	NoticeText   = "text"
	NoticeUrgent = "urgent"

	TargetAll      = "all"
	TargetRole     = "role"
	TargetCenter   = "center"
	TargetHospital = "hospital"
	TargetUsers    = "users"
)

// MaxNotice is the longest notice, in characters.
const MaxNotice = 2000

// NoticeInput is a notice to send.
type NoticeInput struct {
	Kind    string  `json:"kind" enum:"text,urgent" doc:"text, or urgent (task urgent)"`
	Level   string  `json:"level" enum:"normal,important,very_important"`
	Target  string  `json:"target" enum:"all,role,center,hospital,users"`
	Role    string  `json:"role,omitempty" doc:"With target role"`
	IDs     []int64 `json:"ids,omitempty" maxItems:"1000" doc:"Centers, hospitals or users, with those targets"`
	Content string  `json:"content" maxLength:"4000"`
}

// Notice is a notice as its authors see it.
type Notice struct {
	ID          int64      `json:"id" db:"id"`
	Kind        string     `json:"kind" db:"kind"`
	KindText    string     `json:"kind_text" db:"-"`
	Level       string     `json:"level" db:"level"`
	LevelText   string     `json:"level_text" db:"-"`
	Target      string     `json:"target" db:"target"`
	TargetText  string     `json:"target_text" db:"-"`
	TargetRole  string     `json:"target_role" db:"target_role"`
	TargetIDs   string     `json:"target_ids" db:"target_ids"`
	Content     string     `json:"content" db:"content"`
	CreatedBy   int64      `json:"created_by" db:"created_by"`
	AuthorName  string     `json:"author_name" db:"-"`
	CreatedAt   time.Time  `json:"created_at" db:"created_at"`
	Recipients  int64      `json:"recipients" db:"recipients"`
	ReadCount   int64      `json:"read_count" db:"read_count"`
	WithdrawnAt *time.Time `json:"withdrawn_at" db:"withdrawn_at"`
}

// Receipt is whether one recipient has read a notice.
type Receipt struct {
	UserID   int64      `json:"user_id" db:"user_id"`
	Name     string     `json:"name" db:"-"`
	Username string     `json:"username" db:"-"`
	ReadAt   *time.Time `json:"read_at" db:"read_at"`
	AckedAt  *time.Time `json:"acked_at" db:"acked_at"`
}

// audienceOf resolves a notice's target within what the caller may address.
func (s *Service) audienceOf(ctx context.Context, in *NoticeInput) ([]int64, *int64, error) {
	p := access.FromContext(ctx)
	sc, err := s.deps.Scope(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	var center *int64
	if !sc.All && len(sc.CenterIDs) > 0 {
		center = &sc.CenterIDs[0]
	}
	a := Audience{}
	outOf := func(ids, in []int64) bool {
		for _, id := range ids {
			if !slices.Contains(in, id) {
				return true
			}
		}
		return false
	}
	refused := apperr.New(apperr.Forbidden, "notify.target_out_of_scope")
	switch in.Target {
	case TargetAll:
	case TargetRole:
		if !access.IsRole(in.Role) || in.Role == access.Root {
			return nil, nil, apperr.New(apperr.Invalid, "error.validation").Field("role", "notify.role_required")
		}
		a.Roles = []string{in.Role}
	case TargetCenter:
		if !sc.All && outOf(in.IDs, sc.CenterIDs) {
			return nil, nil, refused
		}
		a.CenterIDs = in.IDs
	case TargetHospital:
		if !sc.All && outOf(in.IDs, sc.HospitalIDs) {
			return nil, nil, refused
		}
		a.HospitalIDs = in.IDs
	case TargetUsers:
		a.UserIDs = in.IDs
	}
	if !sc.All {
		// A center administrator addresses their centers' and hospitals' people only.
		if a.CenterIDs == nil && a.HospitalIDs == nil {
			a.CenterIDs, a.HospitalIDs = sc.CenterIDs, sc.HospitalIDs
			if len(a.CenterIDs)+len(a.HospitalIDs) == 0 {
				return nil, nil, refused
			}
		}
	}
	users, err := s.deps.Audience(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	if in.Target == TargetUsers && len(users) < len(slices.Compact(slices.Sorted(slices.Values(in.IDs)))) {
		return nil, nil, refused
	}
	if len(users) == 0 {
		return nil, nil, apperr.New(apperr.Invalid, "error.validation").Field("target", "notify.no_recipients")
	}
	return users, center, nil
}

func (in *NoticeInput) check() error {
	in.Content = strings.TrimSpace(in.Content)
	var v apperr.Validation
	if !slices.Contains([]string{NoticeText, NoticeUrgent}, in.Kind) {
		v.Add("kind", "field.required")
	}
	if !slices.Contains([]string{Normal, Important, VeryImportant}, in.Level) {
		v.Add("level", "field.required")
	}
	if !slices.Contains([]string{TargetAll, TargetRole, TargetCenter, TargetHospital, TargetUsers}, in.Target) {
		v.Add("target", "field.required")
	}
	if (in.Target == TargetCenter || in.Target == TargetHospital || in.Target == TargetUsers) && len(in.IDs) == 0 {
		v.Add("ids", "notify.target_required")
	}
	switch {
	case in.Content == "":
		v.Add("content", "notify.content_required")
	case utf8.RuneCountInString(in.Content) > MaxNotice:
		v.Add("content", "field.too_long", "max", MaxNotice)
	}
	return v.Err()
}

// Send writes a notice and delivers it to every user of its target.
func (s *Service) Send(ctx context.Context, in NoticeInput) (*Notice, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	users, center, err := s.audienceOf(ctx, &in)
	if err != nil {
		return nil, err
	}
	p := access.FromContext(ctx)
	ids := make([]string, len(in.IDs))
	for i, id := range in.IDs {
		ids[i] = strconv.FormatInt(id, 10)
	}
	var id int64
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		id, err = db.InsertID(ctx, tx, tx.Builder().Insert("notices").
			Columns("kind", "level", "target", "target_ids", "target_role", "content", "center_id", "created_by", "created_at", "recipients").
			Values(in.Kind, in.Level, in.Target, strings.Join(ids, ","), in.Role, in.Content, center, p.UserID, s.now(), len(users)))
		if err != nil {
			return apperr.Wrap(err, "insert notice")
		}
		notes := make([]Note, 0, len(users))
		actor := p.UserID
		for _, u := range users {
			notes = append(notes, Note{UserID: u, Kind: KindNotice, Level: in.Level, Event: "notice." + in.Kind, NoticeID: &id,
				Link: "/message/list", Key: "notify.notice", ActorID: &actor,
				Params: map[string]any{"content": in.Content, "by": p.Name, "urgent": in.Kind == NoticeUrgent}})
		}
		if err := s.Raise(ctx, tx, notes, []int64{p.UserID}, TopicNotices); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "notice.create", ObjectType: "notice", ObjectID: id,
			After:   map[string]any{"kind": in.Kind, "level": in.Level, "target": in.Target, "ids": in.IDs, "role": in.Role, "recipients": len(users)},
			Message: truncate(in.Content, 200)})
	})
	if err != nil {
		return nil, err
	}
	return s.notice(ctx, id)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

var noticeList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":         {Expr: "nt.id", Type: listquery.Int, Sort: true, Filter: true},
		"kind":       {Expr: "nt.kind", Type: listquery.String, Filter: true, Enum: []any{NoticeText, NoticeUrgent}},
		"level":      {Expr: "nt.level", Type: listquery.String, Filter: true, Enum: []any{Normal, Important, VeryImportant}},
		"content":    {Expr: "nt.content", Type: listquery.String, Filter: true, Search: true},
		"created_at": {Expr: "nt.created_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"nt.id DESC"},
	TieBreak:    "nt.id DESC",
	ExtraParams: []string{"tab"},
}

var noticeTabs = map[string]sq.Sqlizer{
	"all":       nil,
	"active":    sq.Expr("nt.withdrawn_at IS NULL"),
	"withdrawn": sq.Expr("nt.withdrawn_at IS NOT NULL"),
}

const noticeColumns = `nt.id, nt.kind, nt.level, nt.target, nt.target_role, nt.target_ids, nt.content, nt.created_by,
	nt.created_at, nt.recipients, nt.withdrawn_at,
	(SELECT COUNT(*) FROM notifications r WHERE r.notice_id = nt.id AND r.read_at IS NOT NULL) AS read_count`

// noticeScope: an administrator sees every notice, a center administrator
// those written for their centers.
func (s *Service) noticeScope(ctx context.Context) (sq.Sqlizer, error) {
	p := access.FromContext(ctx)
	sc, err := s.deps.Scope(ctx, p)
	if err != nil {
		return nil, err
	}
	if sc.All {
		return sq.Expr("1=1"), nil
	}
	if len(sc.CenterIDs) == 0 {
		return sq.Expr("1=0"), nil
	}
	return sq.Eq{"nt.center_id": sc.CenterIDs}, nil
}

// Notices returns a page of the notices the caller may manage.
func (s *Service) Notices(ctx context.Context, req listquery.Request) ([]Notice, listquery.Pagination, error) {
	q, err := noticeList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	tab, err := q.Tab(noticeTabs)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	scope, err := s.noticeScope(ctx)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	b := s.db.Builder()
	rows, page, err := listquery.Run[Notice](ctx, s.db, q,
		b.Select(noticeColumns).From("notices nt").Where(scope).Where(tab),
		b.Select("COUNT(*)").From("notices nt").Where(scope).Where(tab))
	if err != nil {
		return nil, page, err
	}
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].CreatedBy
	}
	names, err := s.deps.Names(ctx, ids)
	if err != nil {
		return nil, page, err
	}
	lang := i18n.From(ctx)
	for i := range rows {
		rows[i].localize(lang)
		rows[i].AuthorName = names[rows[i].CreatedBy].Name
	}
	return rows, page, nil
}

func (n *Notice) localize(lang i18n.Lang) {
	n.KindText = i18n.T(lang, "notify.notice_kind."+n.Kind, nil)
	n.LevelText = i18n.T(lang, "notify.level."+n.Level, nil)
	n.TargetText = i18n.T(lang, "notify.target."+n.Target, nil)
}

// notice loads one notice the caller may manage.
func (s *Service) notice(ctx context.Context, id int64) (*Notice, error) {
	scope, err := s.noticeScope(ctx)
	if err != nil {
		return nil, err
	}
	var n Notice
	err = db.Get(ctx, s.db, &n, s.db.Builder().Select(noticeColumns).From("notices nt").Where(scope).Where("nt.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load notice")
	}
	n.localize(i18n.From(ctx))
	names, err := s.deps.Names(ctx, []int64{n.CreatedBy})
	if err != nil {
		return nil, err
	}
	n.AuthorName = names[n.CreatedBy].Name
	return &n, nil
}

// Receipts lists who received a notice and who has read it.
func (s *Service) Receipts(ctx context.Context, id int64) ([]Receipt, error) {
	if _, err := s.notice(ctx, id); err != nil {
		return nil, err
	}
	out := []Receipt{}
	if err := db.Select(ctx, s.db, &out, s.db.Builder().Select("n.user_id", "n.read_at", "n.acked_at").
		From("notifications n").Where("n.notice_id = ?", id).
		OrderBy("CASE WHEN n.read_at IS NULL THEN 1 ELSE 0 END", "n.read_at", "n.user_id")); err != nil {
		return nil, apperr.Wrap(err, "receipts")
	}
	ids := make([]int64, len(out))
	for i := range out {
		ids[i] = out[i].UserID
	}
	names, err := s.deps.Names(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Name, out[i].Username = names[out[i].UserID].Name, names[out[i].UserID].Username
	}
	return out, nil
}

// Withdraw takes a notice back: its recipients no longer see it.
func (s *Service) Withdraw(ctx context.Context, id int64) error {
	n, err := s.notice(ctx, id)
	if err != nil {
		return err
	}
	if n.WithdrawnAt != nil {
		return apperr.New(apperr.Conflict, "notify.withdrawn")
	}
	p := access.FromContext(ctx)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("notices").Set("withdrawn_at", s.now()).Set("withdrawn_by", p.UserID).
			Where("id = ? AND withdrawn_at IS NULL", id)); err != nil {
			return apperr.Wrap(err, "withdraw notice")
		}
		var users []int64
		if err := db.Select(ctx, tx, &users, tx.Builder().Select("user_id").From("notifications").Where("notice_id = ?", id)); err != nil {
			return apperr.Wrap(err, "notice recipients")
		}
		if err := s.Raise(ctx, tx, nil, append(users, p.UserID), TopicMessages, TopicNotices); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "notice.withdraw", ObjectType: "notice", ObjectID: id, Message: truncate(n.Content, 200)})
	})
}
