// Package notify is the message centre: the notifications each user gets
// when something they must act on or know about happens (raised by the
// other domains inside the transaction of the change), the notices that
// administrators write, the timeout reminders, and the live stream
// (Server-Sent Events) that carries notifications and "this changed" hints
// to the browser. Across server processes the news travels through
// PostgreSQL LISTEN/NOTIFY; the notification rows stay the source of truth.
package notify

import (
	"context"
	"sync"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Kinds of notification.
const (
	KindCase    = "case"
	KindNotice  = "notice"
	KindTimeout = "timeout"
)

// Levels of a notification or notice (spec 2 §9 Notice levels).
const (
	Normal        = "normal"
	Important     = "important"
	VeryImportant = "very_important"
)

// Note is one notification to write: for one user, what happened (a
// message key and its parameters, rendered in the reader's language when
// read) and where to act.
type Note struct {
	UserID   int64
	Kind     string
	Level    string
	Event    string
	CaseID   *int64
	NoticeID *int64
	Link     string
	Key      string
	Params   map[string]any
	ActorID  *int64
}

// Audience names users by role and organisation (see user.Audience).
type Audience struct {
	Roles       []string
	CenterIDs   []int64
	HospitalIDs []int64
	UserIDs     []int64
}

// Person is a user as lists show them.
type Person struct {
	Name     string
	Username string
}

// Scope is what a principal may see of the organisations.
type Scope struct {
	All         bool
	CenterIDs   []int64
	HospitalIDs []int64
}

// Deps are the other domains notify asks.
type Deps struct {
	// Audience lists the enabled users an audience names.
	Audience func(ctx context.Context, a Audience) ([]int64, error)
	// Principal returns the principal of a session that may still listen
	// (not signed out, idle, expired or locked), without counting as
	// activity; an error otherwise.
	Principal func(ctx context.Context, sessionID int64) (*access.Principal, error)
	// Authenticate resolves a bearer token (clients that can send headers).
	Authenticate func(ctx context.Context, token string) (*access.Principal, error)
	// Scope is the organisations a principal may address notices to.
	Scope func(ctx context.Context, p *access.Principal) (Scope, error)
	// Names returns the name and user name of users (notice authors and readers).
	Names func(ctx context.Context, ids []int64) (map[int64]Person, error)
	// Setting reads a boolean system setting (delay_report, timeout_reason).
	Setting func(ctx context.Context, key string) bool
}

// Service is the message centre.
type Service struct {
	db    *db.DB
	deps  Deps
	clock clock.Clock
	hub   *Hub
	// Heartbeat is the interval of the stream's keep-alive comment, at
	// which it also checks that the session still lives.
	Heartbeat time.Duration

	ready     chan struct{}
	readyOnce sync.Once
}

// New returns the message centre; Start runs its live delivery.
func New(d *db.DB, deps Deps) *Service {
	s := &Service{db: d, deps: deps, clock: clock.New(time.UTC, nil), Heartbeat: 20 * time.Second, ready: make(chan struct{})}
	s.hub = newHub(s)
	return s
}

// UseClock sets the clock notifications are dated by.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now().UTC() }

// Hub is the live delivery of this process.
func (s *Service) Hub() *Hub { return s.hub }
