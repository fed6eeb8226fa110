// Package templates holds the texts an expert starts a diagnosis from:
// diagnosis templates and short standard terms, public (the
// administrators') or an expert's own.
package templates

import (
	"time"

	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Service keeps the diagnosis templates and terms.
type Service struct {
	db    *db.DB
	clock clock.Clock
}

// New returns the templates service.
func New(d *db.DB) *Service {
	return &Service{db: d}
}

// UseClock sets the clock the service reads the time (and the operator's
// time zone) from; the zero clock reads the system's.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now() }
