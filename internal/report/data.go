package report

import (
	"time"

	"telepath/internal/platform/i18n"
)

// Data is everything a report prints. Field names follow the case model
// (consultation.CaseInput, Specimen, Block). Empty strings are printed as
// empty cells or leave their section out; nothing is required.
type Data struct {
	Lang i18n.Lang // labels, headings and dates; zero means Chinese

	CenterName   string // the diagnosing center, top of the header
	HospitalName string // the sending hospital
	ReportNo     string
	ReportClass  string // the report class the expert chose (report_class setting), printed under the number
	ConsultNo    string
	// PathologyNumber is the sending hospital's pathology number.
	PathologyNumber string

	Patient   Patient
	Specimens []Specimen

	Gross                string // gross description
	Microscopic          string // seen under the microscope
	Immunohistochemistry string
	Diagnosis            string // the opinion; for a frozen report the frozen result
	Remark               string
	CriticalValues       string

	// Images are printed two per row with their captions; four at most.
	// Bytes that do not decode as JPEG or PNG print "image unavailable".
	Images []Image

	Expert         string // the signing expert
	Reviewer       string // the reviewing (audit) doctor, if any
	SignatureImage []byte // the expert's handwritten signature, PNG or JPEG, optional

	ReportedAt  time.Time // when the expert signed; zero leaves it out
	PublishedAt time.Time // when the report was released; zero leaves it out
	// PrintedAt is printed in every footer; zero means now.
	PrintedAt time.Time
	// Location formats every time; nil keeps each time's own location.
	Location *time.Location

	// Supplementary marks a supplementary report (diagnosis type 1); Version
	// numbers the report's releases, printed when above 1 or supplementary.
	Supplementary bool
	Version       int

	// VerifyURL is encoded in the header's QR code; VerifyCode is printed
	// under it for readers who type it in. No QR code when VerifyURL is empty.
	VerifyURL  string
	VerifyCode string

	// Watermark is drawn diagonally across every page when set
	// (system config watermark {flag, text, fontSize, fontColor}).
	Watermark *Watermark
}

// Patient holds the case fields the patient table can show.
type Patient struct {
	Name                 string
	Gender               string // male, female, unknown (localized), or free text
	Age                  string
	AgeUnit              string // year (default), month, day
	InspectionDepartment string
	InspectionDoctor     string
	InspectionDate       string // YYYY-MM-DD as entered
	OutpatientNumber     string
	AdmissionNumber      string
	Ward                 string
	BedNo                string
	IDNumber             string
	Phone                string
	ClinicalDiagnosis    string
	MedicalHistory       string
}

// Specimen is one submitted specimen; Blocks are its paraffin block names.
type Specimen struct {
	SerialNumber string
	Name         string
	Part         string
	Blocks       []string
}

// Image is a photomicrograph or gross photo, JPEG or PNG.
type Image struct {
	Data    []byte
	Caption string
	Labels  []Label // annotations drawn on the image as printed
}

// Watermark is light diagonal text behind every page. FontSize is in points
// (default 16, scaled up for the page); Color is "#rgb", "#rrggbb" or
// "rgb(a)(r, g, b[, a])", light grey when empty or unreadable.
type Watermark struct {
	Text     string
	FontSize int
	Color    string
}

// MaxImages is how many images a report prints; more are ignored.
const MaxImages = 4
