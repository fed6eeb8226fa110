package consultation

import (
	"context"
	"net/http"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/listquery"
)

var (
	tags = []string{"Consultations"}
)

type idsBody struct {
	Body struct {
		IDs []int64 `json:"ids,omitempty" maxItems:"1000"`
	}
}

// reasonBody carries an optional reason (required by some actions, which
// say so in their own error).
type reasonBody struct {
	httpx.IDPath
	Body *struct {
		Reason string `json:"reason,omitempty" maxLength:"1000"`
	}
}

func (b *reasonBody) reason() string {
	if b.Body == nil {
		return ""
	}
	return b.Body.Reason
}

type expertBody struct {
	httpx.IDPath
	Body struct {
		ExpertID int64  `json:"expert_id,omitempty"`
		Reason   string `json:"reason,omitempty" maxLength:"1000"`
	}
}

type outcomes = httpx.Data[[]Outcome]

// Routes registers the consultation endpoints (spec 2 §7 Consultation).
func (s *Service) Routes(api *httpx.API) {
	s.readRoutes(api)
	s.registerRoutes(api)
	s.recallRoutes(api)
	s.distributeRoutes(api)
	s.logRoutes(api)
	s.chargeRoutes(api)
	s.collectionRoutes(api)
	s.handoverRoutes(api)
}

