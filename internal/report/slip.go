package report

import (
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// Slip is a one-page form printed with the report's fonts and page: a loan
// slip, a receipt. Rows are label and value; Signatures are the labels of
// the lines people sign on paper.
type Slip struct {
	Lang       i18n.Lang
	Title      string
	Org        string // who prints it, above the title
	Number     string // printed at the top right
	Rows       [][2]string
	Note       string // a paragraph under the rows (terms, a remark)
	Signatures []string
	PrintedAt  time.Time
	Location   *time.Location
}

// RenderSlip lays out s on one A4 page (long values wrap; a very long slip
// flows onto further pages) and returns the PDF.
func RenderSlip(s Slip) ([]byte, error) {
	if s.Lang != i18n.EN {
		s.Lang = i18n.ZH
	}
	d := &Data{Lang: s.Lang, CenterName: s.Org, ReportNo: s.Number, PrintedAt: s.PrintedAt, Location: s.Location}
	p, err := newPDF(d, &Template{Title: s.Title})
	if err != nil {
		return nil, err
	}
	p.textCenter(pageW/2, p.y, s.Org, sizeHeading+2, colAccent, true)
	p.y += (sizeHeading + 2) * 1.8
	p.textCenter(pageW/2, p.y, s.Title, sizeHeading+4, colText, true)
	p.y += (sizeHeading + 4) * 1.6
	if s.Number != "" {
		p.textRight(right, p.y, s.Number, sizeLabel, colMuted, false)
		p.y += sizeLabel * 1.8
	}
	p.line(left, p.y, right, p.y, 1, colAccent)
	p.y += 8
	const labelW = 120.0
	for _, r := range s.Rows {
		lines := p.lines(r[1], contentW-labelW-16, sizeBody)
		if len(lines) == 0 {
			lines = []string{""}
		}
		h := float64(len(lines))*sizeBody*leading + 8
		p.need(h)
		p.fillRect(left, p.y, labelW, h, colFill)
		p.strokeRect(left, p.y, contentW, h, 0.5, colRule)
		p.line(left+labelW, p.y, left+labelW, p.y+h, 0.5, colRule)
		p.text(left+8, p.y+4+(sizeBody*leading-sizeLabel)/2, r[0], sizeLabel, colMuted, false)
		y := p.y + 4
		for _, l := range lines {
			p.text(left+labelW+8, y+(sizeBody*leading-sizeBody)/2, l, sizeBody, colText, false)
			y += sizeBody * leading
		}
		p.y += h
	}
	if s.Note != "" {
		p.y += 10
		p.paragraph(s.Note, left, contentW, sizeSmall+0.5, colMuted, false, "")
	}
	if len(s.Signatures) > 0 {
		p.y += 28
		p.need(40)
		w := contentW / float64(len(s.Signatures))
		for i, sig := range s.Signatures {
			x := left + float64(i)*w
			p.text(x, p.y, sig, sizeLabel, colText, false)
			p.line(x+p.textWidth(sig, sizeLabel)+6, p.y+sizeLabel+2, x+w-16, p.y+sizeLabel+2, 0.5, colText)
		}
		p.y += 30
	}
	printed := p.T(keyPrintedAt, map[string]any{"time": p.formatTime(d.PrintedAt)})
	for i := 1; i <= p.pages; i++ {
		if err := p.gp.SetPage(i); err != nil {
			break
		}
		p.line(left, footerLine, right, footerLine, 0.5, colRule)
		p.text(left, footerLine+5, printed, sizeSmall, colMuted, false)
		p.textRight(right, footerLine+5, p.T(keyPage, map[string]any{"page": i, "pages": p.pages}), sizeSmall, colMuted, false)
	}
	b, err := p.gp.GetBytesPdfReturnErr()
	if err != nil {
		return nil, apperr.Wrap(err, "slip: write pdf")
	}
	return b, nil
}
