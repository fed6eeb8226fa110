package report

import (
	"strings"

	"github.com/signintech/gopdf"
)

// section draws one template section at the cursor. Text sections whose
// text is empty are left out, except the diagnosis, which prints "none" so a
// missing opinion is visible rather than silent.
func (p *pdf) section(s Section, heading string) {
	d := p.d
	switch s.Key {
	case SectionPatient:
		p.patientTable(s.Fields)
	case SectionClinical:
		p.textSection(heading, d.Patient.ClinicalDiagnosis, sizeBody, colText, false)
	case SectionSpecimens:
		p.specimens(heading)
	case SectionGross:
		p.textSection(heading, d.Gross, sizeBody, colText, false)
	case SectionMicroscopic:
		p.textSection(heading, d.Microscopic, sizeBody, colText, false)
	case SectionIHC:
		p.textSection(heading, d.Immunohistochemistry, sizeBody, colText, false)
	case SectionDiagnosis:
		text := d.Diagnosis
		if strings.TrimSpace(text) == "" {
			text = p.T(keyNone, nil)
		}
		p.textSection(heading, text, 11.5, colText, true)
	case SectionImages:
		p.images(heading)
	case SectionRemark:
		p.textSection(heading, d.Remark, sizeBody, colText, false)
	case SectionCritical:
		p.textSection(heading, d.CriticalValues, sizeBody, colMark, true)
	case SectionSignatures:
		p.signatures()
	case SectionDates:
		p.dates()
	}
}

// heading draws a section heading, keeping room for what follows it.
func (p *pdf) heading(h string, c rgb, follow float64) {
	p.y += 4
	p.need(sizeHeading*1.6 + follow)
	p.fillRect(left, p.y+1.5, 3, sizeHeading+1, c)
	p.text(left+9, p.y+0.5, clip(h, maxHeadingRunes), sizeHeading, c, true)
	p.y += sizeHeading * 1.75
}

func (p *pdf) textSection(heading, text string, size float64, c rgb, bold bool) {
	if strings.TrimSpace(text) == "" {
		return
	}
	hc := colAccent
	if c == colMark {
		hc = colMark
	}
	p.heading(heading, hc, 2*size*leading)
	p.paragraph(strings.Trim(cleanText(text), "\n"), left+9, contentW-9, size, c, bold, heading)
	p.y += 6
}

// gridCell is one cell of a boxed table: a muted label column and a value
// that wraps under itself.
type gridCell struct {
	x, w   float64
	label  []string
	labelW float64
	value  []string
	bold   bool
}

const cellPad = 5.0

// grid draws rows of cells inside a box that continues across pages: each
// page's part is closed at the bottom and reopened at the top of the next.
type grid struct {
	p     *pdf
	size  float64
	page  int // page of the last chunk drawn; 0 before the first
	outer rgb
	inner rgb
}

func (g *grid) row(cells []gridCell, fill *rgb) {
	p := g.p
	lh := g.size * 1.5
	n := 1
	for _, c := range cells {
		n = max(n, len(c.label), len(c.value))
	}
	for k := 0; k < n; {
		avail := int((bottom - p.y - 2*cellPad) / lh)
		full := int((bottom - top - 40 - 2*cellPad) / lh)
		// Start the row on a new page when it would fit there whole, or when
		// not a single line fits here.
		if avail < 1 || (k == 0 && avail < n && n <= full) {
			if g.page == p.pages {
				p.line(left, p.y, right, p.y, 0.8, g.outer)
			}
			p.newPage()
			continue
		}
		chunk := min(avail, n-k)
		h := float64(chunk)*lh + 2*cellPad
		if fill != nil {
			p.fillRect(left, p.y, contentW, h, *fill)
		}
		if g.page != p.pages {
			p.line(left, p.y, right, p.y, 0.8, g.outer)
			g.page = p.pages
		}
		for _, c := range cells {
			for i := k; i < k+chunk; i++ {
				ty := p.y + cellPad + float64(i-k)*lh + (lh-g.size)/2
				if i < len(c.label) {
					p.text(left+c.x+cellPad, ty, c.label[i], g.size, colMuted, false)
				}
				if i < len(c.value) {
					p.text(left+c.x+cellPad+c.labelW, ty, c.value[i], g.size, colText, c.bold)
				}
			}
		}
		p.line(left, p.y, left, p.y+h, 0.8, g.outer)
		p.line(right, p.y, right, p.y+h, 0.8, g.outer)
		p.y += h
		p.line(left, p.y, right, p.y, 0.3, g.inner)
		k += chunk
	}
}

