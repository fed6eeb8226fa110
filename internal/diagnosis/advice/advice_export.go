package advice

import (
	"bytes"
	"context"
	"fmt"

	"github.com/danielgtaylor/huma/v2"
	"github.com/xuri/excelize/v2"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// ExportAdvice writes the filtered advice list of one kind (up to 10,000
// rows) as xlsx, in the caller's language.
func (s *Service) ExportAdvice(ctx context.Context, kind string, req listquery.Request) ([]byte, error) {
	req.Params = withKey(req.Params, "kind", kind)
	lang := i18n.From(ctx)
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	head := []string{"consult_no", "pathology_number", "patient_name", "hospital", "item", "markers", "block", "remark", "expert",
		"ordered_at", "status", "third", "result", "done_at"}
	for i, h := range head {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		f.SetCellValue(sheet, cell, i18n.T(lang, "advice.column."+h, nil))
	}
	at := func(t interface{ Format(string) string }) string { return t.Format("2006-01-02 15:04:05") }
	row := 2
	for page := 1; page <= 10; page++ {
		req.Page, req.PageSize = fmt.Sprint(page), "1000"
		rows, p, err := s.AdviceList(ctx, req)
		if err != nil {
			return nil, err
		}
		for _, a := range rows {
			third, done := "", ""
			if a.ThirdName != nil {
				third = *a.ThirdName
			}
			if a.DoneAt != nil {
				done = at(a.DoneAt.In(s.clock.Zone()))
			}
			vals := []any{a.ConsultNo, a.PathologyNumber, a.PatientName, a.HospitalName, i18n.T(lang, "advice.item."+a.Item, nil),
				a.Markers, a.Block, a.Remark, a.CreatedByName, at(a.CreatedAt.In(s.clock.Zone())), i18n.T(lang, "advice.status."+a.Status, nil),
				third, a.Result, done}
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
	f.SetColWidth(sheet, "A", "N", 18)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, apperr.Wrap(err, "xlsx")
	}
	return buf.Bytes(), nil
}

// exportAdvice sends the filtered advice of one kind as an Excel file named name.
func (s *Service) exportAdvice(kind, name string) func(context.Context, *listquery.Input) (*huma.StreamResponse, error) {
	return func(ctx context.Context, in *listquery.Input) (*huma.StreamResponse, error) {
		b, err := s.ExportAdvice(ctx, kind, in.Request())
		if err != nil {
			return nil, err
		}
		return &huma.StreamResponse{Body: func(hc huma.Context) {
			hc.SetHeader("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
			hc.SetHeader("Content-Disposition", "attachment; filename="+name+".xlsx")
			hc.BodyWriter().Write(b)
		}}, nil
	}
}

// withKey sets one key of a list's params JSON.
func withKey(params, key, value string) string {
	m := map[string]any{}
	if params != "" {
		if err := jsonUnmarshal(params, &m); err != nil {
			return params // the list engine reports the bad JSON
		}
	}
	m[key] = value
	return jsonMarshal(m)
}
