package diagnosis

import (
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the diagnosis endpoints (spec 2 §7 Diagnosis).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Diagnosis", []httpx.Route{
		{Method: "POST", Path: "/api/diagnosis/{id}/lock", Roles: access.Experts, Handler: httpx.ActionByID(s.Lock), ID: "diagnosis-lock", Summary: "Lock a case to diagnose it (one expert edits at a time)"},
		{Method: "POST", Path: "/api/diagnosis/{id}/unlock", Roles: access.Experts, Handler: httpx.ActionByID(s.Unlock), ID: "diagnosis-unlock", Summary: "Release the lock"},
		{Method: "POST", Path: "/api/diagnosis/{id}/reviewrecall", Roles: access.Experts, Handler: httpx.ActionByID(s.RecallReview), ID: "diagnosis-review-recall", Summary: "Take a diagnosis back from review"},
		{Method: "POST", Path: "/api/diagnosis/{id}/recall", Roles: access.Experts, Handler: httpx.ActionByID(s.RecallPublication), ID: "diagnosis-recall", Summary: "Recall a report in its hesitation period"},
		{Method: "GET", Path: "/api/diagnosis/{id}", Roles: access.CaseReaders, Handler: httpx.ByID(s.History), ID: "diagnosis-get", Summary: "Every version of a case's diagnosis (sites: released reports only)", Read: &httpx.Read{Action: "read.diagnosis"}},
		{Method: "POST", Path: "/api/diagnosis/{id}/save", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.Save), ID: "diagnosis-save", Summary: "Save the draft diagnosis", MaxBody: 128 << 10},
		{Method: "POST", Path: "/api/diagnosis/{id}/structured", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.SaveStructured), ID: "diagnosis-save-structured", Summary: "Save the structured report values with the draft diagnosis (checked against the template's fields; its rules are checked when publishing)", MaxBody: 64 << 10},
		{Method: "POST", Path: "/api/diagnosis/{id}/toreview", Roles: access.Experts, Handler: httpx.Action(s.toReview), ID: "diagnosis-to-review", Summary: "Send the diagnosis to a second expert"},
		{Method: "POST", Path: "/api/diagnosis/{id}/review_approve", Roles: access.Experts, Handler: httpx.Action(s.approveReview), ID: "diagnosis-review-approve", Summary: "Approve a diagnosis under review"},
		{Method: "POST", Path: "/api/diagnosis/{id}/reviewreturn", Roles: access.Experts, Handler: httpx.Action(s.returnReview), ID: "diagnosis-review-return", Summary: "Return a diagnosis under review with a note"},
		{Method: "POST", Path: "/api/diagnosis/{id}/publish", Roles: access.Experts, Handler: httpx.Action(s.publish), ID: "diagnosis-publish", Summary: "Publish the report now or after the hesitation period"},
		{Method: "POST", Path: "/api/diagnosis/{id}/return", Roles: access.Experts, Handler: httpx.Action(s.returnCase), ID: "diagnosis-return", Summary: "Return a case to the center with a reason"},
		{Method: "POST", Path: "/api/diagnosis/{id}/delay", Roles: access.Experts, Handler: httpx.Action(s.delay), ID: "diagnosis-delay", Summary: "Extend the time allowed by days, with a reason"},
		{Method: "POST", Path: "/api/diagnosis/{id}/update", Roles: access.Experts, Handler: httpx.Action(s.amend), ID: "diagnosis-amend", Summary: "Amend the released report: the case reopens for a new version (reason required)"},
		{Method: "POST", Path: "/api/admin/consultation/{id}/counter_audit", Roles: access.Admins, Handler: httpx.Action(s.counterAudit), ID: "counter-audit", Summary: "Ask the expert to reconsider a published report"},
		{Method: "POST", Path: "/api/diagnosis/{id}/counter_audit/confirm", Roles: access.Experts, Handler: httpx.Action(s.confirmCounterAudit), ID: "counter-audit-confirm", Summary: "Accept a counter-audit: the case reopens for a new version"},
		{Method: "POST", Path: "/api/diagnosis/{id}/counter_audit/reject", Roles: access.Experts, Handler: httpx.Action(s.rejectCounterAudit), ID: "counter-audit-reject", Summary: "Reject a counter-audit with a reason"},
		{Method: "POST", Path: "/api/diagnosis/{id}/handover", Roles: access.Experts, Handler: httpx.Action(s.handOver), ID: "diagnosis-handover", Summary: "Hand the case and its draft over to a colleague of the center (spec: /diagnosis/handover/{id}, which the router cannot hold beside /diagnosis/{id}/…)"},
		{Method: "POST", Path: "/api/diagnosis/handover/recall/{id}", Roles: access.Experts, Handler: httpx.ActionByID(s.deps.Cases.RecallHandover), ID: "diagnosis-handover-recall", Summary: "Take a handed-over case back before the colleague starts on it"},
		{Method: "POST", Path: "/api/diagnosis/{id}/referral", Roles: access.Experts, Handler: httpx.Action(s.referral), ID: "diagnosis-referral", Summary: "Refer the case to a different expert of the center, with a reason"},
		{Method: "GET", Path: "/api/diagnosis/{id}/exp_list/" + ChoiceOther, Roles: access.Experts, Handler: httpx.ByID(s.expertChoices(ChoiceOther)), ID: "diagnosis-experts-" + ChoiceOther, Summary: "Experts of the case's center to choose for a referral or handover (not the caller, not the assigned expert)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/exp_list/" + ChoiceReview, Roles: access.Experts, Handler: httpx.ByID(s.expertChoices(ChoiceReview)), ID: "diagnosis-experts-" + ChoiceReview, Summary: "Experts of the case's center to choose for a second-level review (not the caller)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/exp_list/" + ChoiceInvite, Roles: access.Experts, Handler: httpx.ByID(s.expertChoices(ChoiceInvite)), ID: "diagnosis-experts-" + ChoiceInvite, Summary: "Experts of the case's center to choose for an invitation (not the caller, not those with an unanswered invitation)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/not_view_count", Roles: access.CaseReaders, Handler: httpx.ByID(s.NotViewed), ID: "diagnosis-not-viewed", Summary: "Slides of the case the caller has not opened"},
		{Method: "GET", Path: "/api/diagnosis/{id}/view/{slide_id}", Roles: access.CaseReaders, Handler: httpx.Value(s.viewSlide), ID: "diagnosis-view-slide", Summary: "Record that the caller opened a slide of the case; returns how many remain unviewed"},
		{Method: "GET", Path: "/api/diagnosis/{id}/getPrevConsult_ID", Roles: access.Experts, Handler: httpx.ByID(s.neighbour(-1)), ID: "diagnosis-getPrevConsult_ID", Summary: "The caller's neighbouring case in the worklist (0: none)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/getNextConsult_ID", Roles: access.Experts, Handler: httpx.ByID(s.neighbour(1)), ID: "diagnosis-getNextConsult_ID", Summary: "The caller's neighbouring case in the worklist (0: none)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/same_case", Roles: access.SameCaseReaders, Handler: httpx.ByID(s.SameCases), ID: "diagnosis-same-case", Summary: "Earlier consultations of the same patient with their published diagnosis", Read: &httpx.Read{Action: "read.same_case"}},
		{Method: "GET", Path: "/api/diagnosis/list/statistical_count", Roles: access.Experts, Handler: httpx.Result(s.Dashboard), ID: "diagnosis-dashboard", Summary: "The expert's to-do counts"},
	})
	api.Mount("Reports", []httpx.Route{
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.Supplement), ID: "supplement-save-diagnosis", Summary: "Save the draft of a supplementary report", MaxBody: 128 << 10},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/publish", Roles: access.Experts, Handler: httpx.ActionByID(s.PublishSupplement), ID: "supplement-publish", Summary: "Publish the supplementary report beside the original"},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/toreview", Roles: access.Experts, Handler: httpx.Action(s.supplementToReview), ID: "supplement-to-review", Summary: "Send the supplementary report to a second expert"},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/reviewrecall", Roles: access.Experts, Handler: httpx.ActionByID(s.SupplementRecallReview), ID: "supplement-review-recall", Summary: "Take the supplementary report back from review"},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/approve", Roles: access.Experts, Handler: httpx.Action(s.approveSupplement), ID: "supplement-review-approve", Summary: "Accept a supplementary report under review"},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/reviewreturn", Roles: access.Experts, Handler: httpx.Action(s.returnSupplement), ID: "supplement-review-return", Summary: "Reject a supplementary report under review, with a reason"},
		{Method: "DELETE", Path: "/api/diagnosis/{id}/append_diagnosis/{supplement_id}", Roles: access.Experts, Handler: httpx.Action(s.discardSupplement), ID: "supplement-discard", Summary: "Discard the unpublished draft of a supplementary report"},
	})
}

// LendSupplement gives consultation the handler of the supplement route
// under /api/consultation, which its route table lists.
func (s *Service) LendSupplement() httpx.Handler { return httpx.ByIDWithBody(s.Supplement) }