func (s *Service) readRoutes(api *httpx.API) {
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/list", ID: "case-list", Read: &httpx.Read{Action: "read.case_list", Object: "case_list"}, Summary: "List cases (params.tab selects a view: unsubmitted, to_allot, recall_pending, returned_site, timeout…)", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *listquery.Input) (*httpx.List[Row], error) {
			rows, page, err := s.List(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/count", ID: "case-count", Summary: "Case counts per tab", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			c, err := s.Count(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/resources/{id}", ID: "case-get", Read: &httpx.Read{Action: "read.case"}, Summary: "A case with specimens, attachments, slides and the actions the caller may take", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[*Detail], error) {
			d, err := s.Detail(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(d), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/resources/{id}/slides", ID: "case-slides", Read: &httpx.Read{Action: "read.case_slides"}, Summary: "Slides of a case", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[[]Slide], error) {
			d, err := s.Detail(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(d.Slides), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/resources/{id}/annexs", ID: "case-attachments", Read: &httpx.Read{Action: "read.case_attachments"}, Summary: "Attachments of a case", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[[]Attachment], error) {
			d, err := s.Detail(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(d.Attachments), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/resources/{id}/message", ID: "case-messages", Read: &httpx.Read{Action: "read.case_messages"}, Summary: "Message thread of a case", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[[]Message], error) {
			m, err := s.Messages(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(m), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/resources/{id}/message", ID: "case-message-post", Summary: "Post a message (at most 150 characters)", Tags: tags, Roles: access.CaseReaders, MaxBody: 8 << 10},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				Content string `json:"content,omitempty" maxLength:"2000"`
			}
		}) (*httpx.Data[*Message], error) {
			m, err := s.PostMessage(ctx, in.ID, in.Body.Content)
			if err != nil {
				return nil, err
			}
			return httpx.OK(m), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/consultation/resources/0/message/{id}", ID: "case-message-delete", Summary: "Delete one of the caller's messages", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.DeleteMessage(ctx, in.ID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/resources/{id}/return/reason", ID: "case-return-reason", Summary: "Why a case was returned", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[string], error) {
			r, err := s.row(ctx, s.db, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(r.ReturnReason), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/resources/{id}/exp_list/hos", ID: "case-experts", Summary: "Experts of the case's center", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[[]PersonRef], error) {
			r, err := s.row(ctx, s.db, in.ID)
			if err != nil {
				return nil, err
			}
			if r.CenterID == nil {
				return httpx.OK([]PersonRef{}), nil
			}
			e, err := s.deps.Members(ctx, *r.CenterID, access.Expert)
			if err != nil {
				return nil, err
			}
			return httpx.OK(e), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/resources/0/exp_list/center", ID: "center-experts", Summary: "Experts of a center the caller may send cases to or manage", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, in *struct {
			CenterID int64 `query:"center_id" minimum:"1"`
		}) (*httpx.Data[[]PersonRef], error) {
			e, err := s.CenterExperts(ctx, in.CenterID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(e), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/status_labels", ID: "case-status-labels", Summary: "Every display status with its label and colour", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, _ *struct{}) (*httpx.Data[[]StatusLabel], error) {
			return httpx.OK(s.StatusLabels(ctx)), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/config/consultation/return/reason", ID: "return-reasons", Summary: "Preset reasons for returning a case", Tags: tags, Roles: access.CaseReaders},
		func(ctx context.Context, _ *struct{}) (*httpx.Data[[]string], error) {
			return httpx.OK(ReturnReasons(httpx.Lang(ctx))), nil
		})
}

func (s *Service) registerRoutes(api *httpx.API) {
	save := func(draft bool) func(context.Context, *struct{ Body CaseInput }) (*httpx.Data[*Detail], error) {
		return func(ctx context.Context, in *struct{ Body CaseInput }) (*httpx.Data[*Detail], error) {
			d, err := s.Save(ctx, 0, in.Body, draft)
			if err != nil {
				return nil, err
			}
			return httpx.OK(d), nil
		}
	}
	update := func(draft bool) func(context.Context, *struct {
		httpx.IDPath
		Body CaseInput
	}) (*httpx.Data[*Detail], error) {
		return func(ctx context.Context, in *struct {
			httpx.IDPath
			Body CaseInput
		}) (*httpx.Data[*Detail], error) {
			d, err := s.Save(ctx, in.ID, in.Body, draft)
			if err != nil {
				return nil, err
			}
			return httpx.OK(d), nil
		}
	}
	const body = 256 << 10
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation", ID: "case-create", Summary: "Register a case (every rule checked)", Tags: tags, Roles: access.HospitalRoles, MaxBody: body}, save(false))
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/draft", ID: "case-draft-create", Summary: "Save a new draft (formats checked only)", Tags: tags, Roles: access.HospitalRoles, MaxBody: body}, save(true))
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/{id}", ID: "case-update", Summary: "Change a registration (every rule checked)", Tags: tags, Roles: access.HospitalRoles, MaxBody: body}, update(false))
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/caseinfo/{id}", ID: "case-info-update", Summary: "Change the patient and clinical data of a registration", Tags: tags, Roles: access.HospitalRoles, MaxBody: body}, update(false))
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/draft/{id}", ID: "case-draft-update", Summary: "Save a draft", Tags: tags, Roles: access.HospitalRoles, MaxBody: body}, update(true))
	del := func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
		return httpx.Done(), s.Delete(ctx, in.ID)
	}
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/consultation/{id}", ID: "case-delete", Summary: "Delete a case never submitted", Tags: tags, Roles: access.HospitalRoles}, del)
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/consultation/draft/{id}", ID: "case-draft-delete", Summary: "Delete a draft", Tags: tags, Roles: access.HospitalRoles}, del)
	submit := func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
		return httpx.Done(), s.Submit(ctx, in.ID)
	}
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/submit/{id}", ID: "case-submit", Summary: "Send a case to its center (needs a charge and slides)", Tags: tags, Roles: access.HospitalRoles}, submit)
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/consult_again/{id}", ID: "case-consult-again", Summary: "Send a recalled or returned case again", Tags: tags, Roles: access.HospitalRoles},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			return httpx.Done(), s.ConsultAgain(ctx, in.ID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/batch_submit", ID: "case-batch-submit", Summary: "Submit several cases; reports each one", Tags: tags, Roles: access.HospitalRoles},
		func(ctx context.Context, in *idsBody) (*outcomes, error) {
			o, err := s.BatchSubmit(ctx, in.Body.IDs)
			if err != nil {
				return nil, err
			}
			return httpx.OK(o), nil
		})
}

func (s *Service) recallRoutes(api *httpx.API) {
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/recall/{id}", ID: "case-recall", Summary: "Ask the center to give a submitted case back", Tags: tags, Roles: access.HospitalRoles},
		func(ctx context.Context, in *reasonBody) (*httpx.Empty, error) {
			return httpx.Done(), s.Recall(ctx, in.ID, in.reason())
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/batch_recall", ID: "case-batch-recall", Summary: "Ask for several recalls", Tags: tags, Roles: access.HospitalRoles},
		func(ctx context.Context, in *struct {
			Body struct {
				IDs    []int64 `json:"ids,omitempty" maxItems:"1000"`
				Reason string  `json:"reason,omitempty" maxLength:"1000"`
			}
		}) (*outcomes, error) {
			o, err := s.BatchRecall(ctx, in.Body.IDs, in.Body.Reason)
			if err != nil {
				return nil, err
			}
			return httpx.OK(o), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/admin/consultation/{id}/recall/reason", ID: "recall-reason", Summary: "Why the site asks for a recall", Tags: tags, Roles: access.Allocators},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[string], error) {
			r, err := s.RecallReason(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(r), nil
		})
	for _, decision := range []string{"agree", "reject", "ignore"} {
		httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/admin/consultation/{id}/recall/" + decision, ID: "recall-" + decision, Summary: "Answer a recall request: " + decision, Tags: tags, Roles: access.Allocators},
			func(ctx context.Context, in *reasonBody) (*httpx.Empty, error) {
				return httpx.Done(), s.RecallDecision(ctx, in.ID, decision, in.reason())
			})
	}
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/admin/consultation/recall/batch_agree", ID: "recall-batch-agree", Summary: "Agree to several recalls", Tags: tags, Roles: access.Allocators},
		func(ctx context.Context, in *idsBody) (*outcomes, error) {
			o, err := s.BatchAgreeRecall(ctx, in.Body.IDs)
			if err != nil {
				return nil, err
			}
			return httpx.OK(o), nil
		})
}

