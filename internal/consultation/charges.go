package consultation

import (
	"bytes"
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/xuri/excelize/v2"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// ChargeItem is a priced item a case is charged for.
type ChargeItem struct {
	Name     string
	PriceFen int64
	Unit     string
}

// ChargeLineInput is one item of a charge.
type ChargeLineInput struct {
	ItemID   int64 `json:"item_id"`
	Quantity int   `json:"quantity" minimum:"1" maximum:"999"`
}

// ChargeRow is a charge as the charge list shows it.
type ChargeRow struct {
	ID              int64      `json:"id" db:"id"`
	OrderNo         string     `json:"order_no" db:"order_no"`
	ConsultID       int64      `json:"consult_id" db:"consult_id"`
	ConsultNo       string     `json:"consult_no" db:"consult_no"`
	PathologyNumber string     `json:"pathology_number" db:"pathology_number"`
	PatientName     string     `json:"patient_name" db:"patient_name"`
	HospitalName    string     `json:"hospital_name" db:"hospital_name"`
	TotalFen        int64      `json:"total_fen" db:"total_fen"`
	Total           string     `json:"total" db:"-" doc:"Yuan with two decimals"`
	Status          int        `json:"status" db:"status" doc:"2 charged, 3 refunded"`
	Items           string     `json:"items" db:"items"`
	ChargedAt       *time.Time `json:"charged_at" db:"charged_at"`
	RefundedAt      *time.Time `json:"refunded_at" db:"refunded_at"`
}

// Charge charges a case that is not yet submitted for the given items.
func (s *Service) Charge(ctx context.Context, id int64, lines []ChargeLineInput) error {
	if len(lines) == 0 {
		return apperr.New(apperr.Invalid, "error.validation").Field("items", "charge.need_item")
	}
	ids := make([]int64, len(lines))
	for i, l := range lines {
		ids[i] = l.ItemID
		if l.Quantity < 1 || l.Quantity > 999 {
			return apperr.New(apperr.Invalid, "error.validation").Field("items", "charge.bad_quantity")
		}
	}
	items, err := s.deps.ChargeItems(ctx, ids)
	if err != nil {
		return err
	}
	var total int64
	for _, l := range lines {
		it, ok := items[l.ItemID]
		if !ok {
			return apperr.New(apperr.Invalid, "error.validation").Field("items", "charge.unknown_item")
		}
		total += it.PriceFen * int64(l.Quantity)
	}
	p := access.FromContext(ctx)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		r, err := s.rowToWrite(ctx, tx, id)
		if err != nil {
			return err
		}
		if !p.HasAny(access.CaseSenders) {
			return apperr.New(apperr.Forbidden, "error.forbidden")
		}
		if r.Status != StatusToSubmit || r.IsRecall == RecallRequested {
			return apperr.New(apperr.Conflict, "charge.bad_state")
		}
		if r.ChargeStatus == ChargeCharged {
			return apperr.New(apperr.Conflict, "charge.already")
		}
		now := s.now()
		cid, err := db.InsertID(ctx, tx, tx.Builder().Insert("charges").
			Columns("consult_id", "order_no", "total_fen", "status", "charged_by", "charged_at", "created_at").
			Values(id, "", total, ChargeCharged, p.UserID, now, now))
		if err != nil {
			return apperr.Wrap(err, "insert charge")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("charges").Set("order_no", fmt.Sprintf("CH%s%06d", now.Format("060102"), cid)).Where("id = ?", cid)); err != nil {
			return apperr.Wrap(err, "number charge")
		}
		for _, l := range lines {
			it := items[l.ItemID]
			if _, err := db.Exec(ctx, tx, tx.Builder().Insert("charge_lines").Columns("charge_id", "item_id", "name", "price_fen", "quantity", "unit").
				Values(cid, l.ItemID, it.Name, it.PriceFen, l.Quantity, it.Unit)); err != nil {
				return apperr.Wrap(err, "insert charge line")
			}
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("consultations").Set("charge_status", ChargeCharged).Set("updated_at", now).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "mark charged")
		}
		return s.record(ctx, tx, id, ActCharge, r.State, r.State, yuan(total), nil, map[string]any{"charge_id": cid, "total_fen": total, "lines": lines})
	})
}

