package statistics

import (
	"bytes"
	"context"
	"fmt"

	"github.com/danielgtaylor/huma/v2"
	"github.com/xuri/excelize/v2"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// Export writes a screen's report as xlsx: a first sheet with the period,
// the filters' scope and the cards, then one sheet per table, with the
// same labels and numbers as the screen.
func (s *Service) Export(ctx context.Context, screen Screen, q StatQuery) ([]byte, error) {
	rep, err := s.Stats(ctx, screen, q)
	if err != nil {
		return nil, err
	}
	r := &run{lang: i18n.From(ctx)}
	f := excelize.NewFile()
	defer f.Close()
	summary := sheetName(r.t("statistics.sheet.summary"), 0)
	f.SetSheetName(f.GetSheetName(0), summary)
	rows := [][]any{
		{r.t("statistics.sheet.screen"), r.t("statistics.screen." + string(screen))},
		{r.t("statistics.sheet.period"), rep.Start + " – " + rep.End + " (" + rep.Zone + ")"},
		{},
	}
	for _, c := range rep.Cards {
		rows = append(rows, []any{c.Label, cell(c.Value), r.t("statistics.unit." + c.Unit)})
	}
	for _, n := range rep.Notes {
		rows = append(rows, []any{}, []any{n})
	}
	if err := writeRows(f, summary, rows); err != nil {
		return nil, err
	}
	f.SetColWidth(summary, "A", "A", 36)
	f.SetColWidth(summary, "B", "C", 18)
	for i, t := range rep.Tables {
		name := sheetName(t.Title, i+1)
		if _, err := f.NewSheet(name); err != nil {
			return nil, apperr.Wrap(err, "xlsx sheet")
		}
		head := []any{t.Head}
		for _, c := range t.Columns {
			head = append(head, fmt.Sprintf("%s (%s)", c.Label, r.t("statistics.unit."+c.Unit)))
		}
		rows := [][]any{head}
		for _, row := range t.Rows {
			line := []any{row.Label}
			for _, v := range row.Values {
				line = append(line, cell(v))
			}
			rows = append(rows, line)
		}
		if err := writeRows(f, name, rows); err != nil {
			return nil, err
		}
		f.SetColWidth(name, "A", "A", 30)
		f.SetColWidth(name, "B", "T", 16)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, apperr.Wrap(err, "xlsx")
	}
	return buf.Bytes(), nil
}

// cell is a value as the sheet holds it: a number, or empty for no data.
func cell(v *float64) any {
	if v == nil {
		return ""
	}
	return *v
}

func writeRows(f *excelize.File, sheet string, rows [][]any) error {
	for i, row := range rows {
		at, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sheet, at, &row); err != nil {
			return apperr.Wrap(err, "xlsx row")
		}
	}
	return nil
}

// sheetName makes a valid, unique sheet name of a title (31 characters, no []:*?/\).
func sheetName(title string, i int) string {
	clean := []rune{}
	for _, c := range title {
		switch c {
		case '[', ']', ':', '*', '?', '/', '\\':
			c = ' '
		}
		clean = append(clean, c)
	}
	if len(clean) > 27 {
		clean = clean[:27]
	}
	if i == 0 {
		return string(clean)
	}
	return fmt.Sprintf("%d %s", i, string(clean))
}

func (s *Service) export(ctx context.Context, screen Screen, q StatQuery) (*huma.StreamResponse, error) {
	b, err := s.Export(ctx, screen, q)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		hc.SetHeader("Content-Disposition", "attachment; filename=statistics_"+string(screen)+".xlsx")
		hc.BodyWriter().Write(b)
	}}, nil
}
