package notify

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
)

type streamIn struct {
	Accept      string `header:"Accept"`
	Ticket      string `query:"ticket" doc:"A stream ticket (POST /api/events/ticket), for EventSource"`
	Auth        string `header:"Authorization" doc:"Bearer token, for clients that can send it"`
	LastEventID string `header:"Last-Event-ID" doc:"The id of the last event received: the stream first replays what came after it"`
	Last        string `query:"last_event_id" doc:"Last-Event-ID, for clients that cannot set the header"`
}

// replayLimit bounds what one reconnect replays; a client further behind
// reads the rest from the message list.
const replayLimit = 500

// stream opens the caller's live event stream (GET /api/events).
func (s *Service) stream(ctx context.Context, in *streamIn) (*huma.StreamResponse, error) {
	if !strings.Contains(in.Accept, "text/event-stream") {
		return nil, apperr.New(apperr.Invalid, "events.accept")
	}
	p, lang, err := s.listener(ctx, in)
	if err != nil {
		return nil, err
	}
	last, err := s.lastEventID(ctx, p.UserID, firstNonEmpty(in.LastEventID, in.Last))
	if err != nil {
		return nil, err
	}
	c := &client{user: p.UserID, lang: lang, ch: make(chan frame, clientBuffer), gone: make(chan struct{})}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		s.hub.add(c)
		defer s.hub.remove(c)
		s.serve(hctx, p, c, last)
	}}, nil
}

// listener resolves who opens the stream: a ticket, or a bearer token.
// and the language of its events.
func (s *Service) listener(ctx context.Context, in *streamIn) (*access.Principal, i18n.Lang, error) {
	switch {
	case in.Ticket != "":
		return s.redeem(ctx, in.Ticket)
	case strings.HasPrefix(strings.ToLower(in.Auth), "bearer "):
		p, err := s.deps.Authenticate(ctx, strings.TrimSpace(in.Auth[7:]))
		if err != nil {
			return nil, "", apperr.New(apperr.Unauthorized, "error.unauthorized")
		}
		return p, i18n.From(ctx), nil
	}
	return nil, "", apperr.New(apperr.Unauthorized, "error.unauthorized")
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// lastEventID checks a Last-Event-ID: the position of one of the
// caller's own notifications, or none.
func (s *Service) lastEventID(ctx context.Context, user int64, text string) (int64, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(text, 10, 64)
	if err != nil || id < 0 {
		return 0, apperr.New(apperr.Invalid, "events.bad_last_id")
	}
	if id == 0 {
		return 0, nil
	}
	var owner int64
	err = db.Get(ctx, s.db, &owner, s.db.Builder().Select("user_id").From("notifications").Where("pos = ?", id))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && owner != user) {
		return 0, apperr.New(apperr.Invalid, "events.bad_last_id")
	}
	if err != nil {
		return 0, apperr.Wrap(err, "last event id")
	}
	return id, nil
}

func (s *Service) serve(hctx huma.Context, p *access.Principal, c *client, last int64) {
	ctx := hctx.Context()
	hctx.SetHeader("Content-Type", "text/event-stream")
	hctx.SetHeader("Cache-Control", "no-cache")
	hctx.SetHeader("X-Accel-Buffering", "no")
	hctx.SetStatus(http.StatusOK)
	w := hctx.BodyWriter()
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	write := func(f frame) bool {
		var b strings.Builder
		if f.id > 0 {
			fmt.Fprintf(&b, "id: %d\n", f.id)
		}
		if f.event != "" {
			fmt.Fprintf(&b, "event: %s\n", f.event)
		}
		if f.data != nil {
			fmt.Fprintf(&b, "data: %s\n", f.data)
		}
		b.WriteString("\n")
		_, err := w.Write([]byte(b.String()))
		return err == nil
	}
	// replay writes the caller's notifications committed after position
	// after. Positions follow commit order and the hub delivers in that
	// order, so "high", the last position this stream wrote, is all it
	// needs to skip what it already sent: a notification at or below it
	// was committed before it and written already.
	replay := func(after int64) (int64, bool) {
		rows := []Notification{}
		if err := db.Select(ctx, s.db, &rows, s.db.Builder().Select(notificationColumns).From("notifications n").
			Where("n.user_id = ? AND n.pos > ?", c.user, after).OrderBy("n.pos").Limit(replayLimit)); err != nil {
			return after, false
		}
		unread, _ := s.unreadOf(ctx, []int64{c.user})
		for _, r := range rows {
			if !write(frame{id: r.Pos, event: "notification", data: eventData(r, c.lang, unread[c.user])}) {
				return after, false
			}
			after = r.Pos
		}
		return after, true
	}
	if _, err := w.Write([]byte("retry: 3000\n\n")); err != nil {
		return
	}
	unread, _ := s.unreadOf(ctx, []int64{c.user})
	if !write(frame{event: "hello", data: helloData(unread[c.user])}) {
		return
	}
	high := last
	if last > 0 {
		var ok bool
		if high, ok = replay(last); !ok {
			return
		}
	}
	flush()
	// put writes a frame from the hub, unless this stream sent it already.
	put := func(f frame) bool {
		if f.id > 0 {
			if f.id <= high {
				return true
			}
			high = f.id
		}
		return write(f)
	}
	tick := time.NewTicker(s.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.gone:
			return // dropped: too far behind; the browser reconnects
		case <-tick.C:
			if _, err := s.deps.Principal(ctx, p.SessionID); err != nil {
				write(frame{event: "end"})
				flush()
				return
			}
			if _, err := w.Write([]byte(": ping\n\n")); err != nil {
				return
			}
			flush()
		case f := <-c.ch:
			if !put(f) {
				return
			}
			// Write what else is queued before one flush.
			for n := len(c.ch); n > 0; n-- {
				if !put(<-c.ch) {
					return
				}
			}
			flush()
		}
	}
}
