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
	// AllocateToThird says whether special exams may be passed to a third
	// party (the allocate_to_third setting; nil: they may).
	AllocateToThird func(context.Context) bool
}

// Service keeps the advice of cases.
type Service struct {
	db    *db.DB
	deps  Deps
	clock clock.Clock
}

// New returns the advice service.
func New(d *db.DB, deps Deps) *Service {
	s := &Service{db: d, deps: deps}
	if deps.Cases != nil { // the case lists the transfer only when it is allowed
		deps.Cases.Guard(consultation.ActAdviceTransfer, s.thirdAllowed)
	}
	return s
}

// thirdAllowed: the system lets special exams go to a third party.
func (s *Service) thirdAllowed(ctx context.Context, _ db.Querier, _ *consultation.Row) error {
	if s.deps.AllocateToThird != nil && !s.deps.AllocateToThird(ctx) {
		return refuse("advice.third_off")
	}
	return nil
}

// UseClock sets the clock the service reads the time (and the operator's
// time zone) from; the zero clock reads the system's.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now() }

func refuse(key string) error { return apperr.New(apperr.Conflict, key) }
