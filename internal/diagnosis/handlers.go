package diagnosis

import (
	"context"
	"net/http"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

var (
	tags = []string{"Diagnosis"}
)

type noteBody struct {
	httpx.IDPath
	Body *struct {
		Note   string `json:"note,omitempty" maxLength:"2000"`
		Reason string `json:"reason,omitempty" maxLength:"2000"`
	}
}

func (b *noteBody) text() string {
	if b.Body == nil {
		return ""
	}
	if b.Body.Note != "" {
		return b.Body.Note
	}
	return b.Body.Reason
}

// Routes registers the diagnosis endpoints (spec 2 §7 Diagnosis) and the
// public report verification page on mux.
func (s *Service) Routes(api *httpx.API, mux *http.ServeMux) {
	s.previewRoutes(api, mux)
	s.expertChoiceRoutes(api)
	s.judgeRoutes(api)
	s.handoverRoutes(api)
	action := func(path, id, summary string, fn func(context.Context, int64) error) {
		httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/" + path, ID: id, Summary: summary, Tags: tags, Roles: access.Experts},
			func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) { return httpx.Done(), fn(ctx, in.ID) })
	}
	action("lock", "diagnosis-lock", "Lock a case to diagnose it (one expert edits at a time)", s.Lock)
	action("unlock", "diagnosis-unlock", "Release the lock", s.Unlock)
	action("reviewrecall", "diagnosis-review-recall", "Take a diagnosis back from review", s.RecallReview)
	action("recall", "diagnosis-recall", "Recall a report in its hesitation period", s.RecallPublication)

	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/diagnosis/{id}", ID: "diagnosis-get", Read: &httpx.Read{Action: "read.diagnosis"}, Summary: "Every version of a case's diagnosis (sites: released reports only)", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[[]Diagnosis], error) {
			d, err := s.History(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(d), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/save", ID: "diagnosis-save", Summary: "Save the draft diagnosis", Tags: tags, Roles: access.Experts, MaxBody: 128 << 10},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body Input
		}) (*httpx.Data[*Diagnosis], error) {
			d, err := s.Save(ctx, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(d), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/toreview", ID: "diagnosis-to-review", Summary: "Send the diagnosis to a second expert", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				ReviewerID int64 `json:"reviewer_id,omitempty"`
			}
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.ToReview(ctx, in.ID, in.Body.ReviewerID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/review_approve", ID: "diagnosis-review-approve", Summary: "Approve a diagnosis under review", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *noteBody) (*httpx.Empty, error) {
			return httpx.Done(), s.Review(ctx, in.ID, true, in.text())
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/reviewreturn", ID: "diagnosis-review-return", Summary: "Return a diagnosis under review with a note", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *noteBody) (*httpx.Empty, error) {
			return httpx.Done(), s.Review(ctx, in.ID, false, in.text())
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/publish", ID: "diagnosis-publish", Summary: "Publish the report now or after the hesitation period", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body *PublishInput
		}) (*httpx.Empty, error) {
			var p PublishInput
			if in.Body != nil {
				p = *in.Body
			}
			return httpx.Done(), s.Publish(ctx, in.ID, p)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/return", ID: "diagnosis-return", Summary: "Return a case to the center with a reason", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *noteBody) (*httpx.Empty, error) {
			return httpx.Done(), s.Return(ctx, in.ID, in.text())
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/delay", ID: "diagnosis-delay", Summary: "Extend the time allowed by days, with a reason", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				Days   int    `json:"days,omitempty"`
				Reason string `json:"reason,omitempty" maxLength:"2000"`
			}
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.Delay(ctx, in.ID, in.Body.Days, in.Body.Reason)
		})
	s.inviteRoutes(api)
	s.infoRoutes(api)
	s.templateRoutes(api)
	s.termRoutes(api)
	s.reportRoutes(api)
	s.dashboardRoutes(api)
	s.counterAuditRoutes(api)
	s.publisherRoutes(api)
	s.adviceRoutes(api)
	s.shotRoutes(api)
	s.adviceExportRoutes(api)
}

