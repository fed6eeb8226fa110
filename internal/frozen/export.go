package frozen

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/xuri/excelize/v2"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// TurnaroundTarget is the benchmark a frozen case is measured against: the
// College of American Pathologists' 20 minutes from arrival to report.
const TurnaroundTarget = 20 * time.Minute

// Export writes the filtered appointments (up to 10,000) as xlsx in the
// caller's language, with each frozen case's turnaround and, last, the
// share of reported cases under 20 minutes.
func (s *Service) Export(ctx context.Context, req listquery.Request) ([]byte, error) {
	lang := i18n.From(ctx)
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	head := []string{"id", "hospital", "center", "patient_name", "operation_at", "operating_room", "surgeon", "specimen_site",
		"phase", "expert", "arrived_at", "assigned_at", "first_open_at", "reported_at", "turnaround_min", "paraffin_case", "concordance"}
	for i, h := range head {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		f.SetCellValue(sheet, cell, i18n.T(lang, "frozen.column."+h, nil))
	}
	zone := s.clock.Zone()
	at := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.In(zone).Format("2006-01-02 15:04:05")
	}
	row, reported, under := 2, 0, 0
	for page := 1; page <= 10; page++ {
		req.Page, req.PageSize = fmt.Sprint(page), "1000"
		rows, p, err := s.Appointments(ctx, req)
		if err != nil {
			return nil, err
		}
		for _, a := range rows {
			expert, tat, paraffin, concordance := "", "", "", ""
			if a.ExpertName != nil {
				expert = *a.ExpertName
			}
			if a.ParaffinConsultNo != nil {
				paraffin = *a.ParaffinConsultNo
			}
			if a.Concordance != "" {
				concordance = i18n.T(lang, "frozen.concordance."+a.Concordance, nil)
			}
			if a.TurnaroundSec != nil {
				tat = fmt.Sprintf("%.1f", float64(*a.TurnaroundSec)/60)
				reported++
				if time.Duration(*a.TurnaroundSec)*time.Second <= TurnaroundTarget {
					under++
				}
			}
			op := a.OperationAt
			vals := []any{a.ID, a.HospitalName, a.CenterName, a.PatientName, at(&op), a.OperatingRoom, a.Surgeon, a.SpecimenSite,
				i18n.T(lang, "frozen.phase."+string(a.Phase), nil), expert, at(a.ArrivedAt), at(a.AssignedAt), at(a.FirstOpenAt),
				at(a.ReportedAt), tat, paraffin, concordance}
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
	if reported > 0 {
		cell, _ := excelize.CoordinatesToCellName(1, row+1)
		vals := []any{i18n.T(lang, "frozen.column.under_target", nil), fmt.Sprintf("%d / %d (%.0f%%)", under, reported, 100*float64(under)/float64(reported))}
		f.SetSheetRow(sheet, cell, &vals)
	}
	f.SetColWidth(sheet, "A", "Q", 18)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, apperr.Wrap(err, "xlsx")
	}
	return buf.Bytes(), nil
}

func (s *Service) export(ctx context.Context, in *listquery.Input) (*huma.StreamResponse, error) {
	b, err := s.Export(ctx, in.Request())
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		hc.SetHeader("Content-Disposition", "attachment; filename=frozen_appointments.xlsx")
		hc.BodyWriter().Write(b)
	}}, nil
}
