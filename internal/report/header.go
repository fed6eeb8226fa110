package report

import (
	"strconv"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

const qrSize = 64.0 // points, about 23 mm: scans from paper at arm's length

// header draws the first page's head: center name and title centred, the
// supplementary marker, the QR code with the verification code on the right,
// then the sending hospital and the report number (and report class) above a rule.
func (p *pdf) header() {
	d := p.d
	y := top
	qrBottom := y
	h := p.t.Header
	if bits := qrBits(d.VerifyURL); bits != nil && h.Verify {
		x := right - qrSize
		p.qr(bits, x, y, qrSize)
		qrBottom = y + qrSize + 2
		if code := strings.TrimSpace(d.VerifyCode); code != "" {
			label := p.T(keyVerifyCode, map[string]any{"code": clip(code, 24)})
			p.textCenter(x+qrSize/2, qrBottom, label, 7.5, colMuted, false)
			qrBottom += 7.5 * 1.4
		}
	}
	// The title block is centred on the page but kept clear of the QR code.
	blockW := contentW - 2*(qrSize+8)
	if name := strings.TrimSpace(d.CenterName); name != "" && h.Center {
		for _, l := range p.boldLines(clip(name, 120), blockW, 15) {
			p.textCenter(pageW/2, y, l, 15, colText, true)
			y += 15 * 1.45
		}
		y += 2
	}
	// A long title shrinks a little before it wraps.
	titleSize := 19.0
	for titleSize > 15 && p.styledWidth(p.t.Title, titleSize, true) > blockW {
		titleSize--
	}
	for _, l := range p.boldLines(p.t.Title, blockW, titleSize) {
		p.textCenter(pageW/2, y, l, titleSize, colAccent, true)
		y += titleSize * 1.4
	}
	if d.Supplementary || d.Version > 1 {
		var parts []string
		if d.Supplementary {
			parts = append(parts, p.T(keySupplementary, nil))
		}
		if d.Version > 0 {
			parts = append(parts, p.T(keyVersion, map[string]any{"n": d.Version}))
		}
		mark := strings.Join(parts, " · ")
		w := p.styledWidth(mark, 10, true) + 12
		p.strokeRect(pageW/2-w/2, y+1, w, 16, 0.8, colMark)
		p.textCenter(pageW/2, y+3.5, mark, 10, colMark, true)
		y += 22
	}
	y = max(y+6, qrBottom+4)

	// Sending hospital left, report number right; the number keeps what it
	// needs (up to half the width), the hospital takes the rest; both may wrap.
	var hosp, no []string
	noW := 0.0
	var labels []string
	if h.ReportNo && strings.TrimSpace(d.ReportNo) != "" {
		labels = append(labels, p.T(keyReportNo, map[string]any{"no": clip(d.ReportNo, 80)}))
	}
	// The report class the expert chose goes under the number.
	if class := strings.TrimSpace(d.ReportClass); class != "" {
		labels = append(labels, p.T(keyReportClass, map[string]any{"class": clip(class, 80)}))
	}
	for _, label := range labels {
		noW = max(noW, min(p.textWidth(label, sizeLabel)+1, contentW/2-6))
	}
	for _, label := range labels {
		no = append(no, p.lines(label, noW, sizeLabel)...)
	}
	if h.Hospital && strings.TrimSpace(d.HospitalName) != "" {
		hosp = p.lines(p.T(keySendingHospital, map[string]any{"name": clip(d.HospitalName, 200)}), contentW-noW-18, sizeLabel)
	}
	lh := sizeLabel * 1.5
	for i := 0; i < max(len(hosp), len(no)); i++ {
		if i < len(hosp) {
			p.text(left, y, hosp[i], sizeLabel, colText, false)
		}
		if i < len(no) {
			p.textRight(right, y, no[i], sizeLabel, colText, false)
		}
		y += lh
	}
	y += 2
	p.line(left, y, right, y, 1.4, colAccent)
	p.line(left, y+2.2, right, y+2.2, 0.4, colAccent)
	p.y = y + 12
}

// runningHeader heads pages after the first with the title, the patient and
// the report number.
func (p *pdf) runningHeader() {
	y := top - 14
	p.text(left, y, clip(p.t.Title, 40), sizeSmall, colMuted, false)
	var parts []string
	if n := strings.TrimSpace(p.d.Patient.Name); n != "" {
		parts = append(parts, clip(n, 30))
	}
	if no := strings.TrimSpace(p.d.ReportNo); no != "" {
		parts = append(parts, p.T(keyReportNo, map[string]any{"no": clip(no, 40)}))
	}
	p.textRight(right, y, strings.Join(parts, "   "), sizeSmall, colMuted, false)
	p.line(left, y+sizeSmall*1.5, right, y+sizeSmall*1.5, 0.4, colRule)
	p.y = top + 6
}

// qrBits encodes the verification URL; nil when there is none or it is too
// long for a QR code.
func qrBits(url string) [][]bool {
	url = strings.TrimSpace(url)
	if url == "" {
		return nil
	}
	q, err := qrcode.New(url, qrcode.Medium)
	if err != nil {
		return nil
	}
	q.DisableBorder = true
	return q.Bitmap()
}

// qr draws the code as vector rectangles, one per horizontal run of dark
// modules, so it prints sharp at any resolution.
func (p *pdf) qr(bits [][]bool, x, y, size float64) {
	m := size / float64(len(bits))
	p.gp.SetFillColor(0, 0, 0)
	for r, row := range bits {
		for c := 0; c < len(row); {
			if !row[c] {
				c++
				continue
			}
			start := c
			for c < len(row) && row[c] {
				c++
			}
			// A hair of overlap hides the seams some viewers show between runs.
			p.gp.RectFromUpperLeftWithStyle(x+float64(start)*m, y+float64(r)*m, float64(c-start)*m+0.05, m+0.05, "F")
		}
	}
}

// clip shortens s to n runes with an ellipsis; single-line places use it so
// hostile input cannot push text off the page.
func clip(s string, n int) string {
	s = strings.TrimSpace(cleanText(s))
	s = strings.ReplaceAll(s, "\n", " ")
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

func itoa(n int) string { return strconv.Itoa(n) }
