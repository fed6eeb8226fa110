// Package share shows a case to someone outside the platform by a link
// (spec 1 §2 /shareCase, spec 2 §4 Share): public, or secret with a code;
// for 1, 7 or 30 days or permanently; with the slides and, as chosen, the
// report, the attachments and the clinical data; the patient de-identified
// on request. It owns the tables shares, share_visits and share_failures.
// A visitor acts as no one: what a share shows is read as its owner, who
// must still see the case, and only what the share's options name.
package share

import (
	"context"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/report"
	"telepath/internal/slideserver"
)

// Deps are the questions the share domain asks other domains.
type Deps struct {
	// Cases loads a case as the principal in ctx sees it, and records a
	// share on it (the life cycle's share action, in tx).
	Cases Cases
	// Owner is the principal of an enabled user (the share's owner), as the
	// visit reads the case.
	Owner func(ctx context.Context, userID int64) (*access.Principal, error)
	// Slides issues share-signed slide URLs and forgets them when a share ends.
	Slides Slides
	// Report renders the case's current report PDF as the principal in ctx
	// sees it, with edit applied to what it prints.
	Report func(ctx context.Context, caseID int64, edit func(*report.Data)) ([]byte, error)
	// File reads an attachment's bytes (at most max).
	File func(ctx context.Context, fileID, max int64) ([]byte, string, error)
	// Watermark is the system watermark text ("" when off).
	Watermark func(ctx context.Context) string
}

// Cases is what the share domain asks of the consultation domain.
type Cases interface {
	Detail(ctx context.Context, id int64) (*consultation.Detail, error)
	Apply(ctx context.Context, id int64, name consultation.Action, detail string, change consultation.ChangeFunc) error
}

// Slides is what the share domain asks of the slide server.
type Slides interface {
	ShareViewer(ctx context.Context, slideID, shareID int64, label bool) (*slideserver.Viewer, error)
	ForgetShare(shareID int64)
	// Annotations are a slide's annotation sets as the principal in ctx sees them.
	Annotations(ctx context.Context, slideID int64) (*slideserver.Annotations, error)
	// StampImage draws the watermark into an image file (attachments).
	StampImage(b []byte, text string) ([]byte, string, error)
}

// Redaction says what a shared report leaves out and what it adds.
type Redaction struct {
	Deidentify bool   // no name, ID number, phone, hospital numbers or verify code
	Number     string // the neutral number printed instead of the case's numbers
	Watermark  string // drawn across every page
}

// apply edits a report's data as r says. The report prints no birthday.
func (r Redaction) apply(d *report.Data) {
	d.VerifyURL = "" // a QR code of a page outside the share
	if r.Deidentify {
		p := &d.Patient
		p.Name, p.IDNumber, p.Phone, p.OutpatientNumber, p.AdmissionNumber, p.BedNo, p.Ward = "", "", "", "", "", "", ""
		d.ReportNo, d.ConsultNo, d.PathologyNumber, d.VerifyCode = r.Number, r.Number, "", ""
	}
	w := shareMark(r.Watermark)
	if d.Watermark != nil {
		w.FontSize, w.Color = d.Watermark.FontSize, d.Watermark.Color
	}
	d.Watermark = &w
}

// shareMark is a share's watermark text as drawn over a PDF, unless the
// report's own settings say how it looks.
func shareMark(text string) report.Watermark {
	return report.Watermark{Text: text, FontSize: 16, Color: "#9ca3af"}
}

// Expiry choices in days; 0 is permanent.
var Expiries = []int{1, 7, 30, 0}

// Phase is where a share is in its life (spec 2 §4).
type Phase string

const (
	PhaseSharing   Phase = "sharing"
	PhasePermanent Phase = "permanent"
	PhaseExpired   Phase = "expired"
	PhaseCancelled Phase = "cancelled"
)

// Share is one link, as its owner lists it.
type Share struct {
	ID              int64      `json:"id" db:"id"`
	ConsultID       int64      `json:"consult_id" db:"consult_id"`
	ConsultNo       string     `json:"consult_no" db:"case_no"`
	PatientName     string     `json:"patient_name" db:"patient_name" doc:"For the owner only; never shown to visitors of a de-identified share"`
	UserID          int64      `json:"user_id" db:"user_id"`
	UserName        string     `json:"user_name" db:"owner_name"`
	Secret          bool       `json:"secret" db:"secret"`
	NeutralNo       string     `json:"neutral_no" db:"neutral_no"`
	WithReport      bool       `json:"with_report" db:"with_report"`
	WithAttachments bool       `json:"with_attachments" db:"with_attachments"`
	WithClinical    bool       `json:"with_clinical" db:"with_clinical"`
	WithAnnotations bool       `json:"with_annotations" db:"with_annotations"`
	Deidentify      bool       `json:"deidentify" db:"deidentify"`
	ExpiresAt       *time.Time `json:"expires_at" db:"expires_at"`
	CancelledAt     *time.Time `json:"cancelled_at" db:"cancelled_at"`
	Visits          int64      `json:"visits" db:"visits"`
	LastVisitAt     *time.Time `json:"last_visit_at" db:"last_visit_at"`
	CreatedAt       time.Time  `json:"created_at" db:"created_at"`
	Phase           Phase      `json:"phase" db:"-" enum:"sharing,permanent,expired,cancelled"`
	Actions         []Action   `json:"actions" db:"-" doc:"What the caller may do with the share now"`
}

// ShareCreated is a new share with its link and code, shown once: only their
// hashes are kept.
type ShareCreated struct {
	Share
	Token string `json:"token" doc:"The link's secret: /shareCase?c=<token>"`
	Code  string `json:"code,omitempty" doc:"The code a secret share asks for"`
}

// ShareInput creates a share.
type ShareInput struct {
	ConsultID       int64 `json:"consult_id" minimum:"1"`
	Secret          bool  `json:"secret,omitempty"`
	ExpiryDays      int   `json:"expiry_days" enum:"0,1,7,30" doc:"0 is permanent"`
	WithReport      bool  `json:"with_report,omitempty"`
	WithAttachments bool  `json:"with_attachments,omitempty"`
	WithClinical    bool  `json:"with_clinical,omitempty"`
	WithAnnotations bool  `json:"with_annotations,omitempty" doc:"Show the slides' annotations, read-only"`
	Deidentify      bool  `json:"deidentify,omitempty"`
}
