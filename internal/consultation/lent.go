package consultation

import (
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Lent are the handlers of the /api/consultation/… routes whose work
// another domain does. Those domains import consultation, so this package
// cannot call them; they lend their handlers instead, and lentRoutes lists
// the paths here, under the prefix that names this package.
type Lent struct {
	Advice     AdviceHandlers    // package diagnosis/advice
	Publisher  PublisherHandlers // package diagnosis/publication
	Supplement httpx.Handler     // package diagnosis: save the draft of a supplementary report
	Judgements httpx.Handler     // package diagnosis: the expert's verdicts on the case's slides
}

// AdviceHandlers serve the site's side of the advice on a case.
type AdviceHandlers struct {
	OfCase, TechnicalOfCase   httpx.Handler // the case's advice of one kind
	Execute, ExecuteTechnical httpx.Handler // the site did what was asked
	Transfer, Thirds          httpx.Handler // pass a special exam on; to whom
	List, Count               httpx.Handler // the advice list and its tab counts
	Export, ExportTechnical   httpx.Handler // the filtered list as Excel
}

// PublisherHandlers serve the publisher's release or return of a report in
// its hesitation period.
type PublisherHandlers struct {
	Publish, Return httpx.Handler
}

// lentRoutes registers the routes other domains serve under /api/consultation.
func lentRoutes(api *httpx.API, lent Lent) {
	api.Mount("Advice", []httpx.Route{
		{Method: "GET", Path: "/api/consultation/advice/{id}", Roles: access.CaseReaders, Handler: lent.Advice.OfCase, ID: "case-advice", Summary: "Advice for special exams of a case", Read: &httpx.Read{Action: "read.case_advice"}},
		{Method: "GET", Path: "/api/consultation/doctor_advice/{id}", Roles: access.CaseReaders, Handler: lent.Advice.TechnicalOfCase, ID: "case-doctor_advice", Summary: "Advice for technical re-work of a case", Read: &httpx.Read{Action: "read.case_advice"}},
		{Method: "POST", Path: "/api/consultation/advice/execute/{id}", Roles: access.SiteDoctors, Handler: lent.Advice.Execute, ID: "advice-execute", Summary: "Record that the site did the special exams asked (id: advice)"},
		{Method: "POST", Path: "/api/consultation/doctor_advice/execute/{id}", Roles: access.SiteDoctors, Handler: lent.Advice.ExecuteTechnical, ID: "doctor_advice-execute", Summary: "Record that the site did the technical re-work asked (id: advice)"},
		{Method: "POST", Path: "/api/consultation/advice/transfer/{id}", Roles: access.SiteDoctors, Handler: lent.Advice.Transfer, ID: "advice-transfer", Summary: "Pass a special exam to a third party (id: advice)"},
		{Method: "GET", Path: "/api/consultation/resources/{id}/third", Roles: access.SiteDoctors, Handler: lent.Advice.Thirds, ID: "case-thirds", Summary: "Third parties the case's advice may be passed to"},
		{Method: "GET", Path: "/api/consultation/advice_list", Roles: access.CaseReaders, Handler: lent.Advice.List, ID: "advice-list", Summary: "Advice on the caller's cases (params.kind: special|technical; params.tab: pending|transferred|finished)", Read: &httpx.Read{Action: "read.advice_list", Object: "advice_list"}},
		{Method: "GET", Path: "/api/consultation/advice_list/count", Roles: access.CaseReaders, Handler: lent.Advice.Count, ID: "advice-count", Summary: "Advice counts per tab"},
		{Method: "GET", Path: "/api/consultation/advice_list/export", Roles: access.AdviceExporters, Handler: lent.Advice.Export, ID: "advice_list-export", Summary: "The filtered special advice as an Excel file", Read: &httpx.Read{Action: "export.advice", Object: "advice_list"}},
		{Method: "GET", Path: "/api/consultation/doctor_advice_list/export", Roles: access.AdviceExporters, Handler: lent.Advice.ExportTechnical, ID: "doctor_advice_list-export", Summary: "The filtered technical advice as an Excel file", Read: &httpx.Read{Action: "export.advice", Object: "advice_list"}},
	})
	api.Mount("Reports", []httpx.Route{
		{Method: "POST", Path: "/api/consultation/append_diagnosis/{id}", Roles: access.Experts, Handler: lent.Supplement, ID: "supplement-save", Summary: "Save the draft of a supplementary report", MaxBody: 128 << 10},
		{Method: "POST", Path: "/api/consultation/publisher/publish/{id}", Roles: access.Publishers, Handler: lent.Publisher.Publish, ID: "publisher-publish", Summary: "Release a report in its hesitation period now"},
		{Method: "POST", Path: "/api/consultation/publisher/return/{id}", Roles: access.Publishers, Handler: lent.Publisher.Return, ID: "publisher-return", Summary: "Return a report in its hesitation period to the expert, with a reason"},
	})
	api.Mount("Slide quality", []httpx.Route{
		{Method: "GET", Path: "/api/consultation/resources/{id}/slide_judgements", Roles: access.CaseReaders, Handler: lent.Judgements, ID: "case-slide-judgements", Summary: "The expert's verdicts on the quality of the case's slides"},
	})
}