func (g *grid) close() {
	g.p.line(left, g.p.y, right, g.p.y, 0.8, g.outer)
}

// patientTable draws the case as label: value pairs, three to a row; free
// text fields (clinical diagnosis, history) take a whole row.
func (p *pdf) patientTable(fields []string) {
	const cols = 3
	colW := contentW / cols
	size := sizeLabel
	type item struct {
		spec  *fieldSpec
		label string
	}
	items := make([]item, 0, len(fields))
	for _, f := range fields {
		spec := patientField(f)
		if spec == nil {
			continue
		}
		items = append(items, item{spec, p.T(keyFieldPrefix+f, nil) + p.T("report.colon", nil)})
	}
	if len(items) == 0 {
		return
	}
	// Each column lines its values up behind its widest label, so labels
	// never wrap unless one is wider than half its column; a whole-row
	// field uses the first column's label width.
	col := make([]int, len(items))
	for i, n := 0, 0; i < len(items); i++ {
		if items[i].spec.wide {
			n = 0
		}
		col[i] = n
		n = (n + 1) % cols
		if items[i].spec.wide {
			n = 0
		}
	}
	var labelW [cols]float64
	for i, it := range items {
		labelW[col[i]] = max(labelW[col[i]], min(p.textWidth(it.label, size)+0.5, colW*0.5))
	}
	const gap = 4.0
	g := &grid{p: p, size: size, outer: rgb{0x8a, 0x94, 0xa0}, inner: colRule}
	var row []gridCell
	flush := func() {
		if len(row) > 0 {
			g.row(row, nil)
			row = nil
		}
	}
	for i, it := range items {
		w := colW
		if it.spec.wide {
			flush()
			w = contentW
		}
		lw := labelW[col[i]]
		c := gridCell{x: float64(len(row)) * colW, w: w, labelW: lw + gap}
		c.label = p.lines(it.label, lw, size)
		value := strings.TrimSpace(it.spec.value(p.d))
		if !it.spec.wide {
			value = clip(value, 200)
		}
		c.bold = it.spec.key == "name"
		if c.bold {
			c.value = p.boldLines(value, w-lw-gap-2*cellPad, size)
		} else {
			c.value = p.lines(value, w-lw-gap-2*cellPad, size)
		}
		row = append(row, c)
		if it.spec.wide || len(row) == cols {
			flush()
		}
	}
	flush()
	g.close()
	p.y += 8
}

// specimens lists the specimens: number, name, part and blocks.
func (p *pdf) specimens(heading string) {
	ss := p.d.Specimens
	if len(ss) == 0 {
		return
	}
	size := sizeLabel
	p.heading(heading, colAccent, 3*size*1.5+2*cellPad)
	widths := []float64{0.09, 0.33, 0.30, 0.28}
	cols := func(vals []string, bold bool) []gridCell {
		cells := make([]gridCell, len(vals))
		x := 0.0
		for i, v := range vals {
			w := widths[i] * contentW
			cells[i] = gridCell{x: x, w: w, value: p.lines(clip(v, 300), w-2*cellPad, size), bold: bold}
			x += w
		}
		return cells
	}
	g := &grid{p: p, size: size, outer: rgb{0x8a, 0x94, 0xa0}, inner: colRule}
	fill := colFill
	g.row(cols([]string{p.T(keySpecimenNo, nil), p.T(keySpecimenName, nil),
		p.T(keySpecimenPart, nil), p.T(keySpecimenBlocks, nil)}, true), &fill)
	for i, s := range ss {
		no := strings.TrimSpace(s.SerialNumber)
		if no == "" {
			no = itoa(i + 1)
		}
		g.row(cols([]string{no, s.Name, s.Part, strings.Join(s.Blocks, ", ")}, false), nil)
	}
	g.close()
	p.y += 8
}

// images lays the pictures out two to a row, each scaled to fit its frame,
// with its caption centred under it.
func (p *pdf) images(heading string) {
	imgs := p.d.Images
	if len(imgs) == 0 {
		return
	}
	if len(imgs) > MaxImages {
		imgs = imgs[:MaxImages]
	}
	const gap = 14.0
	cellW := (contentW - gap) / 2
	frameH := cellW * 0.75
	capSize := 8.5
	capLH := capSize * 1.45
	first := true
	for i := 0; i < len(imgs); i += 2 {
		rowImgs := imgs[i:min(i+2, len(imgs))]
		capLines := 0
		caps := make([][]string, len(rowImgs))
		for j, im := range rowImgs {
			caps[j] = p.lines(clip(im.Caption, 160), cellW, capSize)
			if len(caps[j]) > 3 {
				caps[j] = caps[j][:3]
			}
			capLines = max(capLines, len(caps[j]))
		}
		rowH := frameH + 5 + float64(capLines)*capLH + 10
		if first {
			p.heading(heading, colAccent, rowH)
			first = false
		} else {
			p.need(rowH)
		}
		for j, im := range rowImgs {
			x := left + float64(j)*(cellW+gap)
			if len(rowImgs) == 1 {
				x = left + (contentW-cellW)/2
			}
			p.picture(im.Data, x, p.y, cellW, frameH, im.Labels...)
			for k, l := range caps[j] {
				p.textCenter(x+cellW/2, p.y+frameH+5+float64(k)*capLH, l, capSize, colMuted, false)
			}
		}
		p.y += rowH
	}
}

