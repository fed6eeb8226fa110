// Package diagnosis is the expert's work on a case: the lock that lets one
// expert edit, the diagnosis and its versions (supplementary reports
// included), review by a second expert, signing with its hesitation period,
// return, delay and counter-audit. It owns the diagnoses table; the report
// flow (package publication) asks it for every change of a signed report.
// Every change of a case's state goes through the consultation life cycle.
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
	FrozenVerdict    string `json:"frozen_verdict,omitempty" enum:",benign,malignant,deferred" doc:"A frozen case's intra-operative verdict: benign, malignant or deferred to paraffin"`
	ReportClass      string `json:"report_class,omitempty" maxLength:"200" doc:"The report class: one of the case's center's report_class setting, or empty"`
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
	FrozenVerdict    string     `json:"frozen_verdict" db:"frozen_verdict" enum:",benign,malignant,deferred"`
	ReportClass      string     `json:"report_class" db:"report_class" doc:"The report class chosen from the center's report_class setting (empty: none)"`
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
	// The structured report values the expert filled in, and their template.
	StructTemplateID *int64         `json:"struct_template_id" db:"struct_template_id"`
	StructValues     map[string]any `json:"struct_values" db:"-" doc:"Field key to value, as the structured template's fields say"`
	StructValuesRaw  string         `json:"-" db:"struct_values"`
}
