package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
)

// frame is one server-sent event.
type frame struct {
	id    int64 // 0: no id (hints, hello)
	event string
	data  []byte
}

// clientBuffer bounds what the server holds for one stream: a client that
// falls this far behind is dropped and reconnects with Last-Event-ID.
const clientBuffer = 64

type client struct {
	user    int64
	lang    i18n.Lang
	ch      chan frame
	gone    chan struct{}
	once    sync.Once
	dropped atomic.Bool
}

func (c *client) drop() {
	c.once.Do(func() { close(c.gone) })
}

// send queues f for c without waiting; a full buffer drops the client.
func (c *client) send(f frame) {
	select {
	case c.ch <- f:
	default:
		c.dropped.Store(true)
		c.drop()
	}
}

// Hub holds this process's open streams and delivers announcements to them.
//
// Notifications go out in commit order (their position, see migration
// 0044): on each announcement the hub reads every row committed after the
// last position it delivered, not only the announced batch. Announcements
// may arrive out of order (on SQLite each is posted after its commit by
// its own goroutine) or not at all (the LISTEN connection was down); the
// rows they stand for are still delivered, in order, at the next one. A
// stream therefore receives positions in increasing order and can skip
// what it already has by position alone.
type Hub struct {
	s     *Service
	mu    sync.RWMutex
	users map[int64]map[*client]struct{}
	in    chan announcement
	n     atomic.Int64
	// seen is the position of the last notification delivered, -1 until
	// known; only Run reads and writes it once Start has.
	seen int64
	// behind: announcements were dropped (the queue was full); Run
	// resynchronises.
	behind atomic.Bool
	Log    *slog.Logger
}

func newHub(s *Service) *Hub {
	return &Hub{s: s, users: map[int64]map[*client]struct{}{}, in: make(chan announcement, 4096), seen: -1, Log: slog.Default()}
}

// Clients is the number of open streams.
func (h *Hub) Clients() int64 { return h.n.Load() }

func (h *Hub) add(c *client) {
	h.mu.Lock()
	m := h.users[c.user]
	if m == nil {
		m = map[*client]struct{}{}
		h.users[c.user] = m
	}
	m[c] = struct{}{}
	h.mu.Unlock()
	h.n.Add(1)
}

func (h *Hub) remove(c *client) {
	h.mu.Lock()
	if m := h.users[c.user]; m != nil {
		delete(m, c)
		if len(m) == 0 {
			delete(h.users, c.user)
		}
	}
	h.mu.Unlock()
	h.n.Add(-1)
	c.drop()
}

// post queues an announcement for delivery. When the queue is full it
// does not wait: the hub resynchronises instead (nothing is lost, the
// rows are kept).
func (h *Hub) post(a announcement) {
	select {
	case h.in <- a:
	default:
		if !h.behind.Swap(true) {
			h.Log.Warn("live events: delivery queue full, streams resynchronise")
		}
	}
}

// Run delivers announcements until ctx ends.
func (h *Hub) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case a := <-h.in:
			h.deliver(ctx, a)
		}
		if h.behind.Swap(false) {
			h.deliver(ctx, announcement{Resync: true})
		}
	}
}

// start sets the position the hub delivers after: the last one committed.
func (h *Hub) start(ctx context.Context) error {
	return db.Get(ctx, h.s.db, &h.seen, h.s.db.Builder().Select("COALESCE(MAX(pos), 0)").From("notifications"))
}

// catchUpPage is how many rows the hub reads at a time.
const catchUpPage = 1000

// catchUp delivers, in commit order, every notification committed after
// the last one delivered.
func (h *Hub) catchUp(ctx context.Context) error {
	if h.seen < 0 {
		// The start could not read the database: begin from now rather
		// than send every stream the whole table.
		return h.start(ctx)
	}
	for {
		rows, unread, err := h.s.after(ctx, h.seen, catchUpPage)
		if err != nil {
			return err
		}
		h.deliverRows(rows, unread)
		if len(rows) > 0 {
			h.seen = rows[len(rows)-1].Pos
		}
		if len(rows) < catchUpPage {
			return nil
		}
	}
}

