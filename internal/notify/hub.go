package notify

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"

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
type Hub struct {
	s     *Service
	mu    sync.RWMutex
	users map[int64]map[*client]struct{}
	in    chan announcement
	n     atomic.Int64
	Log   *slog.Logger
}

func newHub(s *Service) *Hub {
	return &Hub{s: s, users: map[int64]map[*client]struct{}{}, in: make(chan announcement, 4096), Log: slog.Default()}
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

// post queues an announcement for delivery; when the queue is full every
// stream is told to replay instead (nothing is lost, the rows are kept).
func (h *Hub) post(a announcement) {
	select {
	case h.in <- a:
	default:
		h.Log.Warn("live events: delivery queue full, streams resynchronise")
		h.resyncAll()
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
	}
}

func (h *Hub) resyncAll() {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, m := range h.users {
		for c := range m {
			c.send(frame{event: "resync"})
		}
	}
}

func (h *Hub) deliver(ctx context.Context, a announcement) {
	if a.Resync {
		h.resyncAll()
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
		rows, unread, err := h.s.batch(ctx, a.Batch)
		if err != nil {
			h.Log.Error("live events: load batch", "err", err)
			h.resyncAll()
		} else {
			h.deliverRows(rows, unread)
		}
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
			c.send(frame{id: rows[i].ID, event: "notification", data: data})
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

// batch loads the rows of a batch and the unread counts of their readers.
func (s *Service) batch(ctx context.Context, batch string) ([]Notification, map[int64]int64, error) {
	rows := []Notification{}
	b := s.db.Builder()
	if err := db.Select(ctx, s.db, &rows, b.Select(notificationColumns).From("notifications n").Where("n.batch = ?", batch).OrderBy("n.id")); err != nil {
		return nil, nil, err
	}
	users := make([]int64, 0, len(rows))
	for _, r := range rows {
		users = append(users, r.UserID)
	}
	unread, err := s.unreadOf(ctx, users)
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
