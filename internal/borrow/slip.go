package borrow

import (
	"context"
	"fmt"
	"strconv"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
	"telepath/internal/report"
)

// Slip renders a loan's printable slip (PDF): who borrows what, until when,
// the deposit, and lines for the borrower's and the keeper's signatures.
func (s *Service) Slip(ctx context.Context, id int64) ([]byte, *Loan, error) {
	l, err := s.load(ctx, s.db, id)
	if err != nil {
		return nil, nil, err
	}
	if !Allowed(access.FromContext(ctx), l, ActSlip) {
		return nil, nil, apperr.New(apperr.Conflict, "borrow.not_allowed").
			With("action", apperr.MsgKey("borrow.action.slip")).With("status", apperr.MsgKey("borrow.status."+string(l.Status)))
	}
	lang := i18n.From(ctx)
	T := func(k string) string { return i18n.T(lang, "borrow.slip."+k, nil) }
	rows := [][2]string{
		{T("case"), l.ConsultNo},
		{T("patient"), l.PatientName},
		{T("hospital"), l.HospitalName},
		{T("type"), i18n.T(lang, "borrow.type."+string(l.Type), nil)},
		{T("borrower"), l.Borrower},
		{T("phone"), l.BorrowerPhone},
		{T("purpose"), l.Purpose},
		{T("material"), i18n.T(lang, "borrow.slip.count", map[string]any{"slides": l.Slides, "blocks": l.Blocks})},
		{T("items"), l.Items},
		{T("due"), l.DueDate},
		{T("status"), i18n.T(lang, "borrow.status."+string(l.Status), nil)},
	}
	if l.LentAt != nil {
		rows = append(rows, [2]string{T("lent_at"), s.clock.Local(*l.LentAt).Format("2006-01-02 15:04")},
			[2]string{T("deposit"), strconv.FormatInt(l.Deposit, 10)}, [2]string{T("payee"), l.Payee})
	}
	if l.ReturnedAt != nil {
		ret := s.clock.Local(*l.ReturnedAt).Format("2006-01-02 15:04")
		if l.Damaged {
			ret += " · " + i18n.T(lang, "borrow.slip.damaged", map[string]any{"amount": l.Compensation})
		}
		rows = append(rows, [2]string{T("returned_at"), ret})
	}
	pdf, err := report.RenderSlip(report.Slip{
		Lang: lang, Title: T("title"), Org: l.CenterName, Number: fmt.Sprintf("%s %s", T("number"), l.BorrowNo),
		Rows: rows, Note: T("terms"), Signatures: []string{T("sign_borrower"), T("sign_keeper"), T("sign_date")},
		PrintedAt: s.clock.Now(), Location: s.clock.Zone(),
	})
	return pdf, l, err
}
