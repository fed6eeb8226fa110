package access

// Role groups, named once: route tables and rules say who may act by one of
// these names instead of spelling out a list. The order of a group is the
// order shown in the API document ("Roles: …").
var (
	// Any is the route declaration for "every signed-in user".
	Any = []string{"*"}

	// Admins administer the system: settings, libraries, templates, logs.
	Admins = []string{Admin}
	// Managers manage users, hospitals and charge items.
	Managers = []string{Admin, CenterAdmin}
	// Allocators assign cases to experts and answer recall requests.
	Allocators = []string{Allocator, Admin, CenterAdmin}

	// CaseReaders are the roles that see cases (each within its data scope).
	CaseReaders = []string{Admin, CenterAdmin, Site, Clinical, Uploader, Allocator, Expert, Staff, Publisher, QCExpert}
	// OrgReaders see centers and hospitals (each within its data scope).
	OrgReaders = []string{Admin, CenterAdmin, Allocator, Expert, Site, QCExpert, Uploader, Clinical}
	// CenterWide see every case of their center once it is diagnosed.
	CenterWide = []string{Allocator, CenterAdmin, Publisher, QCExpert}
	// DiagnosisReaders see every diagnosis of a case they see, not only published ones.
	DiagnosisReaders = []string{Expert, Admin, Allocator, CenterAdmin, Publisher, QCExpert}
	// SameCaseReaders search earlier cases of the same patient.
	SameCaseReaders = []string{Expert, Staff, QCExpert, Admin, CenterAdmin}
	// AdviceExporters export the advice and special exam lists.
	AdviceExporters = []string{Admin, CenterAdmin, Site, Clinical, Allocator, Expert}

	// SlideUploaders upload and manage slides.
	SlideUploaders = []string{Admin, Site, Uploader, Clinical}
	// SiteDoctors request advice and special exams.
	SiteDoctors = []string{Site, Clinical}
	// ReportHandlers receive, print and hand over reports.
	ReportHandlers = []string{Site, Clinical, Publisher}
	// HospitalRoles belong to a hospital (they register and send its
	// cases); CenterRoles belong to a center.
	HospitalRoles = []string{Site, Clinical, Uploader}
	// CaseSenders charge, submit, resend and recall their hospital's cases:
	// a clinician registers requests that the site completes, charges and
	// sends (spec 1 §2 Other roles).
	CaseSenders = []string{Site, Uploader}
	// ChargeReaders see charges (each within their scope): every case
	// reader but the clinician.
	ChargeReaders = []string{Admin, CenterAdmin, Site, Uploader, Allocator, Expert, Staff, Publisher, QCExpert}
	CenterRoles   = []string{CenterAdmin, Allocator, Expert}

	// FrozenBookers book frozen sections for their hospitals; FrozenReaders
	// see appointments and frozen cases (each within its scope); FrozenExperts
	// see the frozen-case reading list.
	FrozenBookers = []string{Site, Clinical}
	FrozenReaders = []string{Admin, CenterAdmin, Allocator, Site, Clinical, Expert, Staff}
	FrozenExperts = []string{Expert, Staff}
	// ConcordanceJudges compare a paraffin diagnosis with the frozen one: the
	// paraffin case's expert, or the center.
	ConcordanceJudges = []string{Expert, Allocator, Admin, CenterAdmin}

	// Statistics screens (spec 1 §2), each within the reader's scope:
	// consultation, bank, experts, the experts of the caller's cases, quality
	// and timeliness; StatQC opens HE, outside-hospital and diagnosis quality
	// and reads the QC targets; StatWall opens the wall view.
	StatConsultation       = []string{Admin, CenterAdmin, Site, Allocator, Expert}
	StatBank               = []string{Admin, CenterAdmin, Site, Allocator}
	StatExperts            = []string{Admin, CenterAdmin, Allocator}
	StatExpertConsultation = []string{Admin, CenterAdmin, Site, Allocator}
	StatQuality            = []string{Admin, CenterAdmin, Expert, QCExpert}
	StatQC                 = []string{Admin, CenterAdmin, QCExpert}
	StatWall               = []string{Admin, CenterAdmin, Allocator, QCExpert}

	// Experts diagnose; TemplateWriters keep diagnosis templates.
	Experts         = []string{Expert}
	TemplateWriters = []string{Expert, Admin}
	// Sharers share cases by link and list their shares.
	Sharers = []string{Expert, Admin}

	// Borrow and archive (/borrow/manage): BorrowReaders see loans (a site
	// its hospital's, asking to borrow its cases' slides and blocks; the
	// center its center's); BorrowKeepers approve, lend, take back and keep
	// the archive.
	BorrowReaders = []string{Admin, CenterAdmin, Site}
	BorrowKeepers = []string{Admin, CenterAdmin}

	// Publishers release reports; Thirds answer special exams.
	Publishers = []string{Publisher}
	Thirds     = []string{Third}

	// GalleryEditors annotate, check, reorder and edit a case's images: the
	// site while it edits the case, the assigned expert while diagnosing.
	GalleryEditors = []string{Site, Clinical, Uploader, Expert}
)