// picture draws an image scaled into the frame, or a grey "image
// unavailable" frame when its bytes are not a readable image.
func (p *pdf) picture(b []byte, x, y, w, h float64, labels ...Label) {
	pic := preparePicture(b, maxPhotoPx, false, labels...)
	if pic.ok {
		s := min(w/float64(pic.w), h/float64(pic.h))
		iw, ih := float64(pic.w)*s, float64(pic.h)*s
		ix, iy := x+(w-iw)/2, y+(h-ih)/2
		if holder, err := gopdf.ImageHolderByBytes(pic.data); err == nil {
			if err := p.gp.ImageByHolder(holder, ix, iy, &gopdf.Rect{W: iw, H: ih}); err == nil {
				p.strokeRect(ix, iy, iw, ih, 0.4, colRule)
				return
			}
		}
	}
	p.fillRect(x, y, w, h, colMissing)
	p.textCenter(x+w/2, y+h/2-sizeLabel/2, p.T(keyImageUnavailable, nil), sizeLabel, colMuted, false)
}

// signatures closes the report: the signing expert with the handwritten
// signature when there is one, and the reviewer.
func (p *pdf) signatures() {
	d := p.d
	const sigH = 34.0
	size := sizeBody
	lh := size * 1.8
	p.y += 6
	p.need(sigH + 2*lh + 16)
	p.line(left, p.y, right, p.y, 0.6, colRule)
	p.y += 10
	half := contentW / 2
	colon := p.T("report.colon", nil)

	// Row 1: expert (with signature image) and reviewer.
	y := p.y
	label := p.T(keyExpert, nil) + colon
	lw := p.textWidth(label, size)
	rowH := lh
	sig := preparePicture(d.SignatureImage, maxSignaturePx, true)
	nameX := left + lw + 4
	if sig.ok {
		s := min(sigH/float64(sig.h), 120/float64(sig.w))
		sw, sh := float64(sig.w)*s, float64(sig.h)*s
		if holder, err := gopdf.ImageHolderByBytes(sig.data); err == nil {
			if err := p.gp.ImageByHolder(holder, nameX, y, &gopdf.Rect{W: sw, H: sh}); err == nil {
				nameX += sw + 8
				rowH = max(rowH, sh)
			}
		}
	}
	ty := y + (rowH-size)/2
	expert := clip(d.Expert, 40)
	p.text(left, ty, label, size, colMuted, false)
	p.text(nameX, ty, expert, size, colText, true)
	if r := strings.TrimSpace(d.Reviewer); r != "" {
		// The reviewer starts at the middle, or after a long expert name.
		l := p.T(keyReviewer, nil) + colon
		x := max(left+half, nameX+p.styledWidth(expert, size, true)+18)
		p.text(x, ty, l, size, colMuted, false)
		p.text(x+p.textWidth(l, size)+4, ty, clip(r, 40), size, colText, true)
	}
	p.y = y + rowH + 4
}

// dates prints when the report was signed and released.
func (p *pdf) dates() {
	d := p.d
	size := sizeBody
	lh := size * 1.8
	half := contentW / 2
	colon := p.T("report.colon", nil)
	if d.ReportedAt.IsZero() && d.PublishedAt.IsZero() {
		return
	}
	p.need(lh)
	if s := p.formatTime(d.ReportedAt); s != "" {
		l := p.T(keyReportedAt, nil) + colon
		p.text(left, p.y, l, size, colMuted, false)
		p.text(left+p.textWidth(l, size)+4, p.y, s, size, colText, false)
	}
	if s := p.formatTime(d.PublishedAt); s != "" {
		l := p.T(keyPublishedAt, nil) + colon
		p.text(left+half, p.y, l, size, colMuted, false)
		p.text(left+half+p.textWidth(l, size)+4, p.y, s, size, colText, false)
	}
	p.y += lh
}
