// Package borrow lends a case's glass slides and paraffin blocks and keeps
// them in the archive (spec 2 §3 Borrow, Archive; §4 Borrow and Archive
// states; §9 borrow types; spec 1 §2 /borrow/manage). A hospital (site)
// asks to borrow its case's material; the case's center approves or
// refuses, lends it out until a due date and takes it back. The center also
// records that it received a case's material, stores it (room, box,
// locker), takes it out again (undo archive) and re-archives it; a stored
// case shows "Filed". It owns the tables borrows and archives.
package borrow

import (
	"time"

	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Service manages loans and the archive.
type Service struct {
	db    *db.DB
	clock clock.Clock
}

// New returns the borrow service.
func New(d *db.DB) *Service { return &Service{db: d} }

// UseClock sets the clock the service reads the time and the zone from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// dayLayout is how due dates are written and stored.
const dayLayout = "2006-01-02"

// Loan is one request to borrow a case's slides and blocks, as its
// hospital and its center see it.
type Loan struct {
	ID            int64       `json:"id" db:"id"`
	BorrowNo      string      `json:"borrow_no" db:"borrow_no"`
	ConsultID     int64       `json:"consult_id" db:"consult_id"`
	ConsultNo     string      `json:"consult_no" db:"consult_no"`
	PatientName   string      `json:"patient_name" db:"patient_name"`
	HospitalID    int64       `json:"hospital_id" db:"hospital_id"`
	HospitalName  string      `json:"hospital_name" db:"hospital_name"`
	CenterID      int64       `json:"center_id" db:"center_id"`
	CenterName    string      `json:"center_name" db:"center_name"`
	Type          Type        `json:"type" db:"type" enum:"family,outer,department,hospital"`
	Borrower      string      `json:"borrower" db:"borrower"`
	BorrowerPhone string      `json:"borrower_phone" db:"borrower_phone"`
	Purpose       string      `json:"purpose" db:"purpose"`
	Slides        int         `json:"slides" db:"slides" doc:"Glass slides lent"`
	Blocks        int         `json:"blocks" db:"blocks" doc:"Paraffin blocks lent"`
	Items         string      `json:"items" db:"items" doc:"Which slides and blocks (their numbers)"`
	DueDate       string      `json:"due_date" db:"due_date" doc:"The day the material is due back (YYYY-MM-DD, the center's zone)"`
	Deposit       int64       `json:"deposit" db:"deposit" doc:"Deposit taken when lending, yuan"`
	Payee         string      `json:"payee" db:"payee"`
	Damaged       bool        `json:"damaged" db:"damaged"`
	Compensation  int64       `json:"compensation" db:"compensation" doc:"Compensation for damage, yuan"`
	ReviewNote    string      `json:"review_note" db:"review_note" doc:"Why the request was not passed"`
	ReturnNote    string      `json:"return_note" db:"return_note"`
	Status        Status      `json:"status" db:"status" enum:"checking,passed,not_passed,borrowing,returned"`
	RequestedBy   string      `json:"requested_by" db:"requested_by_name"`
	ReviewedBy    *string     `json:"reviewed_by" db:"reviewed_by_name"`
	ReviewedAt    *time.Time  `json:"reviewed_at" db:"reviewed_at"`
	LentBy        *string     `json:"lent_by" db:"lent_by_name"`
	LentAt        *time.Time  `json:"lent_at" db:"lent_at"`
	ReturnedBy    *string     `json:"returned_by" db:"returned_by_name"`
	ReturnedAt    *time.Time  `json:"returned_at" db:"returned_at"`
	Version       int64       `json:"version" db:"version"`
	CreatedAt     time.Time   `json:"created_at" db:"created_at"`
	UpdatedAt     time.Time   `json:"updated_at" db:"updated_at"`
	Overdue       bool        `json:"overdue" db:"-" doc:"Lent and past its due date"`
	DueChanges    []DueChange `json:"due_changes,omitempty" db:"-" doc:"Changes of the due date, oldest first (the loan's detail only)"`
	Actions       []Action    `json:"actions" db:"-" doc:"What the caller may do now"`
}

// Archive is a case's material in the archive (one record per case, made
// when the center receives it); a case not received yet is listed with
// status to_receive.
type Archive struct {
	ConsultID    int64         `json:"consult_id" db:"consult_id"`
	ConsultNo    string        `json:"consult_no" db:"consult_no"`
	PatientName  string        `json:"patient_name" db:"patient_name"`
	HospitalID   int64         `json:"hospital_id" db:"hospital_id"`
	HospitalName string        `json:"hospital_name" db:"hospital_name"`
	CenterID     int64         `json:"center_id" db:"center_id"`
	SlideCount   int           `json:"slide_count" db:"slide_count" doc:"Slides registered with the case"`
	ArchiveNo    string        `json:"archive_no" db:"archive_no"`
	Type         string        `json:"type" db:"type" enum:",slide,block,slide_block" doc:"What is kept: slides, blocks or both"`
	Source       string        `json:"source" db:"source" doc:"Where the material came from"`
	Room         string        `json:"room" db:"room"`
	BoxNo        string        `json:"box_no" db:"box_no"`
	LockerNo     string        `json:"locker_no" db:"locker_no"`
	Note         string        `json:"note" db:"note" doc:"Why it was last taken out"`
	Archiver     *string       `json:"archiver" db:"archiver_name"`
	ReceivedAt   *time.Time    `json:"received_at" db:"received_at"`
	ArchivedAt   *time.Time    `json:"archived_at" db:"archived_at" doc:"First stored"`
	StoredAt     *time.Time    `json:"stored_at" db:"stored_at" doc:"Last stored (store or re-archive)"`
	Version      int64         `json:"version" db:"version"`
	Status       ArchiveStatus `json:"status" db:"status" enum:"to_receive,not_archived,archived"`
	OnLoan       bool          `json:"on_loan" db:"on_loan" doc:"Some of the case's material is lent out now"`
	Actions      []Action      `json:"actions" db:"-" doc:"What the caller may do now"`
}

// BorrowRequestInput asks to borrow a case's slides and blocks.
type BorrowRequestInput struct {
	ConsultID     int64  `json:"consult_id"`
	Type          string `json:"type,omitempty" enum:",family,outer,department,hospital"`
	Borrower      string `json:"borrower,omitempty" maxLength:"100"`
	BorrowerPhone string `json:"borrower_phone,omitempty" maxLength:"40"`
	Purpose       string `json:"purpose,omitempty" maxLength:"500"`
	Slides        int    `json:"slides,omitempty" minimum:"0" maximum:"999"`
	Blocks        int    `json:"blocks,omitempty" minimum:"0" maximum:"999"`
	Items         string `json:"items,omitempty" maxLength:"500"`
	DueDate       string `json:"due_date,omitempty" example:"2026-12-31" doc:"YYYY-MM-DD, today or later"`
}

// DueChange is one change of a loan's due date.
type DueChange struct {
	FromDate  string    `json:"from_date" db:"from_date"`
	ToDate    string    `json:"to_date" db:"to_date"`
	Reason    string    `json:"reason" db:"reason"`
	ChangedBy string    `json:"changed_by" db:"changed_by_name"`
	ChangedAt time.Time `json:"changed_at" db:"changed_at"`
}

// BorrowExtendInput changes a loan's due date.
type BorrowExtendInput struct {
	DueDate string `json:"due_date,omitempty" example:"2026-12-31" doc:"The new due date, YYYY-MM-DD, today or later"`
	Reason  string `json:"reason,omitempty" maxLength:"500"`
}

// BorrowReasonInput carries why a request is not passed.
type BorrowReasonInput struct {
	Reason string `json:"reason,omitempty" maxLength:"500"`
}

// BorrowLendInput records the hand-over: deposit and who took it.
type BorrowLendInput struct {
	Deposit int64  `json:"deposit,omitempty" minimum:"0" maximum:"1000000"`
	Payee   string `json:"payee,omitempty" maxLength:"100"`
}

// BorrowReturnInput records the material coming back.
type BorrowReturnInput struct {
	Damaged      bool   `json:"damaged,omitempty"`
	Compensation int64  `json:"compensation,omitempty" minimum:"0" maximum:"1000000"`
	Note         string `json:"note,omitempty" maxLength:"500"`
}

// ArchiveStoreInput is where the material is kept (store, re-archive).
type ArchiveStoreInput struct {
	Type      string `json:"type,omitempty" enum:",slide,block,slide_block"`
	Room      string `json:"room,omitempty" maxLength:"100"`
	BoxNo     string `json:"box_no,omitempty" maxLength:"100"`
	LockerNo  string `json:"locker_no,omitempty" maxLength:"100"`
	ArchiveNo string `json:"archive_no,omitempty" maxLength:"100"`
}

// ArchiveReceiveInput records the material's arrival at the center.
type ArchiveReceiveInput struct {
	Source string `json:"source,omitempty" maxLength:"200"`
}
