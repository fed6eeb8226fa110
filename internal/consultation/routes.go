package consultation

import (
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the consultation endpoints (spec 2 §7 Consultation),
// those other domains serve under its prefix with the handlers they lend.
func (s *Service) Routes(api *httpx.API, lent Lent) {
	lentRoutes(api, lent)
	const body = 256 << 10
	api.Mount("Consultations", []httpx.Route{
		{Method: "GET", Path: "/api/consultation/list", Roles: access.CaseReaders, Handler: httpx.ListOf(s.List), ID: "case-list", Summary: "List cases (params.tab selects a view: unsubmitted, to_allot, recall_pending, returned_site, timeout…)", Read: &httpx.Read{Action: "read.case_list", Object: "case_list"}},
		{Method: "GET", Path: "/api/consultation/count", Roles: access.CaseReaders, Handler: httpx.CountsOf(s.Count), ID: "case-count", Summary: "Case counts per tab"},
		{Method: "GET", Path: "/api/consultation/resources/{id}", Roles: access.CaseReaders, Handler: httpx.ByID(s.Detail), ID: "case-get", Summary: "A case with specimens, attachments, slides and the actions the caller may take", Read: &httpx.Read{Action: "read.case"}},
		{Method: "GET", Path: "/api/consultation/resources/{id}/slides", Roles: access.CaseReaders, Handler: httpx.ByID(s.caseSlides), ID: "case-slides", Summary: "Slides of a case", Read: &httpx.Read{Action: "read.case_slides"}},
		{Method: "GET", Path: "/api/consultation/resources/{id}/annexs", Roles: access.CaseReaders, Handler: httpx.ByID(s.caseAttachments), ID: "case-attachments", Summary: "Attachments of a case", Read: &httpx.Read{Action: "read.case_attachments"}},
		{Method: "GET", Path: "/api/consultation/resources/{id}/log", Roles: access.CaseReaders, Handler: httpx.ByID(s.Log), ID: "case-log", Summary: "History of a case", Read: &httpx.Read{Action: "read.case_log"}},
		{Method: "GET", Path: "/api/consultation/resources/{id}/handover", Roles: access.CaseReaders, Handler: httpx.ByID(s.Handovers), ID: "case-handovers", Summary: "Handovers of a case"},
		{Method: "GET", Path: "/api/consultation/resources/{id}/message", Roles: access.CaseReaders, Handler: httpx.ByID(s.Messages), ID: "case-messages", Summary: "Message thread of a case", Read: &httpx.Read{Action: "read.case_messages"}},
		{Method: "POST", Path: "/api/consultation/resources/{id}/message", Roles: access.CaseReaders, Handler: httpx.Value(s.postMessage), ID: "case-message-post", Summary: "Post a message (at most 150 characters)", MaxBody: 8 << 10},
		{Method: "DELETE", Path: "/api/consultation/resources/0/message/{id}", Roles: access.CaseReaders, Handler: httpx.ActionByID(s.DeleteMessage), ID: "case-message-delete", Summary: "Delete one of the caller's messages"},
		{Method: "GET", Path: "/api/consultation/resources/{id}/return/reason", Roles: access.CaseReaders, Handler: httpx.ByID(s.ReturnReason), ID: "case-return-reason", Summary: "Why a case was returned"},
		{Method: "GET", Path: "/api/consultation/resources/{id}/exp_list/hos", Roles: access.CaseReaders, Handler: httpx.ByID(s.CaseExperts), ID: "case-experts", Summary: "Experts of the case's center"},
		{Method: "GET", Path: "/api/consultation/resources/0/exp_list/center", Roles: access.CaseReaders, Handler: httpx.Value(s.centerExperts), ID: "center-experts", Summary: "Experts of a center the caller may send cases to or manage"},
		{Method: "GET", Path: "/api/consultation/status_labels", Roles: access.CaseReaders, Handler: httpx.Result(s.statusLabels), ID: "case-status-labels", Summary: "Every display status with its label and colour"},
		{Method: "GET", Path: "/api/config/consultation/return/reason", Roles: access.CaseReaders, Handler: httpx.Result(returnReasons), ID: "return-reasons", Summary: "Preset reasons for returning a case"},
		{Method: "GET", Path: "/api/consultation/form_options", Roles: access.HospitalRoles, Handler: httpx.Value(s.FormOptions), ID: "case-form-options", Summary: "The diagnosis settings the registration form uses for a center of the caller's hospital (fixative defaults, infectious specimen options)"},
		{Method: "POST", Path: "/api/consultation", Roles: access.HospitalRoles, Handler: httpx.WithBody(s.register), ID: "case-create", Summary: "Register a case (every rule checked)", MaxBody: body},
		{Method: "POST", Path: "/api/consultation/draft", Roles: access.HospitalRoles, Handler: httpx.WithBody(s.saveNewDraft), ID: "case-draft-create", Summary: "Save a new draft (formats checked only)", MaxBody: body},
		{Method: "POST", Path: "/api/consultation/{id}", Roles: access.HospitalRoles, Handler: httpx.ByIDWithBody(s.change), ID: "case-update", Summary: "Change a registration (every rule checked)", MaxBody: body},
		{Method: "POST", Path: "/api/consultation/caseinfo/{id}", Roles: access.HospitalRoles, Handler: httpx.ByIDWithBody(s.change), ID: "case-info-update", Summary: "Change the patient and clinical data of a registration", MaxBody: body},
		{Method: "POST", Path: "/api/consultation/draft/{id}", Roles: access.HospitalRoles, Handler: httpx.ByIDWithBody(s.saveDraft), ID: "case-draft-update", Summary: "Save a draft", MaxBody: body},
		{Method: "DELETE", Path: "/api/consultation/{id}", Roles: access.HospitalRoles, Handler: httpx.ActionByID(s.Delete), ID: "case-delete", Summary: "Delete a case never submitted"},
		{Method: "DELETE", Path: "/api/consultation/draft/{id}", Roles: access.HospitalRoles, Handler: httpx.ActionByID(s.Delete), ID: "case-draft-delete", Summary: "Delete a draft"},
		{Method: "POST", Path: "/api/consultation/submit/{id}", Roles: access.CaseSenders, Handler: httpx.ActionByID(s.Submit), ID: "case-submit", Summary: "Send a case to its center (needs a charge and slides)"},
		{Method: "POST", Path: "/api/consultation/consult_again/{id}", Roles: access.CaseSenders, Handler: httpx.ActionByID(s.ConsultAgain), ID: "case-consult-again", Summary: "Send a recalled or returned case again"},
		{Method: "POST", Path: "/api/consultation/batch_submit", Roles: access.CaseSenders, Handler: httpx.Value(s.batchSubmit), ID: "case-batch-submit", Summary: "Submit several cases; reports each one"},
		{Method: "POST", Path: "/api/consultation/recall/{id}", Roles: access.CaseSenders, Handler: httpx.Action(s.askRecall), ID: "case-recall", Summary: "Ask the center to give a submitted case back"},
		{Method: "POST", Path: "/api/consultation/batch_recall", Roles: access.CaseSenders, Handler: httpx.Value(s.batchRecall), ID: "case-batch-recall", Summary: "Ask for several recalls"},
		{Method: "POST", Path: "/api/consultation/collection", Roles: access.Experts, Handler: httpx.Action(s.collect), ID: "case-collect", Summary: "Add a case to the caller's favourites (listed with params.tab=collected)"},
		{Method: "DELETE", Path: "/api/consultation/collection/{id}", Roles: access.Experts, Handler: httpx.ActionByID(s.Uncollect), ID: "case-uncollect", Summary: "Remove a case from the caller's favourites"},
		{Method: "GET", Path: "/api/admin/consultation/{id}/recall/reason", Roles: access.Allocators, Handler: httpx.ByID(s.RecallReason), ID: "recall-reason", Summary: "Why the site asks for a recall"},
		{Method: "POST", Path: "/api/admin/consultation/{id}/recall/agree", Roles: access.Allocators, Handler: httpx.Action(s.answerRecall("agree")), ID: "recall-agree", Summary: "Answer a recall request: agree"},
		{Method: "POST", Path: "/api/admin/consultation/{id}/recall/reject", Roles: access.Allocators, Handler: httpx.Action(s.answerRecall("reject")), ID: "recall-reject", Summary: "Answer a recall request: reject"},
		{Method: "POST", Path: "/api/admin/consultation/{id}/recall/ignore", Roles: access.Allocators, Handler: httpx.Action(s.answerRecall("ignore")), ID: "recall-ignore", Summary: "Answer a recall request: ignore"},
		{Method: "POST", Path: "/api/admin/consultation/recall/batch_agree", Roles: access.Allocators, Handler: httpx.Value(s.batchAgreeRecall), ID: "recall-batch-agree", Summary: "Agree to several recalls"},
	})
	api.Mount("Distribution", []httpx.Route{
		{Method: "POST", Path: "/api/distribute/{id}/bindexpert", Roles: access.Allocators, Handler: httpx.Action(s.bindExpert), ID: "distribute-bind-expert", Summary: "Assign a case to an expert of its center"},
		{Method: "POST", Path: "/api/distribute/batch_bindexpert", Roles: access.Allocators, Handler: httpx.Value(s.batchBindExpert), ID: "distribute-batch-bind-expert", Summary: "Assign several cases to one expert"},
		{Method: "POST", Path: "/api/distribute/{id}/bindstaff", Roles: access.Allocators, Handler: httpx.Action(s.bindStaff), ID: "distribute-bind-staff", Summary: "Name the staff member for a case (staff_id 0: remove the one named)"},
		{Method: "GET", Path: "/api/distribute/{id}/staff", Roles: access.Allocators, Handler: httpx.ByID(s.CaseStaff), ID: "distribute-staff", Summary: "Staff members of the case's center, to name one for the case"},
		{Method: "POST", Path: "/api/distribute/{id}/referral", Roles: access.Allocators, Handler: httpx.Action(s.referral), ID: "distribute-referral", Summary: "Give an assigned case to a different expert"},
		{Method: "POST", Path: "/api/distribute/{id}/return", Roles: access.Allocators, Handler: httpx.Action(s.returnToSite), ID: "distribute-return", Summary: "Return a case to its hospital with a reason"},
	})
	api.Mount("Charges", []httpx.Route{
		{Method: "POST", Path: "/api/consultation/charge/{id}", Roles: access.CaseSenders, Handler: httpx.Action(s.charge), ID: "case-charge", Summary: "Charge a case for items"},
		{Method: "POST", Path: "/api/consultation/refund/{id}", Roles: access.CaseSenders, Handler: httpx.ActionByID(s.Refund), ID: "case-refund", Summary: "Refund the charge of a case not yet submitted"},
		{Method: "GET", Path: "/api/charge/list", Roles: access.ChargeReaders, Handler: httpx.ListOf(s.ListCharges), ID: "charge-list", Summary: "Charges of the cases the caller may see", Read: &httpx.Read{Action: "read.charge_list", Object: "charge_list"}},
		{Method: "POST", Path: "/api/charge/export", Roles: access.ChargeReaders, Handler: httpx.Raw(s.exportCharges), ID: "charge-export", Summary: "The filtered charge list as an Excel file", Read: &httpx.Read{Action: "export.charges", Object: "charge_list"}},
	})
}
