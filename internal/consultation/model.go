// Package consultation is the core of Telepath: a site registers a
// pathology case and sends it to a center for consultation; allocators
// assign it to experts; cases are recalled and returned. The life cycle is
// the transition table in lifecycle.go.
package consultation

import (
	"encoding/json"
	"time"
)

// CaseInput is the registration form (spec 2 §3 Case). Age is text so that
// a non-numeric age is reported rather than silently dropped.
type CaseInput struct {
	PathologyNumber         string `json:"pathology_number,omitempty" maxLength:"40"`
	OriginalPathologyNumber string `json:"original_pathology_number,omitempty" maxLength:"40"`
	LibraryID               *int64 `json:"library_id,omitempty"`
	Name                    string `json:"name,omitempty" maxLength:"50"`
	Age                     string `json:"age,omitempty" maxLength:"10"`
	AgeUnit                 string `json:"age_unit,omitempty" enum:"year,month,day"`
	Gender                  string `json:"gender,omitempty" enum:"male,female,unknown"`
	Nation                  string `json:"nation,omitempty" maxLength:"20"`
	Career                  string `json:"career,omitempty" maxLength:"50"`
	Birthday                string `json:"birthday,omitempty" maxLength:"10" doc:"YYYY-MM-DD"`
	Birthplace              string `json:"birthplace,omitempty" maxLength:"100"`
	IDType                  string `json:"id_type,omitempty" enum:"id_card,officer_card,passport,hk_macao_pass"`
	IDNumber                string `json:"id_number,omitempty" maxLength:"32"`
	IsMarried               string `json:"is_married,omitempty" enum:"married,unmarried,widowed,divorced"`
	Phone                   string `json:"phone,omitempty" maxLength:"20"`
	InspectionHospital      string `json:"inspection_hospital,omitempty" maxLength:"100"`
	InspectionDepartment    string `json:"inspection_department,omitempty" maxLength:"50"`
	InspectionDoctor        string `json:"inspection_doctor,omitempty" maxLength:"50"`
	InspectionDate          string `json:"inspection_date,omitempty" maxLength:"19" doc:"YYYY-MM-DD"`
	OutpatientNumber        string `json:"outpatient_number,omitempty" maxLength:"40"`
	AdmissionNumber         string `json:"admission_number,omitempty" maxLength:"40"`
	BedNo                   string `json:"bed_no,omitempty" maxLength:"20"`
	Ward                    string `json:"ward,omitempty" maxLength:"50"`
	TreatType               string `json:"treat_type,omitempty" enum:"clinic,hospital,physical_exam,clinic_to_hospital"`
	FeeType                 string `json:"fee_type,omitempty" enum:"self_pay,cooperative"`
	Expedite                bool   `json:"expedite,omitempty" doc:"Urgent case"`
	Secret                  bool   `json:"secret,omitempty" doc:"Privacy flag"`
	ClinicalDiagnosis       string `json:"clinical_diagnosis,omitempty" maxLength:"2000"`
	OperationSeen           string `json:"operation_seen,omitempty" maxLength:"2000"`
	GenerallySeen           string `json:"generally_seen,omitempty" maxLength:"2000"`
	MedicalHistory          string `json:"medical_history,omitempty" maxLength:"4000"`
	OtherTests              string `json:"other_tests,omitempty" maxLength:"2000"`
	Immunohistochemistry    string `json:"immunohistochemisty,omitempty" maxLength:"2000"`
	InfectiousSpecimen      bool   `json:"infectious_specimen,omitempty"`
	// InfectiousAgents: what the infectious specimen carries, among the
	// center's infectious_specimen options (diagnosis settings).
	InfectiousAgents []string `json:"infectious_agents,omitempty" maxItems:"20" doc:"What the infectious specimen carries (the center's infectious_specimen options)"`
	LastMenses       string   `json:"last_menses,omitempty" maxLength:"10"`
	Menopause        bool     `json:"menopause,omitempty"`
	ConsultPurpose   string   `json:"consult_purpose,omitempty" maxLength:"1000" doc:"What the site asks of the expert"`
	CenterID         *int64   `json:"center_id,omitempty"`
	ExpertID         *int64   `json:"expert_id,omitempty" doc:"Requested expert, by the hospital's expert-selection setting"`

	Specimens   []SpecimenInput   `json:"specimens,omitempty" maxItems:"50"`
	Attachments []AttachmentInput `json:"attachments,omitempty" maxItems:"50"`
	SlideIDs    []int64           `json:"slide_ids,omitempty" maxItems:"200" doc:"Uploaded slides to attach"`
}

