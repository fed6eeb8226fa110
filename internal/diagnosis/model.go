// Package diagnosis is the expert's work on a case: the lock that lets one
// expert edit, the diagnosis and its versions, review by a second expert,
// publication with its hesitation period, invitations and templates. Every
// change of a case's state goes through the consultation life cycle.
package diagnosis

import "time"

// Diagnosis statuses.
const (
	Draft     = "draft"
	ToReview  = "to_review"
	Approved  = "approved"
	Returned  = "returned"
	Published = "published"
)

// Diagnosis types (spec 2 §3).
const (
	TypeNormal     = 0
	TypeSupplement = 1
)

// Input is what the expert writes.
type Input struct {
	Microscopic      string `json:"microscopic,omitempty" maxLength:"20000" doc:"Seen under the microscope"`
	Opinion          string `json:"opinion,omitempty" maxLength:"10000" doc:"The diagnosis"`
	GrossDescription string `json:"gross_description,omitempty" maxLength:"10000"`
	Remark           string `json:"remark,omitempty" maxLength:"5000"`
	CriticalValues   string `json:"critical_values,omitempty" maxLength:"2000"`
}

// Diagnosis is one version of a case's diagnosis.
type Diagnosis struct {
	ID               int64      `json:"id" db:"id"`
	ConsultID        int64      `json:"consult_id" db:"consult_id"`
	Type             int        `json:"type" db:"type" doc:"0 normal, 1 supplementary"`
	Version          int        `json:"version" db:"version"`
	Status           string     `json:"status" db:"status" enum:"draft,to_review,approved,returned,published"`
	Microscopic      string     `json:"microscopic" db:"microscopic"`
	Opinion          string     `json:"opinion" db:"opinion"`
	GrossDescription string     `json:"gross_description" db:"gross_description"`
	Remark           string     `json:"remark" db:"remark"`
	CriticalValues   string     `json:"critical_values" db:"critical_values"`
	DoctorID         int64      `json:"doctor_id" db:"doctor_id"`
	DoctorName       string     `json:"doctor_name" db:"doctor_name"`
	ReviewerID       *int64     `json:"reviewer_id" db:"reviewer_id"`
	ReviewerName     *string    `json:"reviewer_name" db:"reviewer_name"`
	ReviewNote       string     `json:"review_note" db:"review_note"`
	ReportNo         string     `json:"report_no" db:"report_no"`
	VerifyCode       string     `json:"verify_code" db:"verify_code"`
	PublishedAt      *time.Time `json:"published_at" db:"published_at"`
	ReleaseAt        *time.Time `json:"release_at" db:"release_at"`
	CreatedAt        time.Time  `json:"created_at" db:"created_at"`
	UpdatedAt        time.Time  `json:"updated_at" db:"updated_at"`
	// FirstResult is the administrator's verdict on this first report after a counter-audit.
	FirstResult       string `json:"first_result" db:"first_result" enum:",consistent,minor_difference,major_difference"`
	FirstResultReason string `json:"first_result_reason" db:"first_result_reason"`
}

// Invitation asks another expert's opinion on a case.
type Invitation struct {
	ID          int64      `json:"id" db:"id"`
	ConsultID   int64      `json:"consult_id" db:"consult_id"`
	ConsultNo   string     `json:"consult_no" db:"consult_no"`
	PatientName string     `json:"patient_name" db:"patient_name"`
	InviterID   int64      `json:"inviter_id" db:"inviter_id"`
	InviterName string     `json:"inviter_name" db:"inviter_name"`
	InviteeID   int64      `json:"invitee_id" db:"invitee_id"`
	InviteeName string     `json:"invitee_name" db:"invitee_name"`
	Message     string     `json:"message" db:"message"`
	Reply       string     `json:"reply" db:"reply"`
	Status      int        `json:"status" db:"status" doc:"0 not replied, 1 replied"`
	CreatedAt   time.Time  `json:"created_at" db:"created_at"`
	RepliedAt   *time.Time `json:"replied_at" db:"replied_at"`
}

// Template is a reusable diagnosis text.
type Template struct {
	ID               int64     `json:"id" db:"id"`
	Name             string    `json:"name" db:"name"`
	Category         string    `json:"category" db:"category"`
	Microscopic      string    `json:"microscopic" db:"microscopic"`
	Opinion          string    `json:"opinion" db:"opinion"`
	GrossDescription string    `json:"gross_description" db:"gross_description"`
	Public           bool      `json:"public" db:"-"`
	OwnerID          *int64    `json:"owner_id" db:"owner_id"`
	CreatedAt        time.Time `json:"created_at" db:"created_at"`
	UpdatedAt        time.Time `json:"updated_at" db:"updated_at"`
}

// TemplateInput is the editable part of a template.
type TemplateInput struct {
	Name             string `json:"name,omitempty" maxLength:"100"`
	Category         string `json:"category,omitempty" maxLength:"50"`
	Microscopic      string `json:"microscopic,omitempty" maxLength:"20000"`
	Opinion          string `json:"opinion,omitempty" maxLength:"10000"`
	GrossDescription string `json:"gross_description,omitempty" maxLength:"10000"`
	Public           bool   `json:"public,omitempty" doc:"Offered to every expert (administrators only)"`
}
