// Package shots keeps the images an expert captures from a case's slides;
// the selected ones are printed in the report. Saving, selecting and
// removing one are transitions of the consultation life cycle.
package shots

import (
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Service keeps the screenshots of cases.
type Service struct {
	db    *db.DB
	cases *consultation.Service
	files Files
	clock clock.Clock
}

// New returns the screenshot service; files stores the images.
func New(d *db.DB, cases *consultation.Service, files Files) *Service {
	return &Service{db: d, cases: cases, files: files}
}

// UseClock sets the clock the service reads the time from; the zero clock
// reads the system's.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now() }