// SpecimenInput is one specimen with its paraffin blocks.
type SpecimenInput struct {
	Name         string       `json:"name,omitempty" maxLength:"100"`
	Part         string       `json:"part,omitempty" maxLength:"100"`
	SpecimenType string       `json:"specimen_type,omitempty" enum:"ex_specimen,ex_paraffin_block,ex_slide"`
	Count        int          `json:"count,omitempty" minimum:"0" maximum:"1000"`
	Fixative     string       `json:"fixative,omitempty" maxLength:"50"`
	LeaveBodyAt  *time.Time   `json:"leave_body_at,omitempty"`
	FixedAt      *time.Time   `json:"fixed_at,omitempty"`
	Blocks       []BlockInput `json:"blocks,omitempty" maxItems:"100"`
}

// BlockInput is a paraffin block.
type BlockInput struct {
	Name             string `json:"name,omitempty" maxLength:"50"`
	SlideNumber      string `json:"slide_number,omitempty" maxLength:"50"`
	DrawPart         string `json:"draw_part,omitempty" maxLength:"100"`
	GrossDescription string `json:"gross_description,omitempty" maxLength:"2000"`
}

// AttachmentInput links an uploaded file to the case as one of the eight
// attachment types (spec 2 §3 Attachments).
type AttachmentInput struct {
	FileID int64 `json:"file_id"`
	Type   int   `json:"type" minimum:"0" maximum:"7"`
}

// Attachment types.
const (
	AttachReport = iota
	AttachImagingReport
	AttachApplicationForm
	AttachPreviousOpinion
	AttachPreviousReport
	AttachFullBodyImage
	AttachOther
	AttachSamplingGuidance
)

// PersonRef names a user offered in a select (an expert, a staff member).
type PersonRef struct {
	ID   int64  `json:"id" db:"id"`
	Name string `json:"name" db:"name"`
	// An expert's availability (PATCH /user/diagnosis/status), where known.
	Away      bool   `json:"away,omitempty" db:"-"`
	AwayNote  string `json:"away_note,omitempty" db:"-"`
	AwayUntil string `json:"away_until,omitempty" db:"-"`
	// Subspecialty: the expert is bound to the case's library (spec 2 §8);
	// such experts are listed first.
	Subspecialty bool `json:"subspecialty,omitempty" db:"-"`
	// An expert's role configuration: whether they take new cases, and the
	// libraries they are bound to.
	TakesCases     bool    `json:"-" db:"-"`
	Subspecialties []int64 `json:"-" db:"-"`
}

// Row is a consultation as lists show it.
type Row struct {
	ID              int64      `json:"id" db:"id"`
	ConsultNo       string     `json:"consult_no" db:"consult_no"`
	PathologyNumber string     `json:"pathology_number" db:"pathology_number"`
	PatientName     string     `json:"patient_name" db:"patient_name"`
	Gender          string     `json:"gender" db:"gender"`
	Age             *int       `json:"age" db:"age"`
	AgeUnit         string     `json:"age_unit" db:"age_unit"`
	HospitalID      int64      `json:"hospital_id" db:"hospital_id"`
	HospitalName    string     `json:"hospital_name" db:"hospital_name"`
	CenterID        *int64     `json:"center_id" db:"center_id"`
	CenterName      *string    `json:"center_name" db:"center_name"`
	ExpertID        *int64     `json:"expert_id" db:"expert_id"`
	ExpertName      *string    `json:"expert_name" db:"expert_name"`
	LibraryID       *int64     `json:"library_id" db:"library_id"`
	LibraryName     *string    `json:"library_name" db:"library_name"`
	Expedite        int        `json:"expedite" db:"expedite"`
	ChargeStatus    int        `json:"charge_status" db:"charge_status" doc:"1 not charged, 2 charged, 3 refunded"`
	SlideCount      int        `json:"slide_count" db:"slide_count"`
	InspectionDate  *time.Time `json:"inspection_date" db:"inspection_date"`
	SubmittedAt     *time.Time `json:"submitted_at" db:"submitted_at"`
	AssignedAt      *time.Time `json:"assigned_at" db:"assigned_at"`
	TimeoutAt       *time.Time `json:"timeout_at" db:"timeout_at"`
	Timing          string     `json:"timing" db:"-" enum:",soon,timeout" doc:"soon: close to its timeout; timeout: past it"`
	LockedBy        *int64     `json:"locked_by" db:"locked_by"`
	ReviewerID      *int64     `json:"reviewer_id" db:"reviewer_id"`
	ReleaseAt       *time.Time `json:"release_at" db:"release_at" doc:"When a report in its hesitation period is released to the site"`
	DelayDays       int        `json:"delay_days" db:"delay_days"`
	DelayReason     string     `json:"delay_reason" db:"delay_reason"`
	PrintDeliver    int        `json:"print_deliver_status" db:"print_deliver_status" doc:"1 to print, 2 to send, 3 sent"`
	RecallReason    string     `json:"recall_reason" db:"recall_reason"`
	ReturnReason    string     `json:"return_reason" db:"return_reason"`
	CreatedAt       time.Time  `json:"created_at" db:"created_at"`
	UpdatedAt       time.Time  `json:"updated_at" db:"updated_at"`
	State
	StatusLabel StatusLabel `json:"status_label" db:"-"`
	Actions     []Action    `json:"actions" db:"-" doc:"Transitions the caller may make now (the server checks each again)"`
	RemindAt    *time.Time  `json:"remind_at" db:"remind_at"`
	IsCollected bool        `json:"is_collected" db:"-" doc:"In the caller's favourites"`
	// Filed: the case's material is stored in the center's archive (internal/borrow).
	Filed bool `json:"filed" db:"filed" doc:"The case's slides and blocks are stored in the archive: the display status is Filed"`
	// HandoverFrom is the expert who handed the case over, while the colleague has not started on it.
	HandoverFrom *int64 `json:"handover_from" db:"handover_from"`
}

