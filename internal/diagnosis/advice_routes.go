package diagnosis

import (
	"context"
	"encoding/json"
	"net/http"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/listquery"
)

var adviceList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":               {Expr: "a.id", Type: listquery.Int, Sort: true, Filter: true},
		"consult_no":       {Expr: "c.consult_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"patient_name":     {Expr: "c.patient_name", Type: listquery.String, Filter: true, Search: true},
		"pathology_number": {Expr: "c.pathology_number", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"item":             {Expr: "a.item", Type: listquery.String, Filter: true},
		"markers":          {Expr: "a.markers", Type: listquery.String, Filter: true, Search: true},
		"status":           {Expr: "a.status", Type: listquery.String, Filter: true, Enum: []any{AdvicePending, AdviceExecuted, AdviceTransferred, AdviceDone}},
		"created_at":       {Expr: "a.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"done_at":          {Expr: "a.done_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
	},
	DefaultSort: []string{"a.id DESC"},
	TieBreak:    "a.id DESC",
	ExtraParams: []string{"kind", "tab"},
}

// adviceTabs are the views of the advice lists.
var adviceTabs = map[string]sq.Sqlizer{
	"all":         nil,
	"pending":     sq.Eq{"a.status": AdvicePending},
	"transferred": sq.Eq{"a.status": AdviceTransferred},
	"finished":    sq.Eq{"a.status": []string{AdviceExecuted, AdviceDone}},
}

func (s *Service) adviceWhere(ctx context.Context, req listquery.Request) (*listquery.Query, sq.And, error) {
	q, err := adviceList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, nil, err
	}
	scope, err := s.deps.Cases.Scope(ctx)
	if err != nil {
		return nil, nil, err
	}
	where := sq.And{scope}
	if k := q.ExtraString("kind"); k != "" {
		if _, ok := adviceItems[k]; !ok {
			return nil, nil, apperr.New(apperr.Invalid, "list.bad_value").With("column", "kind")
		}
		where = append(where, sq.Eq{"a.kind": k})
	}
	if tab := q.ExtraString("tab"); tab != "" {
		cond, ok := adviceTabs[tab]
		if !ok {
			return nil, nil, apperr.New(apperr.Invalid, "list.bad_value").With("column", "tab")
		}
		if cond != nil {
			where = append(where, cond)
		}
	}
	return q, where, nil
}

// AdviceList is a page of the advice on the cases the caller may see
// (params.kind: special or technical; params.tab: pending, transferred, finished).
func (s *Service) AdviceList(ctx context.Context, req listquery.Request) ([]Advice, listquery.Pagination, error) {
	q, where, err := s.adviceWhere(ctx, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	b := s.db.Builder()
	return listquery.Run[Advice](ctx, s.db, q, s.advices(b).Where(where),
		b.Select("COUNT(*)").From("advices a").Join("consultations c ON c.id = a.consult_id").Where(where))
}

// AdviceCount counts the advice in each tab under the same filters.
func (s *Service) AdviceCount(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	params := req.Params
	req.Params = withoutKey(params, "tab")
	q, where, err := s.adviceWhere(ctx, req)
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, s.db, q, s.db.Builder().Select().From("advices a").Join("consultations c ON c.id = a.consult_id").Where(where), adviceTabs)
}

type resultBody struct {
	Result string `json:"result,omitempty" maxLength:"4000"`
}

func (b *resultBody) text() string {
	if b == nil {
		return ""
	}
	return b.Result
}

