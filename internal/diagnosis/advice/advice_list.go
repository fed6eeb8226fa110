package advice

import (
	"context"
	"encoding/json"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
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
