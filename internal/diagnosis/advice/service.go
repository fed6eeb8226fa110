// Package advice is what the expert asks the site to do on a case: special
// exams (with their marker results) and technical re-work; the site does
// it or passes a special exam to a third party. Ordering, doing and
// answering are transitions of the consultation life cycle.
package advice

import (
	"context"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Deps are the other domains the advice service calls.
type Deps struct {
	Cases *consultation.Service
	// Thirds lists the third parties of a center (advice passed on).
	Thirds func(ctx context.Context, centerID int64) ([]consultation.PersonRef, error)
}

// Service keeps the advice of cases.
type Service struct {
	db    *db.DB
	deps  Deps
	clock clock.Clock
}

// New returns the advice service.
func New(d *db.DB, deps Deps) *Service {
	return &Service{db: d, deps: deps}
}

// UseClock sets the clock the service reads the time (and the operator's
// time zone) from; the zero clock reads the system's.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now() }

func refuse(key string) error { return apperr.New(apperr.Conflict, key) }