// Refund reverses the charge of a case that is not yet submitted.
func (s *Service) Refund(ctx context.Context, id int64) error {
	p := access.FromContext(ctx)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		r, err := s.rowToWrite(ctx, tx, id)
		if err != nil {
			return err
		}
		if !p.HasAny(access.CaseSenders) {
			return apperr.New(apperr.Forbidden, "error.forbidden")
		}
		if r.ChargeStatus != ChargeCharged {
			return apperr.New(apperr.Conflict, "charge.not_charged")
		}
		if r.Status != StatusToSubmit || r.IsRecall == RecallRequested {
			return apperr.New(apperr.Conflict, "charge.bad_state")
		}
		now := s.now()
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("charges").Set("status", ChargeRefunded).Set("refunded_at", now).
			Where("consult_id = ? AND status = ?", id, ChargeCharged)); err != nil {
			return apperr.Wrap(err, "refund")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("consultations").Set("charge_status", ChargeRefunded).Set("updated_at", now).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "mark refunded")
		}
		return s.record(ctx, tx, id, ActRefund, r.State, r.State, "", nil, nil)
	})
}

var chargeList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":               {Expr: "ch.id", Type: listquery.Int, Sort: true, Filter: true},
		"order_no":         {Expr: "ch.order_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"consult_no":       {Expr: "c.consult_no", Type: listquery.String, Filter: true, Search: true},
		"pathology_number": {Expr: "c.pathology_number", Type: listquery.String, Filter: true, Search: true},
		"patient_name":     {Expr: "c.patient_name", Type: listquery.String, Filter: true, Search: true},
		"hospital_id":      {Expr: "c.hospital_id", Type: listquery.Int, Filter: true, Lenient: true},
		"status":           {Expr: "ch.status", Type: listquery.Int, Filter: true},
		"total_fen":        {Expr: "ch.total_fen", Type: listquery.Int, Sort: true, Filter: true},
		"charged_at":       {Expr: "ch.charged_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
	},
	DefaultSort: []string{"ch.id DESC"},
	TieBreak:    "ch.id DESC",
}

func (s *Service) charges(ctx context.Context, req listquery.Request) (sq.SelectBuilder, sq.SelectBuilder, *listquery.Query, error) {
	q, err := chargeList.Parse(s.db.Dialect, req)
	if err != nil {
		return sq.SelectBuilder{}, sq.SelectBuilder{}, nil, err
	}
	scope, err := s.scope(ctx)
	if err != nil {
		return sq.SelectBuilder{}, sq.SelectBuilder{}, nil, err
	}
	b := s.db.Builder()
	items := "(SELECT " + s.concat("cl.name") + " FROM charge_lines cl WHERE cl.charge_id = ch.id)"
	base := b.Select("ch.id, ch.order_no, ch.consult_id, c.consult_no, c.pathology_number, c.patient_name, h.name AS hospital_name, " +
		"ch.total_fen, ch.status, ch.charged_at, ch.refunded_at, COALESCE(" + items + ", '') AS items").
		From("charges ch").Join("consultations c ON c.id = ch.consult_id").Join("hospitals h ON h.id = c.hospital_id").Where(scope)
	count := b.Select("COUNT(*)").From("charges ch").Join("consultations c ON c.id = ch.consult_id").Where(scope)
	return base, count, q, nil
}

// concat aggregates text values with "、" in either dialect.
func (s *Service) concat(expr string) string {
	if s.db.Dialect == db.Postgres {
		return "string_agg(" + expr + ", '、')"
	}
	return "group_concat(" + expr + ", '、')"
}

// ListCharges returns a page of the charges of cases the caller may see.
func (s *Service) ListCharges(ctx context.Context, req listquery.Request) ([]ChargeRow, listquery.Pagination, error) {
	base, count, q, err := s.charges(ctx, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	rows, page, err := listquery.Run[ChargeRow](ctx, s.db, q, base, count)
	for i := range rows {
		rows[i].Total = yuan(rows[i].TotalFen)
	}
	return rows, page, err
}

// ExportCharges writes the filtered charge list (up to 50,000 rows) as xlsx.
func (s *Service) ExportCharges(ctx context.Context, req listquery.Request) ([]byte, error) {
	req.Page, req.PageSize = "1", "10000"
	lang := i18n.From(ctx)
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	head := []string{"order_no", "consult_no", "pathology_number", "patient_name", "hospital", "items", "total", "status", "charged_at"}
	for i, h := range head {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		f.SetCellValue(sheet, cell, i18n.T(lang, "charge.column."+h, nil))
	}
	row := 2
	for page := 1; page <= 5; page++ {
		req.Page = fmt.Sprint(page)
		rows, p, err := s.ListCharges(ctx, req)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			at := ""
			if r.ChargedAt != nil {
				at = r.ChargedAt.In(s.clock.Zone()).Format("2006-01-02 15:04:05")
			}
			vals := []any{r.OrderNo, r.ConsultNo, r.PathologyNumber, r.PatientName, r.HospitalName, r.Items,
				float64(r.TotalFen) / 100, i18n.T(lang, fmt.Sprintf("charge.status.%d", r.Status), nil), at}
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

func yuan(fen int64) string { return fmt.Sprintf("%d.%02d", fen/100, fen%100) }