// resync follows a gap in the announcements (a lost LISTEN connection,
// a full queue): the notifications committed meanwhile are delivered, and
// every stream gets a new hello, on which the browser fetches its lists
// and badges again (the hints of the gap are lost).
func (h *Hub) resync(ctx context.Context) {
	h.deliverCatchUp(ctx)
	h.mu.RLock()
	users := make([]int64, 0, len(h.users))
	for u := range h.users {
		users = append(users, u)
	}
	h.mu.RUnlock()
	unread, err := h.s.unreadOf(ctx, users)
	if err != nil {
		h.Log.Error("live events: unread counts", "err", err)
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	for u, m := range h.users {
		hello := helloData(unread[u])
		for c := range m {
			c.send(frame{event: "hello", data: hello})
		}
	}
}

// deliverCatchUp catches up; when the database fails it tries again in a
// second, so that the rows are not left waiting for the next announcement.
func (h *Hub) deliverCatchUp(ctx context.Context) {
	if err := h.catchUp(ctx); err != nil && ctx.Err() == nil {
		h.Log.Error("live events: read notifications", "err", err)
		time.AfterFunc(time.Second, func() { h.post(announcement{Batch: "retry"}) })
	}
}

func helloData(unread int64) []byte {
	return []byte(fmt.Sprintf(`{"unread":%d}`, unread))
}

func (h *Hub) deliver(ctx context.Context, a announcement) {
	if a.Resync {
		h.resync(ctx)
		return
	}
	if a.Live != nil {
		f := frame{event: a.Event, data: a.Live}
		h.mu.RLock()
		for _, u := range a.Users {
			for c := range h.users[u] {
				c.send(f)
			}
		}
		h.mu.RUnlock()
		return
	}
	if a.Batch != "" {
		h.deliverCatchUp(ctx)
	}
	if len(a.Topics) > 0 {
		data, _ := json.Marshal(map[string]any{"topics": a.Topics})
		f := frame{event: "changed", data: data}
		h.mu.RLock()
		if a.All {
			for _, m := range h.users {
				for c := range m {
					c.send(f)
				}
			}
		} else {
			for _, u := range a.Users {
				for c := range h.users[u] {
					c.send(f)
				}
			}
		}
		h.mu.RUnlock()
	}
}

func (h *Hub) deliverRows(rows []Notification, unread map[int64]int64) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for i := range rows {
		cs := h.users[rows[i].UserID]
		if len(cs) == 0 {
			continue
		}
		byLang := map[i18n.Lang][]byte{}
		for c := range cs {
			data, ok := byLang[c.lang]
			if !ok {
				data = eventData(rows[i], c.lang, unread[rows[i].UserID])
				byLang[c.lang] = data
			}
			c.send(frame{id: rows[i].Pos, event: "notification", data: data})
		}
	}
}

// eventData is the payload of a notification event.
func eventData(n Notification, lang i18n.Lang, unread int64) []byte {
	n.localize(lang)
	b, _ := json.Marshal(struct {
		Notification
		Unread int64 `json:"unread"`
	}{n, unread})
	return b
}

// after loads up to limit notifications committed after position pos, in
// commit order, and the unread counts of their readers.
func (s *Service) after(ctx context.Context, pos int64, limit uint64) ([]Notification, map[int64]int64, error) {
	rows := []Notification{}
	b := s.db.Builder()
	if err := db.Select(ctx, s.db, &rows, b.Select(notificationColumns).From("notifications n").Where("n.pos > ?", pos).OrderBy("n.pos").Limit(limit)); err != nil {
		return nil, nil, err
	}
	users := make([]int64, 0, len(rows))
	for _, r := range rows {
		users = append(users, r.UserID)
	}
	unread, err := s.unreadOf(ctx, slices.Compact(slices.Sorted(slices.Values(users))))
	return rows, unread, err
}

// unreadOf counts the unread notifications of users.
func (s *Service) unreadOf(ctx context.Context, users []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	if len(users) == 0 {
		return out, nil
	}
	var counts []struct {
		UserID int64 `db:"user_id"`
		N      int64 `db:"n"`
	}
	err := db.Select(ctx, s.db, &counts, s.db.Builder().Select("n.user_id", "COUNT(*) AS n").From("notifications n").
		LeftJoin("notices nt ON nt.id = n.notice_id").
		Where(sq.Eq{"n.user_id": users}).Where("n.read_at IS NULL AND nt.withdrawn_at IS NULL").GroupBy("n.user_id"))
	for _, c := range counts {
		out[c.UserID] = c.N
	}
	return out, err
}
