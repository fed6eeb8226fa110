// Package publication is the flow of a signed report: the publisher's
// release or return during the hesitation period, the administrator's
// verdict on a first report, printing and delivery, the report as PDF and
// its public verification. The reports themselves are diagnoses, which the
// diagnosis domain keeps; this package asks it for every change, in the
// transaction of the case's transition.
package publication

import (
	"context"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/diagnosis"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/i18n"
	"telepath/internal/report"
)

// Deps are the other domains the publication service calls.
type Deps struct {
	Cases     *consultation.Service
	Diagnoses *diagnosis.Service
	// ReportKind is the report kind (routine, frozen, cell) of a library.
	ReportKind func(ctx context.Context, libraryID int64) (string, error)
	// Watermark is the system's report watermark, nil when off.
	Watermark func(ctx context.Context) *report.Watermark
	// ReportLayout is the report template in use for a report kind; nil
	// prints with report.DefaultLayout.
	ReportLayout func(ctx context.Context, kind string) (report.Layout, error)
	// Signature is an expert's signature image (PNG or JPEG), nil when none.
	Signature func(ctx context.Context, userID int64) []byte
	// Images are the screenshots selected for a case's report.
	Images func(ctx context.Context, consultID int64) []report.Image
	// MarkerResults appends the case's recorded special-exam results to the
	// immunohistochemistry text the site entered.
	MarkerResults func(ctx context.Context, lang i18n.Lang, consultID int64, entered string) string
}

// Service runs the flow of signed reports.
type Service struct {
	deps  Deps
	clock clock.Clock
}

// New returns the publication service.
func New(deps Deps) *Service {
	return &Service{deps: deps}
}

// UseClock sets the clock the service reads the time (and the operator's
// time zone) from; the zero clock reads the system's.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now() }
