package notify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"slices"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Channel is the PostgreSQL NOTIFY channel of live events.
const Channel = "telepath_events"

// Topics a hint may name: what the receiving browser should fetch again.
const (
	TopicCases   = "cases"   // case lists, badges, worklists
	TopicNotices = "notices" // the administrator's notice list
)

// announcement tells every process what a committed change means for the
// streams it holds: that notification rows were written (Batch names
// them; the hub delivers them with every other row committed since the
// last it delivered), and the users (or everyone) whose screens show
// lists that changed.
type announcement struct {
	Batch  string   `json:"b,omitempty"`
	Users  []int64  `json:"u,omitempty"`
	All    bool     `json:"a,omitempty"`
	Topics []string `json:"t,omitempty"`
	// Live is an event sent as it is to Users' streams, never stored nor
	// replayed (a meeting's viewer state); Event names it.
	Live  json.RawMessage `json:"l,omitempty"`
	Event string          `json:"e,omitempty"`
	// Resync: announcements may have been missed (the listener
	// reconnected, the queue was full); see Hub.resync.
	Resync bool `json:"-"`
}

// maxHintUsers bounds a NOTIFY payload (8,000 bytes): beyond it a hint
// goes to every stream, which costs the others one refetch.
const maxHintUsers = 500

// Raise writes notes in tx and announces them (with a hint of topics to
// hintUsers) once tx commits. It writes nothing when there is nothing to say.
func (s *Service) Raise(ctx context.Context, tx *db.Tx, notes []Note, hintUsers []int64, topics ...string) error {
	a := announcement{Topics: topics}
	if len(notes) > 0 {
		a.Batch = newBatch()
		if err := s.insert(ctx, tx, a.Batch, notes); err != nil {
			return err
		}
	}
	if len(topics) > 0 {
		u := slices.Compact(slices.Sorted(slices.Values(hintUsers)))
		if len(u) > maxHintUsers {
			a.All = true
		} else {
			a.Users = u
		}
	}
	if a.Batch == "" && len(a.Users) == 0 && !a.All {
		return nil
	}
	return s.announce(ctx, tx, a)
}

// announce sends a through NOTIFY in tx on PostgreSQL (delivered to every
// listening process on commit) or to this process's hub after commit.
func (s *Service) announce(ctx context.Context, tx *db.Tx, a announcement) error {
	if tx.Dialect == db.Postgres {
		b, _ := json.Marshal(a)
		if _, err := tx.ExecContext(ctx, "SELECT pg_notify($1, $2)", Channel, string(b)); err != nil {
			return apperr.Wrap(err, "notify")
		}
		return nil
	}
	tx.AfterCommit(func() { s.hub.post(a) })
	return nil
}

// Live sends event with data to the open streams of users in every
// process, at once and only once: nothing is stored, a stream that is not
// open misses it (a meeting's viewer state, a pointer). On PostgreSQL it
// goes through NOTIFY like every announcement (payloads stay well under
// its 8,000 bytes: callers send small messages to few users).
func (s *Service) Live(ctx context.Context, users []int64, event string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return apperr.Wrap(err, "live event")
	}
	a := announcement{Users: users, Live: b, Event: event}
	if s.db.Dialect != db.Postgres {
		s.hub.post(a)
		return nil
	}
	p, _ := json.Marshal(a)
	_, err = s.db.ExecContext(ctx, "SELECT pg_notify($1, $2)", Channel, string(p))
	return apperr.Wrap(err, "notify")
}

func (s *Service) insert(ctx context.Context, tx *db.Tx, batch string, notes []Note) error {
	now := s.now()
	for chunk := range slices.Chunk(notes, 200) {
		b := tx.Builder().Insert("notifications").Columns("user_id", "kind", "level", "event", "consult_id", "notice_id", "link",
			"msg_key", "params", "actor_id", "batch", "created_at")
		for _, n := range chunk {
			params := "{}"
			if len(n.Params) > 0 {
				p, err := json.Marshal(n.Params)
				if err != nil {
					return apperr.Wrap(err, "notification params")
				}
				params = string(p)
			}
			level := n.Level
			if level == "" {
				level = Normal
			}
			b = b.Values(n.UserID, n.Kind, level, n.Event, n.CaseID, n.NoticeID, n.Link, n.Key, params, n.ActorID, batch, now)
		}
		if _, err := db.Exec(ctx, tx, b); err != nil {
			return apperr.Wrap(err, "insert notifications")
		}
	}
	return nil
}

func newBatch() string {
	b := make([]byte, 12)
	rand.Read(b) //nolint:errcheck // never fails
	return hex.EncodeToString(b)
}
