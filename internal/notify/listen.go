package notify

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgxlisten"

	"telepath/internal/platform/db"
)

// ListenerName is the application_name of the LISTEN connection.
const ListenerName = "telepath-events"

// Start runs the live delivery of this process until ctx ends: the hub,
// and on PostgreSQL a listener on the events channel (dbURL), so that
// changes made by any process reach the streams held here.
func (s *Service) Start(ctx context.Context, dbURL string) {
	if err := s.hub.start(ctx); err != nil {
		s.hub.Log.Error("live events: last position", "err", err)
	}
	go s.hub.Run(ctx)
	if s.db.Dialect != db.Postgres {
		s.readyOnce.Do(func() { close(s.ready) })
		return
	}
	first := true
	l := &pgxlisten.Listener{
		Connect: func(ctx context.Context) (*pgx.Conn, error) {
			cfg, err := pgx.ParseConfig(dbURL)
			if err != nil {
				return nil, err
			}
			cfg.RuntimeParams["application_name"] = ListenerName
			return pgx.ConnectConfig(ctx, cfg)
		},
		ReconnectDelay: 2 * time.Second,
		LogError: func(_ context.Context, err error) {
			s.hub.Log.Warn("live events: listener", "err", err)
		},
	}
	l.Handle(Channel, listener{s: s, hub: s.hub, first: &first})
	go l.Listen(ctx) //nolint:errcheck // ends with ctx
}

type listener struct {
	s     *Service
	hub   *Hub
	first *bool
}

func (l listener) HandleNotification(_ context.Context, n *pgconn.Notification, _ *pgx.Conn) error {
	var a announcement
	if err := json.Unmarshal([]byte(n.Payload), &a); err != nil {
		return err
	}
	l.hub.post(a)
	return nil
}

// HandleBacklog runs when the listener (re)connects, once it listens.
// What was committed while it did not (before the first connection, or
// while a lost one was down) was announced to nobody here: the hub
// resynchronises from the last position it delivered, and after a lost
// connection every stream's lists are fetched again.
func (l listener) HandleBacklog(context.Context, string, *pgx.Conn) error {
	if *l.first {
		*l.first = false
		l.s.readyOnce.Do(func() { close(l.s.ready) })
		l.hub.post(announcement{Batch: "start"})
		return nil
	}
	l.hub.post(announcement{Resync: true})
	return nil
}

// Ready is closed once this process receives the live events of every
// process (at once on SQLite).
func (s *Service) Ready() <-chan struct{} { return s.ready }
