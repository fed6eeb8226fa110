package publication

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/consultation"
	"telepath/internal/diagnosis"
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the report endpoints (spec 2 §7 Report, publisher) and
// the public report verification page on mux.
func (s *Service) Routes(api *httpx.API, mux *http.ServeMux) {
	mux.HandleFunc("GET /verify/{code}", s.verifyPage)
	api.Mount("Diagnosis", []httpx.Route{
		{Method: "POST", Path: "/api/admin/change_diagnosis_first_result", Roles: access.Admins, Handler: httpx.ActionWithBody(s.ChangeFirstResult), ID: "change-first-result", Summary: "Record whether the first report stands, during a counter-audit"},
	})
	api.Mount("Reports", []httpx.Route{
		{Method: "GET", Path: "/api/diagnosis/report/preview/{id}", Roles: access.CaseReaders, Handler: httpx.Raw(s.reportPreview), ID: "report-preview", Summary: "The case's report as PDF", Read: &httpx.Read{Action: "read.report"}},
		{Method: "POST", Path: "/api/report/print/{id}", Roles: access.ReportHandlers, Handler: httpx.ActionByID(s.MarkPrinted), ID: "report-print", Summary: "Record that the case's report was printed"},
		{Method: "POST", Path: "/api/report/deliver/{id}", Roles: access.ReportHandlers, Handler: httpx.ActionByID(s.MarkDelivered), ID: "report-deliver", Summary: "Record that the printed report was delivered"},
		{Method: "GET", Path: "/api/report/verify/{code}", Public: true, Handler: httpx.Value(s.verify), ID: "report-verify", Summary: "Check a report's authenticity by the code printed on it"},
	})
}

func (s *Service) verify(ctx context.Context, in *struct {
	Code string `path:"code" maxLength:"32"`
}) (*diagnosis.Verification, error) {
	return s.deps.Diagnoses.Verify(ctx, in.Code)
}

func (s *Service) reportPreview(ctx context.Context, in *struct {
	httpx.IDPath
	DiagnosisID int64  `query:"diagnosis_id" doc:"A version to print instead of the current one"`
	Host        string `header:"Host"`
	Proto       string `header:"X-Forwarded-Proto"`
}) (*huma.StreamResponse, error) {
	scheme := "http"
	if in.Proto == "https" { // present only when set by a trusted proxy (httpx.Wrap)
		scheme = "https"
	}
	pdf, err := s.Preview(ctx, in.ID, in.DiagnosisID, scheme+"://"+in.Host)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", "application/pdf")
		hc.SetHeader("Content-Disposition", fmt.Sprintf("inline; filename=report-%d.pdf", in.ID))
		hc.SetHeader("Cache-Control", "private, no-store")
		hc.BodyWriter().Write(pdf)
	}}, nil
}

// Lend gives consultation the handlers of the publisher's routes under
// /api/consultation, which its route table lists.
func (s *Service) Lend() consultation.PublisherHandlers {
	return consultation.PublisherHandlers{
		Publish: httpx.ActionByID(s.PublisherPublish),
		Return:  httpx.Action(s.publisherReturn),
	}
}
