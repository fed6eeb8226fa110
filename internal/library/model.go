// Package library manages the pathology libraries ("banks", spec 2 §3): the
// registers a case is numbered in, with their sub-libraries, the pathology
// number rule, the report hesitation period and the report kind. It also
// answers the consultation domain's number questions: is this number valid
// for the library (CheckNumber), which number comes next (NextNumber), and
// is this a valid number range (CheckRange).
package library

import "time"

// Report kinds of a library (spec 2 §3 Diagnosis).
const (
	KindRoutine = "routine"
	KindFrozen  = "frozen"
	KindCell    = "cell"
)

// DefaultDelayHours is the hesitation period before a report is released
// (spec 2 §9: immediate or after three hours).
const DefaultDelayHours = 3

// Library is a pathology library or, with ParentID set, a sub-library.
type Library struct {
	ID           int64     `json:"id" db:"id"`
	Name         string    `json:"name" db:"name"`
	PisCode      string    `json:"pis_code" db:"pis_code" doc:"Code of the library in the hospital's pathology information system"`
	ParentID     *int64    `json:"parent_id" db:"parent_id"`
	ParentName   *string   `json:"parent_name" db:"parent_name"`
	NumberName   string    `json:"number_name" db:"number_name" doc:"Label of the number, e.g. 病理号"`
	Prefix       string    `json:"prefix" db:"prefix"`
	MiddleDigits int       `json:"middle_digits" db:"middle_digits" doc:"Digits after the prefix (4: the year); 0 for none"`
	Symbol       string    `json:"symbol" db:"symbol" doc:"Separator before the serial; empty for none"`
	DigitLength  int       `json:"digit_length" db:"digit_length" doc:"Digits of the serial; 0 leaves it free-form"`
	DelayHours   int       `json:"delay_hours" db:"delay_hours" doc:"Hesitation period before a signed report is released"`
	ReportKind   string    `json:"report_kind" db:"report_kind" enum:"routine,frozen,cell"`
	Status       int       `json:"status" db:"status" enum:"0,1"`
	Example      string    `json:"example" db:"-" doc:"A number that follows the rule, e.g. BL2026-00001"`
	Children     []Library `json:"children,omitempty" db:"-" doc:"Sub-libraries (tree=1 only)"`
	CreatedAt    time.Time `json:"created_at" db:"created_at"`
	UpdatedAt    time.Time `json:"updated_at" db:"updated_at"`
}

// Rule returns the library's pathology number rule.
func (l *Library) Rule() Rule {
	return Rule{Prefix: l.Prefix, MiddleDigits: l.MiddleDigits, Symbol: l.Symbol, DigitLength: l.DigitLength}
}

// LibraryInput is the editable part of a library. An update replaces every field;
// DelayHours, ReportKind and Status keep their value when omitted.
type LibraryInput struct {
	Name         string `json:"name,omitempty" maxLength:"100"`
	PisCode      string `json:"pis_code,omitempty" maxLength:"50"`
	ParentID     *int64 `json:"parent_id,omitempty" doc:"Parent library; set for a sub-library"`
	NumberName   string `json:"number_name,omitempty" maxLength:"50"`
	Prefix       string `json:"prefix,omitempty" maxLength:"50" doc:"Letters, digits, _ or -; at most 10"`
	MiddleDigits int    `json:"middle_digits,omitempty" doc:"0 to 10"`
	Symbol       string `json:"symbol,omitempty" maxLength:"50" doc:"Letters, digits, _ or -; at most 10"`
	DigitLength  int    `json:"digit_length,omitempty" doc:"0 to 10"`
	DelayHours   *int   `json:"delay_hours,omitempty" doc:"0 to 72 (default 3)"`
	ReportKind   string `json:"report_kind,omitempty" enum:"routine,frozen,cell"`
	Status       *int   `json:"status,omitempty" enum:"0,1"`
}