// Specimen is a stored specimen.
type Specimen struct {
	ID           int64      `json:"id" db:"id"`
	SerialNumber string     `json:"serial_number" db:"serial_number"`
	Name         string     `json:"name" db:"name"`
	Part         string     `json:"part" db:"part"`
	SpecimenType string     `json:"specimen_type" db:"specimen_type"`
	Count        int        `json:"count" db:"count"`
	Fixative     string     `json:"fixative" db:"fixative"`
	LeaveBodyAt  *time.Time `json:"leave_body_at" db:"leave_body_at"`
	FixedAt      *time.Time `json:"fixed_at" db:"fixed_at"`
	Blocks       []Block    `json:"blocks" db:"-"`
}

// Block is a stored paraffin block.
type Block struct {
	ID               int64  `json:"id" db:"id"`
	SpecimenID       int64  `json:"-" db:"specimen_id"`
	Name             string `json:"name" db:"name"`
	SlideNumber      string `json:"slide_number" db:"slide_number"`
	DrawPart         string `json:"draw_part" db:"draw_part"`
	GrossDescription string `json:"gross_description" db:"gross_description"`
}

// Attachment is a file attached to a case.
type Attachment struct {
	ID        int64     `json:"id" db:"id"`
	FileID    int64     `json:"file_id" db:"file_id"`
	Type      int       `json:"type" db:"type"`
	Filename  string    `json:"filename" db:"filename"`
	Size      int64     `json:"size" db:"size"`
	URL       string    `json:"url" db:"-"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
}

// Slide is a whole-slide image file of a case (spec 2 §3 Slide file mapping).
type Slide struct {
	ID                int64     `json:"id" db:"id"`
	Filename          string    `json:"filename" db:"filename"`
	Filesize          int64     `json:"filesize" db:"filesize"`
	SHA256            string    `json:"sha256" db:"sha256"`
	Status            int       `json:"status" db:"status"`
	Format            string    `json:"format" db:"format"`
	Viewable          int       `json:"viewable" db:"viewable"`
	Error             string    `json:"error" db:"error"`
	Ranse             string    `json:"ranse" db:"ranse" doc:"Stain, HE by default"`
	SpecimenName      string    `json:"specimen_name" db:"specimen_name"`
	ParaffinBlockName string    `json:"paraffin_block_name" db:"paraffin_block_name"`
	Sort              int       `json:"sort" db:"sort"`
	CreatedAt         time.Time `json:"created_at" db:"created_at"`
}

// Detail is everything about one consultation.
type Detail struct {
	Row
	Case        json.RawMessage `json:"case" doc:"The registration form as saved"`
	Specimens   []Specimen      `json:"specimens"`
	Attachments []Attachment    `json:"attachments"`
	Slides      []Slide         `json:"slides"`
	// The technician the allocator named to prepare the case, if any.
	StaffID   *int64 `json:"staff_id" db:"staff_id"`
	StaffName string `json:"staff_name" db:"staff_name"`
}
