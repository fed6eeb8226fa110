package diagnosis

import (
	"net/http"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the diagnosis endpoints (spec 2 §7 Diagnosis) and the
// public report verification page on mux.
func (s *Service) Routes(api *httpx.API, mux *http.ServeMux) {
	mux.HandleFunc("GET /verify/{code}", s.verifyPage)
	api.Mount("Diagnosis", []httpx.Route{
		{Method: "POST", Path: "/api/diagnosis/{id}/lock", Roles: access.Experts, Handler: httpx.ActionByID(s.Lock), ID: "diagnosis-lock", Summary: "Lock a case to diagnose it (one expert edits at a time)"},
		{Method: "POST", Path: "/api/diagnosis/{id}/unlock", Roles: access.Experts, Handler: httpx.ActionByID(s.Unlock), ID: "diagnosis-unlock", Summary: "Release the lock"},
		{Method: "POST", Path: "/api/diagnosis/{id}/reviewrecall", Roles: access.Experts, Handler: httpx.ActionByID(s.RecallReview), ID: "diagnosis-review-recall", Summary: "Take a diagnosis back from review"},
		{Method: "POST", Path: "/api/diagnosis/{id}/recall", Roles: access.Experts, Handler: httpx.ActionByID(s.RecallPublication), ID: "diagnosis-recall", Summary: "Recall a report in its hesitation period"},
		{Method: "GET", Path: "/api/diagnosis/{id}", Roles: access.CaseReaders, Handler: httpx.ByID(s.History), ID: "diagnosis-get", Summary: "Every version of a case's diagnosis (sites: released reports only)", Read: &httpx.Read{Action: "read.diagnosis"}},
		{Method: "POST", Path: "/api/diagnosis/{id}/save", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.Save), ID: "diagnosis-save", Summary: "Save the draft diagnosis", MaxBody: 128 << 10},
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
		{Method: "POST", Path: "/api/diagnosis/{id}/invited", Roles: access.Experts, Handler: httpx.Action(s.invite), ID: "diagnosis-invite", Summary: "Invite experts of the center to give their opinion"},
		{Method: "GET", Path: "/api/diagnosis/{id}/invited", Roles: access.CaseReaders, Handler: httpx.ByID(s.CaseInvitations), ID: "diagnosis-invitations", Summary: "Invitations of a case with their replies", Read: &httpx.Read{Action: "read.invitations"}},
		{Method: "GET", Path: "/api/diagnosis/{id}/invited/info", Roles: access.Experts, Handler: httpx.ByID(s.InvitationInfo), ID: "diagnosis-invitation-info", Summary: "The caller's invitations to a case (to answer them in the workspace)"},
		{Method: "POST", Path: "/api/diagnosis/{id}/invited/{invite_id}", Roles: access.Experts, Handler: httpx.Action(s.replyInvitation), ID: "diagnosis-invite-reply", Summary: "Answer an invitation to a case"},
		{Method: "GET", Path: "/api/diagnosis/invitations", Roles: access.Experts, Handler: httpx.Value(s.myInvitations), ID: "diagnosis-my-invitations", Summary: "Invitations the caller received (or sent, with sent=true)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/exp_list/" + ChoiceOther, Roles: access.Experts, Handler: httpx.ByID(s.expertChoices(ChoiceOther)), ID: "diagnosis-experts-" + ChoiceOther, Summary: "Experts of the case's center to choose for a referral or handover (not the caller, not the assigned expert)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/exp_list/" + ChoiceReview, Roles: access.Experts, Handler: httpx.ByID(s.expertChoices(ChoiceReview)), ID: "diagnosis-experts-" + ChoiceReview, Summary: "Experts of the case's center to choose for a second-level review (not the caller)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/exp_list/" + ChoiceInvite, Roles: access.Experts, Handler: httpx.ByID(s.expertChoices(ChoiceInvite)), ID: "diagnosis-experts-" + ChoiceInvite, Summary: "Experts of the case's center to choose for an invitation (not the caller, not those with an unanswered invitation)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/not_view_count", Roles: access.CaseReaders, Handler: httpx.ByID(s.NotViewed), ID: "diagnosis-not-viewed", Summary: "Slides of the case the caller has not opened"},
		{Method: "GET", Path: "/api/diagnosis/{id}/view/{slide_id}", Roles: access.CaseReaders, Handler: httpx.Value(s.viewSlide), ID: "diagnosis-view-slide", Summary: "Record that the caller opened a slide of the case; returns how many remain unviewed"},
		{Method: "GET", Path: "/api/diagnosis/{id}/getPrevConsult_ID", Roles: access.Experts, Handler: httpx.ByID(s.neighbour(-1)), ID: "diagnosis-getPrevConsult_ID", Summary: "The caller's neighbouring case in the worklist (0: none)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/getNextConsult_ID", Roles: access.Experts, Handler: httpx.ByID(s.neighbour(1)), ID: "diagnosis-getNextConsult_ID", Summary: "The caller's neighbouring case in the worklist (0: none)"},
		{Method: "GET", Path: "/api/diagnosis/{id}/same_case", Roles: access.SameCaseReaders, Handler: httpx.ByID(s.SameCases), ID: "diagnosis-same-case", Summary: "Earlier consultations of the same patient with their published diagnosis", Read: &httpx.Read{Action: "read.same_case"}},
		{Method: "GET", Path: "/api/diagnosis/list/statistical_count", Roles: access.Experts, Handler: httpx.Result(s.Dashboard), ID: "diagnosis-dashboard", Summary: "The expert's to-do counts"},
		{Method: "POST", Path: "/api/diagnosis/{id}/save_shots", Roles: access.Experts, Handler: httpx.Value(s.saveShot), ID: "diagnosis-save-shot", Summary: "Save an image captured from a slide to the case (multipart: file JPEG or PNG at most 5 MB, slide_id, caption)", MaxBody: MaxShotBytes + 64<<10},
		{Method: "GET", Path: "/api/diagnosis/{id}/shots", Roles: access.CaseReaders, Handler: httpx.ByID(s.Shots), ID: "diagnosis-shots", Summary: "Screenshots saved to a case", Read: &httpx.Read{Action: "read.shots"}},
		{Method: "GET", Path: "/api/diagnosis/{id}/shots/{shot_id}/image", Roles: access.CaseReaders, Handler: httpx.Raw(s.shotImage), ID: "diagnosis-shot-image", Summary: "The image of a screenshot", Read: &httpx.Read{Action: "read.shot_image"}},
		{Method: "PATCH", Path: "/api/diagnosis/{id}/shots/{shot_id}", Roles: access.Experts, Handler: httpx.Value(s.updateShot), ID: "diagnosis-shot-update", Summary: "Select a screenshot for the report, or change its caption"},
		{Method: "DELETE", Path: "/api/diagnosis/{id}/shots/{shot_id}", Roles: access.Experts, Handler: httpx.Action(s.deleteShot), ID: "diagnosis-shot-delete", Summary: "Remove a screenshot from the case"},
		{Method: "POST", Path: "/api/admin/change_diagnosis_first_result", Roles: access.Admins, Handler: httpx.ActionWithBody(s.ChangeFirstResult), ID: "change-first-result", Summary: "Record whether the first report stands, during a counter-audit"},
	})
	api.Mount("Reports", []httpx.Route{
		{Method: "GET", Path: "/api/diagnosis/report/preview/{id}", Roles: access.CaseReaders, Handler: httpx.Raw(s.reportPreview), ID: "report-preview", Summary: "The case's report as PDF", Read: &httpx.Read{Action: "read.report"}},
		{Method: "POST", Path: "/api/report/print/{id}", Roles: access.ReportHandlers, Handler: httpx.ActionByID(s.MarkPrinted), ID: "report-print", Summary: "Record that the case's report was printed"},
		{Method: "POST", Path: "/api/report/deliver/{id}", Roles: access.ReportHandlers, Handler: httpx.ActionByID(s.MarkDelivered), ID: "report-deliver", Summary: "Record that the printed report was delivered"},
		{Method: "POST", Path: "/api/consultation/append_diagnosis/{id}", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.Supplement), ID: "supplement-save", Summary: "Save the draft of a supplementary report", MaxBody: 128 << 10},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.Supplement), ID: "supplement-save-diagnosis", Summary: "Save the draft of a supplementary report", MaxBody: 128 << 10},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/publish", Roles: access.Experts, Handler: httpx.ActionByID(s.PublishSupplement), ID: "supplement-publish", Summary: "Publish the supplementary report beside the original"},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/toreview", Roles: access.Experts, Handler: httpx.Action(s.supplementToReview), ID: "supplement-to-review", Summary: "Send the supplementary report to a second expert"},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/reviewrecall", Roles: access.Experts, Handler: httpx.ActionByID(s.SupplementRecallReview), ID: "supplement-review-recall", Summary: "Take the supplementary report back from review"},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/approve", Roles: access.Experts, Handler: httpx.Action(s.approveSupplement), ID: "supplement-review-approve", Summary: "Accept a supplementary report under review"},
		{Method: "POST", Path: "/api/diagnosis/{id}/append_diagnosis/reviewreturn", Roles: access.Experts, Handler: httpx.Action(s.returnSupplement), ID: "supplement-review-return", Summary: "Reject a supplementary report under review, with a reason"},
		{Method: "DELETE", Path: "/api/diagnosis/{id}/append_diagnosis/{supplement_id}", Roles: access.Experts, Handler: httpx.Action(s.discardSupplement), ID: "supplement-discard", Summary: "Discard the unpublished draft of a supplementary report"},
		{Method: "POST", Path: "/api/consultation/publisher/publish/{id}", Roles: access.Publishers, Handler: httpx.ActionByID(s.PublisherPublish), ID: "publisher-publish", Summary: "Release a report in its hesitation period now"},
		{Method: "POST", Path: "/api/consultation/publisher/return/{id}", Roles: access.Publishers, Handler: httpx.Action(s.publisherReturn), ID: "publisher-return", Summary: "Return a report in its hesitation period to the expert, with a reason"},
		{Method: "GET", Path: "/api/report/verify/{code}", Public: true, Handler: httpx.Value(s.verify), ID: "report-verify", Summary: "Check a report's authenticity by the code printed on it"},
	})
	api.Mount("Advice", []httpx.Route{
		{Method: "POST", Path: "/api/diagnosis/{id}/advice", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.OrderAdvice), ID: "advice-order", Summary: "Order special exams or technical re-work from the site", MaxBody: 64 << 10},
		{Method: "GET", Path: "/api/diagnosis/{id}/advice", Roles: access.CaseReaders, Handler: httpx.ByID(s.adviceOfKind("")), ID: "advice-of-case", Summary: "Advice of a case, both kinds", Read: &httpx.Read{Action: "read.case_advice"}},
		{Method: "DELETE", Path: "/api/diagnosis/{id}/advice", Roles: access.Experts, Handler: httpx.Action(s.cancelAdvice(AdviceSpecial)), ID: "advice-cancel", Summary: "Withdraw pending advice for special exams (body: ids)"},
		{Method: "DELETE", Path: "/api/diagnosis/{id}/doctor_advice", Roles: access.Experts, Handler: httpx.Action(s.cancelAdvice(AdviceTechnical)), ID: "doctor_advice-cancel", Summary: "Withdraw pending advice for technical re-work (body: ids)"},
		{Method: "GET", Path: "/api/consultation/advice/{id}", Roles: access.CaseReaders, Handler: httpx.ByID(s.adviceOfKind(AdviceSpecial)), ID: "case-advice", Summary: "Advice for special exams of a case", Read: &httpx.Read{Action: "read.case_advice"}},
		{Method: "GET", Path: "/api/consultation/doctor_advice/{id}", Roles: access.CaseReaders, Handler: httpx.ByID(s.adviceOfKind(AdviceTechnical)), ID: "case-doctor_advice", Summary: "Advice for technical re-work of a case", Read: &httpx.Read{Action: "read.case_advice"}},
		{Method: "POST", Path: "/api/consultation/advice/execute/{id}", Roles: access.SiteDoctors, Handler: httpx.Action(s.executeAdvice(AdviceSpecial)), ID: "advice-execute", Summary: "Record that the site did the special exams asked (id: advice)"},
		{Method: "POST", Path: "/api/consultation/doctor_advice/execute/{id}", Roles: access.SiteDoctors, Handler: httpx.Action(s.executeAdvice(AdviceTechnical)), ID: "doctor_advice-execute", Summary: "Record that the site did the technical re-work asked (id: advice)"},
		{Method: "POST", Path: "/api/consultation/advice/transfer/{id}", Roles: access.SiteDoctors, Handler: httpx.Action(s.transferAdvice), ID: "advice-transfer", Summary: "Pass a special exam to a third party (id: advice)"},
		{Method: "GET", Path: "/api/consultation/resources/{id}/third", Roles: access.SiteDoctors, Handler: httpx.ByID(s.caseThirds), ID: "case-thirds", Summary: "Third parties the case's advice may be passed to"},
		{Method: "GET", Path: "/api/consultation/advice_list", Roles: access.CaseReaders, Handler: httpx.ListOf(s.AdviceList), ID: "advice-list", Summary: "Advice on the caller's cases (params.kind: special|technical; params.tab: pending|transferred|finished)", Read: &httpx.Read{Action: "read.advice_list", Object: "advice_list"}},
		{Method: "GET", Path: "/api/consultation/advice_list/count", Roles: access.CaseReaders, Handler: httpx.CountsOf(s.AdviceCount), ID: "advice-count", Summary: "Advice counts per tab"},
		{Method: "POST", Path: "/api/diagnosis/{id}/advice/{advice_id}", Roles: access.Experts, Handler: httpx.Value(s.updateAdvice), ID: "advice-update", Summary: "Change a pending advice item of the case"},
		{Method: "POST", Path: "/api/advice/detail_store/{id}", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.StoreAdviceResults), ID: "advice-results-store", Summary: "Record the result of each marker of an executed special exam, replacing earlier ones (id: advice)", MaxBody: 64 << 10},
		{Method: "GET", Path: "/api/third/advice", Roles: access.Thirds, Handler: httpx.Value(s.thirdAdvice), ID: "third-advice", Summary: "Exams passed to the calling third party (pending=true: unanswered only)", Read: &httpx.Read{Action: "read.advice_list", Object: "advice_list"}},
		{Method: "POST", Path: "/api/third/addadvice/{id}", Roles: access.Thirds, Handler: httpx.Action(s.thirdResult), ID: "third-add-advice", Summary: "The third party's result of an exam passed to them (id: advice)"},
		{Method: "GET", Path: "/api/consultation/advice_list/export", Roles: access.AdviceExporters, Handler: httpx.Raw(s.exportAdvice(AdviceSpecial, "advice_list")), ID: "advice_list-export", Summary: "The filtered " + AdviceSpecial + " advice as an Excel file", Read: &httpx.Read{Action: "export.advice", Object: "advice_list"}},
		{Method: "GET", Path: "/api/consultation/doctor_advice_list/export", Roles: access.AdviceExporters, Handler: httpx.Raw(s.exportAdvice(AdviceTechnical, "doctor_advice_list")), ID: "doctor_advice_list-export", Summary: "The filtered " + AdviceTechnical + " advice as an Excel file", Read: &httpx.Read{Action: "export.advice", Object: "advice_list"}},
	})
	api.Mount("Diagnosis templates", []httpx.Route{
		{Method: "GET", Path: "/api/config/template", Roles: access.TemplateWriters, Handler: httpx.Result(s.Templates), ID: "template-list", Summary: "Diagnosis templates: public ones and the caller's"},
		{Method: "POST", Path: "/api/config/template", Roles: access.TemplateWriters, Handler: httpx.WithBody(s.createTemplate), ID: "template-create", Summary: "Create a diagnosis template", MaxBody: 128 << 10},
		{Method: "POST", Path: "/api/config/template/{id}", Roles: access.TemplateWriters, Handler: httpx.ByIDWithBody(s.SaveTemplate), ID: "template-update", Summary: "Change a diagnosis template", MaxBody: 128 << 10},
		{Method: "DELETE", Path: "/api/config/template/{id}", Roles: access.TemplateWriters, Handler: httpx.ActionByID(s.DeleteTemplate), ID: "template-delete", Summary: "Delete a diagnosis template"},
	})
	api.Mount("Diagnosis terms", []httpx.Route{
		{Method: "GET", Path: "/api/config/term", Roles: access.TemplateWriters, Handler: httpx.Result(s.Terms), ID: "term-list", Summary: "Diagnosis terms: public ones and the caller's"},
		{Method: "POST", Path: "/api/config/term", Roles: access.TemplateWriters, Handler: httpx.WithBody(s.createTerm), ID: "term-create", Summary: "Create a diagnosis term", MaxBody: 8 << 10},
		{Method: "POST", Path: "/api/config/term/{id}", Roles: access.TemplateWriters, Handler: httpx.ByIDWithBody(s.SaveTerm), ID: "term-update", Summary: "Change a diagnosis term", MaxBody: 8 << 10},
		{Method: "DELETE", Path: "/api/config/term/{id}", Roles: access.TemplateWriters, Handler: httpx.ActionByID(s.DeleteTerm), ID: "term-delete", Summary: "Delete a diagnosis term"},
	})
	api.Mount("Slide quality", []httpx.Route{
		{Method: "POST", Path: "/api/judge/slide/store", Roles: access.Experts, Handler: httpx.Value(s.judgeSlide), ID: "judge-slide-store", Summary: "Judge the quality of a slide of the caller's case (grade A–D; D needs a reason)"},
		{Method: "POST", Path: "/api/judge/slide/update", Roles: access.Experts, Handler: httpx.Value(s.changeJudgement), ID: "judge-slide-update", Summary: "Change the verdict on a slide's quality"},
		{Method: "GET", Path: "/api/consultation/resources/{id}/slide_judgements", Roles: access.CaseReaders, Handler: httpx.ByID(s.CaseJudgements), ID: "case-slide-judgements", Summary: "The expert's verdicts on the quality of the case's slides"},
	})
}
