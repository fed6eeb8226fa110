// Package invitation is an expert asking colleagues of the center for
// their opinion on a case, and their replies. Asking and replying are
// transitions of the consultation life cycle.
package invitation

import (
	"context"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Deps are the other domains the invitation service calls.
type Deps struct {
	Cases *consultation.Service
	// Experts lists the experts of a center (those who may be invited).
	Experts func(ctx context.Context, centerID int64) ([]consultation.PersonRef, error)
}

// Service keeps the invitations of cases.
type Service struct {
	db    *db.DB
	deps  Deps
	clock clock.Clock
}

// New returns the invitation service.
func New(d *db.DB, deps Deps) *Service {
	return &Service{db: d, deps: deps}
}

// UseClock sets the clock the service reads the time (and the operator's
// time zone) from; the zero clock reads the system's.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now() }
