// Package judge is the expert's verdict on the quality of a case's slides
// (grades A to D), a transition of the consultation life cycle.
package judge

import (
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Service keeps the verdicts on slides.
type Service struct {
	db    *db.DB
	cases *consultation.Service
	clock clock.Clock
}

// New returns the slide quality service.
func New(d *db.DB, cases *consultation.Service) *Service {
	return &Service{db: d, cases: cases}
}

// UseClock sets the clock the service reads the time from; the zero clock
// reads the system's.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now() }
