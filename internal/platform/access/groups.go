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
	CenterRoles   = []string{CenterAdmin, Allocator, Expert}

	// Experts diagnose; TemplateWriters keep diagnosis templates.
	Experts         = []string{Expert}
	TemplateWriters = []string{Expert, Admin}
	// Publishers release reports; Thirds answer special exams.
	Publishers = []string{Publisher}
	Thirds     = []string{Third}
)