func (s *Service) distributeRoutes(api *httpx.API) {
	dtags := []string{"Distribution"}
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/distribute/{id}/bindexpert", ID: "distribute-bind-expert", Summary: "Assign a case to an expert of its center", Tags: dtags, Roles: access.Allocators},
		func(ctx context.Context, in *expertBody) (*httpx.Empty, error) {
			return httpx.Done(), s.BindExpert(ctx, in.ID, in.Body.ExpertID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/distribute/batch_bindexpert", ID: "distribute-batch-bind-expert", Summary: "Assign several cases to one expert", Tags: dtags, Roles: access.Allocators},
		func(ctx context.Context, in *struct {
			Body struct {
				IDs      []int64 `json:"ids,omitempty" maxItems:"1000"`
				ExpertID int64   `json:"expert_id,omitempty"`
			}
		}) (*outcomes, error) {
			o, err := s.BatchBindExpert(ctx, in.Body.IDs, in.Body.ExpertID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(o), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/distribute/{id}/bindstaff", ID: "distribute-bind-staff", Summary: "Name the staff member for a case (staff_id 0: remove the one named)", Tags: dtags, Roles: access.Allocators},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				StaffID int64 `json:"staff_id,omitempty"`
			}
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.BindStaff(ctx, in.ID, in.Body.StaffID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/distribute/{id}/staff", ID: "distribute-staff", Summary: "Staff members of the case's center, to name one for the case", Tags: dtags, Roles: access.Allocators},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[[]PersonRef], error) {
			st, err := s.CaseStaff(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(st), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/distribute/{id}/referral", ID: "distribute-referral", Summary: "Give an assigned case to a different expert", Tags: dtags, Roles: access.Allocators},
		func(ctx context.Context, in *expertBody) (*httpx.Empty, error) {
			return httpx.Done(), s.Referral(ctx, in.ID, in.Body.ExpertID, in.Body.Reason)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/distribute/{id}/return", ID: "distribute-return", Summary: "Return a case to its hospital with a reason", Tags: dtags, Roles: access.Allocators},
		func(ctx context.Context, in *reasonBody) (*httpx.Empty, error) {
			return httpx.Done(), s.ReturnToSite(ctx, in.ID, in.reason())
		})
}

// CenterExperts lists the experts of a center the caller may deal with:
// for a site, one of its hospital's centers; otherwise one in their scope.
func (s *Service) CenterExperts(ctx context.Context, centerID int64) ([]PersonRef, error) {
	p := access.FromContext(ctx)
	allowed := p.IsAdmin()
	if !allowed {
		sc, err := s.deps.Org.ScopeOf(ctx, p)
		if err != nil {
			return nil, err
		}
		for _, c := range sc.CenterIDs {
			allowed = allowed || c == centerID
		}
		for _, hid := range p.HospitalIDs {
			if h, err := s.deps.Org.Hospital(ctx, hid); err == nil {
				for _, c := range h.CenterIDs {
					allowed = allowed || c == centerID
				}
			}
		}
	}
	if !allowed {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	return s.deps.Members(ctx, centerID, access.Expert)
}

// StatusLabels lists every display status in the caller's language.
func (s *Service) StatusLabels(ctx context.Context) []StatusLabel {
	out := []StatusLabel{}
	lang := httpx.Lang(ctx)
	for _, k := range LabelKeys() {
		out = append(out, StatusLabel{Key: k, Label: labelText(lang, k), Color: colours[k]})
	}
	return out
}
