package notify

import (
	"context"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// TopicMessages: the reader's own message centre changed (read in another tab).
const TopicMessages = "messages"

var messageList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":         {Expr: "n.id", Type: listquery.Int, Sort: true, Filter: true},
		"kind":       {Expr: "n.kind", Type: listquery.String, Filter: true, Enum: []any{KindCase, KindNotice, KindTimeout}},
		"level":      {Expr: "n.level", Type: listquery.String, Sort: true, Filter: true, Enum: []any{Normal, Important, VeryImportant}},
		"event":      {Expr: "n.event", Type: listquery.String, Filter: true},
		"case_id":    {Expr: "n.consult_id", Type: listquery.Int, Filter: true, Nullable: true},
		"created_at": {Expr: "n.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"read_at":    {Expr: "n.read_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
	},
	DefaultSort: []string{"CASE WHEN n.read_at IS NULL THEN 0 ELSE 1 END", "n.id DESC"},
	TieBreak:    "n.id DESC",
	ExtraParams: []string{"tab"},
}

var messageTabs = map[string]sq.Sqlizer{
	"all":    nil,
	"unread": sq.Expr("n.read_at IS NULL"),
	"read":   sq.Expr("n.read_at IS NOT NULL"),
}

// mine is the caller's notifications, without those of withdrawn notices.
func (s *Service) mine(ctx context.Context, b sq.SelectBuilder) sq.SelectBuilder {
	return b.From("notifications n").LeftJoin("notices nt ON nt.id = n.notice_id").
		Where("n.user_id = ? AND nt.withdrawn_at IS NULL", access.FromContext(ctx).UserID)
}

// List returns a page of the caller's notifications, unread first.
func (s *Service) List(ctx context.Context, req listquery.Request) ([]Notification, listquery.Pagination, error) {
	q, err := messageList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	tab, err := q.Tab(messageTabs)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	b := s.db.Builder()
	rows, page, err := listquery.Run[Notification](ctx, s.db, q, s.mine(ctx, b.Select(notificationColumns)).Where(tab),
		s.mine(ctx, b.Select("COUNT(*)")).Where(tab))
	if err != nil {
		return nil, page, err
	}
	lang := i18n.From(ctx)
	for i := range rows {
		rows[i].localize(lang)
	}
	return rows, page, nil
}

// Count returns the caller's notifications per tab (all, unread, read).
func (s *Service) Count(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := messageList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, s.db, q, s.mine(ctx, s.db.Builder().Select()), messageTabs)
}

// Latest returns the caller's newest unread notifications (the bell) and
// their number.
func (s *Service) Latest(ctx context.Context) (*Bell, error) {
	rows := []Notification{}
	b := s.db.Builder()
	if err := db.Select(ctx, s.db, &rows, s.mine(ctx, b.Select(notificationColumns)).Where("n.read_at IS NULL").OrderBy("n.id DESC").Limit(8)); err != nil {
		return nil, apperr.Wrap(err, "latest notifications")
	}
	var n int64
	if err := db.Get(ctx, s.db, &n, s.mine(ctx, b.Select("COUNT(*)")).Where("n.read_at IS NULL")); err != nil {
		return nil, apperr.Wrap(err, "unread notifications")
	}
	lang := i18n.From(ctx)
	for i := range rows {
		rows[i].localize(lang)
	}
	return &Bell{Unread: n, Latest: rows}, nil
}

// Bell is what the header's bell shows.
type Bell struct {
	Unread int64          `json:"unread"`
	Latest []Notification `json:"latest"`
}

// ReadInput names notifications to mark read.
type ReadInput struct {
	IDs []int64 `json:"ids" maxItems:"1000" doc:"The caller's notifications"`
}

// MarkRead marks some of the caller's notifications read.
func (s *Service) MarkRead(ctx context.Context, in ReadInput) error {
	if len(in.IDs) == 0 {
		return apperr.New(apperr.Invalid, "error.validation").Field("ids", "notify.select_first")
	}
	return s.markRead(ctx, in.IDs)
}

// MarkAllRead marks every notification of the caller read.
func (s *Service) MarkAllRead(ctx context.Context) error { return s.markRead(ctx, nil) }

// markRead marks the caller's notifications ids (nil: all) read.
func (s *Service) markRead(ctx context.Context, ids []int64) error {
	me := access.FromContext(ctx).UserID
	which, whichN := sq.Sqlizer(sq.Expr("1=1")), sq.Sqlizer(sq.Expr("1=1"))
	if ids != nil {
		which, whichN = sq.Eq{"id": ids}, sq.Eq{"n.id": ids}
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		authors, err := s.noticeAuthors(ctx, tx, sq.And{sq.Expr("n.user_id = ? AND n.read_at IS NULL", me), whichN})
		if err != nil {
			return err
		}
		if err := s.Raise(ctx, tx, nil, authors, TopicNotices); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("notifications").Set("read_at", s.now()).
			Where("user_id = ? AND read_at IS NULL", me).Where(which)); err != nil {
			return apperr.Wrap(err, "mark read")
		}
		return s.Raise(ctx, tx, nil, []int64{me}, TopicMessages)
	})
}

// Pending returns the caller's very important notices not yet
// acknowledged: shown as a modal at sign-in until acknowledged.
func (s *Service) Pending(ctx context.Context) ([]Notification, error) {
	rows := []Notification{}
	if err := db.Select(ctx, s.db, &rows, s.mine(ctx, s.db.Builder().Select(notificationColumns)).
		Where("n.kind = ? AND n.level = ? AND n.acked_at IS NULL", KindNotice, VeryImportant).OrderBy("n.id")); err != nil {
		return nil, apperr.Wrap(err, "pending notices")
	}
	lang := i18n.From(ctx)
	for i := range rows {
		rows[i].localize(lang)
	}
	return rows, nil
}

// Acknowledge records that the caller has read a notice of theirs.
func (s *Service) Acknowledge(ctx context.Context, id int64) error {
	me := access.FromContext(ctx).UserID
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.now()
		res, err := db.Exec(ctx, tx, tx.Builder().Update("notifications").Set("acked_at", now).
			Set("read_at", sq.Expr("COALESCE(read_at, ?)", now)).Where("id = ? AND user_id = ? AND kind = ?", id, me, KindNotice))
		if err != nil {
			return apperr.Wrap(err, "acknowledge")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.New(apperr.NotFound, "error.not_found")
		}
		authors, err := s.noticeAuthors(ctx, tx, sq.Eq{"n.id": id})
		if err != nil {
			return err
		}
		if err := s.Raise(ctx, tx, nil, authors, TopicNotices); err != nil {
			return err
		}
		return s.Raise(ctx, tx, nil, []int64{me}, TopicMessages)
	})
}

// noticeAuthors are the writers of the notices among the notifications
// which selects: their lists of who read what change.
func (s *Service) noticeAuthors(ctx context.Context, tx *db.Tx, which sq.Sqlizer) ([]int64, error) {
	var out []int64
	err := db.Select(ctx, tx, &out, tx.Builder().Select("DISTINCT nt.created_by").From("notifications n").
		Join("notices nt ON nt.id = n.notice_id").Where(which))
	return out, apperr.Wrap(err, "notice authors")
}
