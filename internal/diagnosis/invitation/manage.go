package invitation

import (
	"bytes"
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
	"github.com/danielgtaylor/huma/v2"
	"github.com/xuri/excelize/v2"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// The administrators' list of invitations (spec 1 §2 /admin/invited-manage):
// every invitation on the cases of the centers the caller manages.
var manageList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":           {Expr: "i.id", Type: listquery.Int, Sort: true, Filter: true},
		"consult_no":   {Expr: "c.consult_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"patient_name": {Expr: "c.patient_name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"inviter_id":   {Expr: "i.inviter_id", Type: listquery.Int, Filter: true},
		"invitee_id":   {Expr: "i.invitee_id", Type: listquery.Int, Filter: true},
		"inviter_name": {Expr: "a.name", Type: listquery.String, Sort: true, Search: true},
		"invitee_name": {Expr: "b.name", Type: listquery.String, Sort: true, Search: true},
		"status":       {Expr: "i.status", Type: listquery.Int, Filter: true, Enum: []any{0, 1}},
		"created_at":   {Expr: "i.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"replied_at":   {Expr: "i.replied_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
	},
	DefaultSort: []string{"i.id DESC"},
	TieBreak:    "i.id DESC",
	ExtraParams: []string{"tab"},
}

// manageTabs are the views of the list: all, not answered yet, answered.
var manageTabs = map[string]sq.Sqlizer{
	"all":        nil,
	"unanswered": sq.Eq{"i.status": 0},
	"answered":   sq.Eq{"i.status": 1},
}

// managedScope limits the list to the cases of the centers the caller
// manages: everything for an admin, their centers for a center admin.
func managedScope(ctx context.Context) (sq.Sqlizer, error) {
	p := access.FromContext(ctx)
	switch {
	case p == nil:
		return nil, apperr.New(apperr.Unauthorized, "error.unauthorized")
	case p.IsAdmin():
		return sq.Expr("1 = 1"), nil
	case p.Has(access.CenterAdmin) && len(p.CenterIDs) > 0:
		return sq.Eq{"c.center_id": p.CenterIDs}, nil
	}
	return sq.Expr("1 = 0"), nil
}

func (s *Service) manageWhere(ctx context.Context, req listquery.Request) (*listquery.Query, sq.And, error) {
	q, err := manageList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, nil, err
	}
	scope, err := managedScope(ctx)
	if err != nil {
		return nil, nil, err
	}
	where := sq.And{scope}
	if tab := q.ExtraString("tab"); tab != "" {
		cond, ok := manageTabs[tab]
		if !ok {
			return nil, nil, apperr.New(apperr.Invalid, "list.bad_value").With("column", "tab")
		}
		if cond != nil {
			where = append(where, cond)
		}
	}
	return q, where, nil
}

func (s *Service) joined(cols ...string) sq.SelectBuilder {
	return s.db.Builder().Select(cols...).From("invitations i").Join("consultations c ON c.id = i.consult_id").
		Join("users a ON a.id = i.inviter_id").Join("users b ON b.id = i.invitee_id")
}

// ManageList is a page of the invitations on the cases of the centers the
// caller manages (params.tab: unanswered or answered).
func (s *Service) ManageList(ctx context.Context, req listquery.Request) ([]Invitation, listquery.Pagination, error) {
	q, where, err := s.manageWhere(ctx, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	return listquery.Run[Invitation](ctx, s.db, q, s.joined(invitationColumns).Where(where), s.joined("COUNT(*)").Where(where))
}

// ManageCount counts the invitations in each tab under the same filters.
func (s *Service) ManageCount(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := manageList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	scope, err := managedScope(ctx)
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, s.db, q, s.joined().Where(scope), manageTabs)
}

// ManagePeople lists who invited or was invited on the cases the caller
// manages: the choices of the inviter and invitee filters.
func (s *Service) ManagePeople(ctx context.Context) ([]consultation.PersonRef, error) {
	scope, err := managedScope(ctx)
	if err != nil {
		return nil, err
	}
	in := func(col string) sq.Sqlizer {
		// Question placeholders: the outer builder numbers them.
		sub, args, _ := sq.Select("i." + col).From("invitations i").Join("consultations c ON c.id = i.consult_id").Where(scope).ToSql()
		return sq.Expr("u.id IN ("+sub+")", args...)
	}
	out := []consultation.PersonRef{}
	err = db.Select(ctx, s.db, &out, s.db.Builder().Select("u.id", "u.name").From("users u").
		Where(sq.Or{in("inviter_id"), in("invitee_id")}).OrderBy("u.name", "u.id"))
	return out, apperr.Wrap(err, "load people")
}

// ExportManage writes the filtered invitations (up to 10,000 rows) as xlsx,
// in the caller's language.
func (s *Service) ExportManage(ctx context.Context, req listquery.Request) ([]byte, error) {
	lang := i18n.From(ctx)
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	head := []string{"consult_no", "patient_name", "inviter", "invitee", "invited_at", "message", "status", "reply", "replied_at"}
	for i, h := range head {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		f.SetCellValue(sheet, cell, i18n.T(lang, "invitation.column."+h, nil))
	}
	at := func(t interface{ Format(string) string }) string { return t.Format("2006-01-02 15:04:05") }
	row := 2
	for page := 1; page <= 10; page++ {
		req.Page, req.PageSize = fmt.Sprint(page), "1000"
		rows, p, err := s.ManageList(ctx, req)
		if err != nil {
			return nil, err
		}
		for _, v := range rows {
			replied := ""
			if v.RepliedAt != nil {
				replied = at(v.RepliedAt.In(s.clock.Zone()))
			}
			vals := []any{v.ConsultNo, v.PatientName, v.InviterName, v.InviteeName, at(v.CreatedAt.In(s.clock.Zone())), v.Message,
				i18n.T(lang, fmt.Sprintf("invitation.status.%d", v.Status), nil), v.Reply, replied}
			cell, _ := excelize.CoordinatesToCellName(1, row)
			if err := f.SetSheetRow(sheet, cell, &vals); err != nil {
				return nil, apperr.Wrap(err, "xlsx row")
			}
			row++
		}
		if page >= p.TotalPage {
			break
		}
	}
	f.SetColWidth(sheet, "A", "I", 18)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, apperr.Wrap(err, "xlsx")
	}
	return buf.Bytes(), nil
}

func (s *Service) exportManage(ctx context.Context, in *listquery.Input) (*huma.StreamResponse, error) {
	b, err := s.ExportManage(ctx, in.Request())
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		hc.SetHeader("Content-Disposition", "attachment; filename=invited_list.xlsx")
		hc.BodyWriter().Write(b)
	}}, nil
}