func (s *Service) inviteRoutes(api *httpx.API) {
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/invited", ID: "diagnosis-invite", Summary: "Invite experts of the center to give their opinion", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				InviteeIDs []int64 `json:"invitee_ids,omitempty" maxItems:"10"`
				Message    string  `json:"message,omitempty" maxLength:"2000"`
			}
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.Invite(ctx, in.ID, in.Body.InviteeIDs, in.Body.Message)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/diagnosis/{id}/invited", ID: "diagnosis-invitations", Read: &httpx.Read{Action: "read.invitations"}, Summary: "Invitations of a case with their replies", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[[]Invitation], error) {
			l, err := s.CaseInvitations(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/diagnosis/{id}/invited/info", ID: "diagnosis-invitation-info", Summary: "The caller's invitations to a case (to answer them in the workspace)", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[[]Invitation], error) {
			l, err := s.InvitationInfo(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/invited/{invite_id}", ID: "diagnosis-invite-reply", Summary: "Answer an invitation to a case", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			InviteID int64 `path:"invite_id" minimum:"1"`
			Body     struct {
				Reply string `json:"reply,omitempty" maxLength:"10000"`
			}
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.Reply(ctx, in.ID, in.InviteID, in.Body.Reply)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/diagnosis/invitations", ID: "diagnosis-my-invitations", Summary: "Invitations the caller received (or sent, with sent=true)", Tags: tags, Roles: access.Experts},
		func(ctx context.Context, in *struct {
			Sent bool `query:"sent"`
		}) (*httpx.Data[[]Invitation], error) {
			l, err := s.MyInvitations(ctx, in.Sent)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
}

func (s *Service) infoRoutes(api *httpx.API) {
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/diagnosis/{id}/not_view_count", ID: "diagnosis-not-viewed", Summary: "Slides of the case the caller has not opened", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[int], error) {
			n, err := s.NotViewed(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(n), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/diagnosis/{id}/view/{slide_id}", ID: "diagnosis-view-slide", Summary: "Record that the caller opened a slide of the case; returns how many remain unviewed", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			SlideID int64 `path:"slide_id" minimum:"1"`
		}) (*httpx.Data[int], error) {
			n, err := s.ViewSlide(ctx, in.ID, in.SlideID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(n), nil
		})
	for _, nb := range []struct {
		path string
		dir  int
	}{{"getPrevConsult_ID", -1}, {"getNextConsult_ID", 1}} {
		httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/diagnosis/{id}/" + nb.path, ID: "diagnosis-" + nb.path, Summary: "The caller's neighbouring case in the worklist (0: none)", Tags: tags, Roles: access.Experts},
			func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[int64], error) {
				n, err := s.Neighbour(ctx, in.ID, nb.dir)
				if err != nil {
					return nil, err
				}
				return httpx.OK(n), nil
			})
	}
	s.sameCaseRoute(api, tags, access.SameCaseReaders)
}

func (s *Service) templateRoutes(api *httpx.API) {
	ttags := []string{"Diagnosis templates"}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/config/template", ID: "template-list", Summary: "Diagnosis templates: public ones and the caller's", Tags: ttags, Roles: access.TemplateWriters},
		func(ctx context.Context, _ *struct{}) (*httpx.Data[[]Template], error) {
			l, err := s.Templates(ctx)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	save := func(ctx context.Context, id int64, in TemplateInput) (*httpx.Data[*Template], error) {
		t, err := s.SaveTemplate(ctx, id, in)
		if err != nil {
			return nil, err
		}
		return httpx.OK(t), nil
	}
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/config/template", ID: "template-create", Summary: "Create a diagnosis template", Tags: ttags, Roles: access.TemplateWriters, MaxBody: 128 << 10},
		func(ctx context.Context, in *struct{ Body TemplateInput }) (*httpx.Data[*Template], error) {
			return save(ctx, 0, in.Body)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/config/template/{id}", ID: "template-update", Summary: "Change a diagnosis template", Tags: ttags, Roles: access.TemplateWriters, MaxBody: 128 << 10},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body TemplateInput
		}) (*httpx.Data[*Template], error) {
			return save(ctx, in.ID, in.Body)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/config/template/{id}", ID: "template-delete", Summary: "Delete a diagnosis template", Tags: ttags, Roles: access.TemplateWriters},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.DeleteTemplate(ctx, in.ID)
		})
}