func (s *Service) adviceRoutes(api *httpx.API) {
	atags := []string{"Advice"}
	type adviceList = httpx.Data[[]Advice]
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/advice", ID: "advice-order", Summary: "Order special exams or technical re-work from the site", Tags: atags, Roles: access.Experts, MaxBody: 64 << 10},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body AdviceInput
		}) (*adviceList, error) {
			l, err := s.OrderAdvice(ctx, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/diagnosis/{id}/advice", ID: "advice-of-case", Read: &httpx.Read{Action: "read.case_advice"}, Summary: "Advice of a case, both kinds", Tags: atags, Roles: access.CaseReaders},
		func(ctx context.Context, in *httpx.IDPath) (*adviceList, error) {
			l, err := s.CaseAdvice(ctx, in.ID, "")
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	for _, k := range []struct{ path, kind, what string }{{"advice", AdviceSpecial, "special exams"}, {"doctor_advice", AdviceTechnical, "technical re-work"}} {
		httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/diagnosis/{id}/" + k.path, ID: k.path + "-cancel", Summary: "Withdraw pending advice for " + k.what + " (body: ids)", Tags: atags, Roles: access.Experts},
			func(ctx context.Context, in *struct {
				httpx.IDPath
				Body struct {
					IDs []int64 `json:"ids,omitempty" maxItems:"100"`
				}
			}) (*httpx.Empty, error) {
				return httpx.Done(), s.CancelAdvice(ctx, in.ID, k.kind, in.Body.IDs)
			})
	}
	for _, k := range []struct{ path, kind, what string }{{"advice", AdviceSpecial, "special exams"}, {"doctor_advice", AdviceTechnical, "technical re-work"}} {
		httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/" + k.path + "/{id}", ID: "case-" + k.path, Read: &httpx.Read{Action: "read.case_advice"}, Summary: "Advice for " + k.what + " of a case", Tags: atags, Roles: access.CaseReaders},
			func(ctx context.Context, in *httpx.IDPath) (*adviceList, error) {
				l, err := s.CaseAdvice(ctx, in.ID, k.kind)
				if err != nil {
					return nil, err
				}
				return httpx.OK(l), nil
			})
		httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/" + k.path + "/execute/{id}", ID: k.path + "-execute", Summary: "Record that the site did the " + k.what + " asked (id: advice)", Tags: atags, Roles: access.SiteDoctors},
			func(ctx context.Context, in *struct {
				httpx.IDPath
				Body *resultBody
			}) (*httpx.Empty, error) {
				return httpx.Done(), s.ExecuteAdvice(ctx, k.kind, in.ID, in.Body.text())
			})
	}
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/consultation/advice/transfer/{id}", ID: "advice-transfer", Summary: "Pass a special exam to a third party (id: advice)", Tags: atags, Roles: access.SiteDoctors},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body struct {
				ThirdID int64 `json:"third_id,omitempty"`
			}
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.TransferAdvice(ctx, in.ID, in.Body.ThirdID)
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/resources/{id}/third", ID: "case-thirds", Summary: "Third parties the case's advice may be passed to", Tags: atags, Roles: access.SiteDoctors},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[[]consultation.PersonRef], error) {
			r, err := s.deps.Cases.Case(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			l, err := s.Thirds(ctx, r)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/advice_list", ID: "advice-list", Read: &httpx.Read{Action: "read.advice_list", Object: "advice_list"}, Summary: "Advice on the caller's cases (params.kind: special|technical; params.tab: pending|transferred|finished)", Tags: atags, Roles: access.CaseReaders},
		func(ctx context.Context, in *listquery.Input) (*httpx.List[Advice], error) {
			rows, page, err := s.AdviceList(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.Page(rows, page), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/consultation/advice_list/count", ID: "advice-count", Summary: "Advice counts per tab", Tags: atags, Roles: access.CaseReaders},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			c, err := s.AdviceCount(ctx, in.Request())
			if err != nil {
				return nil, err
			}
			return httpx.OK(c), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/diagnosis/{id}/advice/{advice_id}", ID: "advice-update", Summary: "Change a pending advice item of the case", Tags: atags, Roles: access.Experts},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			AdviceID int64 `path:"advice_id" minimum:"1"`
			Body     AdviceItem
		}) (*adviceList, error) {
			l, err := s.UpdateAdvice(ctx, in.ID, in.AdviceID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/advice/detail_store/{id}", ID: "advice-results-store", Summary: "Record the result of each marker of an executed special exam, replacing earlier ones (id: advice)", Tags: atags, Roles: access.Experts, MaxBody: 64 << 10},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body AdviceResultsInput
		}) (*httpx.Data[*Advice], error) {
			a, err := s.StoreAdviceResults(ctx, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return httpx.OK(a), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/third/advice", ID: "third-advice", Read: &httpx.Read{Action: "read.advice_list", Object: "advice_list"}, Summary: "Exams passed to the calling third party (pending=true: unanswered only)", Tags: atags, Roles: access.Thirds},
		func(ctx context.Context, in *struct {
			Pending bool `query:"pending"`
		}) (*adviceList, error) {
			l, err := s.ThirdAdvice(ctx, in.Pending)
			if err != nil {
				return nil, err
			}
			return httpx.OK(l), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/third/addadvice/{id}", ID: "third-add-advice", Summary: "The third party's result of an exam passed to them (id: advice)", Tags: atags, Roles: access.Thirds},
		func(ctx context.Context, in *struct {
			httpx.IDPath
			Body *resultBody
		}) (*httpx.Empty, error) {
			return httpx.Done(), s.ThirdResult(ctx, in.ID, in.Body.text())
		})
}

// withoutKey drops one key from a list's params JSON (counts are per tab).
func withoutKey(params, key string) string {
	if params == "" {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(params), &m) != nil {
		return params // the list engine reports the bad JSON
	}
	delete(m, key)
	b, _ := json.Marshal(m)
	return string(b)
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func jsonMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