func (s *Service) reportRoutes(api *httpx.API) {
	rtags := []string{"Reports"}
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/report/print/{id}", ID: "report-print", Summary: "Record that the case's report was printed", Tags: rtags, Roles: access.ReportHandlers},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.MarkPrinted(ctx, in.ID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/report/deliver/{id}", ID: "report-deliver", Summary: "Record that the printed report was delivered", Tags: rtags, Roles: access.ReportHandlers},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.MarkDelivered(ctx, in.ID)
		})
	save := func(ctx context.Context, in *struct {
		httpx.IDPath
		Body Input
	}) (*httpx.Data[*Diagnosis], error) {
		d, err := s.Supplement(ctx, in.ID, in.Body)
		if err != nil {
			return nil, err
		}
		return httpx.OK(d), nil
	}
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/append_diagnosis/{id}", ID: "supplement-save", Summary: "Save the draft of a supplementary report", Tags: rtags, Roles: access.Experts, MaxBody: 128 << 10}, save)
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/append_diagnosis", ID: "supplement-save-diagnosis", Summary: "Save the draft of a supplementary report", Tags: rtags, Roles: access.Experts, MaxBody: 128 << 10}, save)
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/append_diagnosis/publish", ID: "supplement-publish", Summary: "Publish the supplementary report beside the original", Tags: rtags, Roles: access.Experts},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.PublishSupplement(ctx, in.ID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/append_diagnosis/toreview", ID: "supplement-to-review", Summary: "Send the supplementary report to a second expert", Tags: rtags, Roles: access.Experts},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				ReviewerID int64 `json:"reviewer_id,omitempty"`
			}
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.SupplementToReview(ctx, in.ID, in.Body.ReviewerID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/append_diagnosis/reviewrecall", ID: "supplement-review-recall", Summary: "Take the supplementary report back from review", Tags: rtags, Roles: access.Experts},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.SupplementRecallReview(ctx, in.ID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/append_diagnosis/approve", ID: "supplement-review-approve", Summary: "Accept a supplementary report under review", Tags: rtags, Roles: access.Experts},
		func(ctx context.Context, in *noteBody) (*httpx.Empty, error) {
			return httpx.Done(), s.SupplementReview(ctx, in.ID, true, in.text())
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/append_diagnosis/reviewreturn", ID: "supplement-review-return", Summary: "Reject a supplementary report under review, with a reason", Tags: rtags, Roles: access.Experts},
		func(ctx context.Context, in *noteBody) (*httpx.Empty, error) {
			return httpx.Done(), s.SupplementReview(ctx, in.ID, false, in.text())
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/diagnosis/{id}/append_diagnosis/{supplement_id}", ID: "supplement-discard", Summary: "Discard the unpublished draft of a supplementary report", Tags: rtags, Roles: access.Experts},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			SupplementID int64 `path:"supplement_id" minimum:"1"`
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.DiscardSupplement(ctx, in.ID, in.SupplementID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/report/verify/{code}", ID: "report-verify", Summary: "Check a report's authenticity by the code printed on it", Tags: rtags, Public: true},
		func(ctx context.Context, in *struct {
			Code string `path:"code" maxLength:"32"`
		}) (*httpx.Data[*Verification], error) {
			v, err := s.Verify(ctx, in.Code)
			if err != nil {
				return nil, err
			}
			return httpx.OK(v), nil
		})
}
