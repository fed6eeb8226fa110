package report

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/phpdave11/gofpdi"
	"github.com/signintech/gopdf"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/i18n"
)

// The fonts: Droid Sans Fallback (Apache 2.0, see fonts/NOTICE) for Chinese,
// Japanese and Korean, and DejaVu Sans with its bold face (see
// fonts/LICENSE-DejaVu.txt) for Latin text and digits, which the fallback
// font does not draw. All have TrueType outlines, so gopdf subsets them.
// Bold Latin uses the real bold face. Droid has no bold and gopdf cannot
// stroke text, so bold CJK is drawn twice a hair apart: the copies overlap
// almost entirely, which text extraction (pdftotext, copy and paste) reads
// as one character, unlike narrow Latin glyphs, which is why they do not
// take that path.
//
//go:embed fonts/DroidSansFallbackFull.ttf
var cjkTTF []byte

//go:embed fonts/DejaVuSans.ttf
var latinTTF []byte

//go:embed fonts/DejaVuSans-Bold.ttf
var latinBoldTTF []byte

const (
	cjkFamily       = "droid"
	latinFamily     = "dejavu"
	latinBoldFamily = "dejavu-bold"
	fakeBoldOffset  = 0.035 // of the size, for CJK bold
)

// family is the font that draws r.
func family(r rune) string {
	if r < 0x2E80 {
		return latinFamily
	}
	return cjkFamily
}

var (
	fontOnce sync.Once
	fontBox  *gopdf.FontContainer
	fontErr  error
)

// parsedFont parses the embedded fonts once; every Render copies them.
func parsedFont() (*gopdf.FontContainer, error) {
	fontOnce.Do(func() {
		fontBox = &gopdf.FontContainer{}
		if fontErr = fontBox.AddTTFFontData(cjkFamily, cjkTTF); fontErr == nil {
			fontErr = fontBox.AddTTFFontData(latinFamily, latinTTF)
		}
		if fontErr == nil {
			fontErr = fontBox.AddTTFFontData(latinBoldFamily, latinBoldTTF)
		}
	})
	return fontBox, fontErr
}

// Page geometry in points (A4 portrait, 18 mm margins).
const (
	pageW      = 595.28
	pageH      = 841.89
	margin     = 51.0 // 18 mm
	left       = margin
	right      = pageW - margin
	contentW   = right - left
	top        = margin
	bottom     = pageH - 66 // content stops here; the footer lives below
	footerLine = pageH - 58
)

// Type sizes and colours.
const (
	sizeBody    = 10.5
	sizeSmall   = 8.5
	sizeLabel   = 9.5
	sizeHeading = 12
	leading     = 1.6 // line height as a multiple of the size
)

type rgb struct{ r, g, b uint8 }

var (
	colText    = rgb{0x21, 0x21, 0x21}
	colMuted   = rgb{0x6b, 0x6b, 0x6b}
	colAccent  = rgb{0x1f, 0x3a, 0x5f}
	colRule    = rgb{0xc8, 0xcd, 0xd4}
	colFill    = rgb{0xf3, 0xf5, 0xf8}
	colMark    = rgb{0xb0, 0x24, 0x1c}
	colWMark   = rgb{0x99, 0x99, 0x99}
	colMissing = rgb{0xe6, 0xe8, 0xeb}
)

// Render lays out the report and returns the PDF. An invalid template gives
// the Validate error (code Invalid, key KeyTemplateInvalid); nothing in Data
// can make it fail: bad images print "image unavailable", long text flows
// onto further pages. Other errors are internal.
func Render(t Template, d Data) ([]byte, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if d.Lang != i18n.EN {
		d.Lang = i18n.ZH
	}
	if d.PrintedAt.IsZero() {
		d.PrintedAt = clock.Clock{}.Now() // callers set it from their own clock
	}
	p, err := newPDF(&d, &t)
	if err != nil {
		return nil, err
	}
	p.header()
	for _, s := range t.Sections {
		heading := strings.TrimSpace(s.Heading)
		if heading == "" {
			heading = defaultHeading(t.Kind, s.Key, d.Lang)
		}
		p.section(s, heading)
	}
	p.finish()
	b, err := p.gp.GetBytesPdfReturnErr()
	if err != nil {
		return nil, apperr.Wrap(err, "report: write pdf")
	}
	return b, nil
}

// pdf is one report being laid out: the document, the data and the cursor.
type pdf struct {
	gp     *gopdf.GoPdf
	d      *Data
	t      *Template
	y      float64
	pages  int
	widths map[rune]float64
	// boldWidths are the advances of bold Latin runes (the bold face).
	boldWidths map[rune]float64
	// alpha, when set, makes text translucent (the watermark). gopdf's
	// Cell ignores SetTransparency; CellWithOption honours it.
	alpha *gopdf.Transparency
}

func newPDF(d *Data, t *Template) (*pdf, error) {
	gp, err := newDoc(gofpdi.NewImporter())
	if err != nil {
		return nil, err
	}
	gp.SetInfo(gopdf.PdfInfo{
		Title:        t.Title + " " + d.ReportNo,
		Author:       d.CenterName,
		Creator:      "Telepath",
		CreationDate: d.PrintedAt,
	})
	p := &pdf{gp: gp, d: d, t: t, widths: map[rune]float64{}, boldWidths: map[rune]float64{}}
	p.newPage()
	return p, nil
}

// newDoc starts an A4 document, in points, with the embedded fonts; imp
// is the reader of the PDFs it imports pages from.
func newDoc(imp *gofpdi.Importer) (*gopdf.GoPdf, error) {
	fc, err := parsedFont()
	if err != nil {
		return nil, apperr.Wrap(err, "report: font")
	}
	gp := &gopdf.GoPdf{}
	gp.StartWithImporter(gopdf.Config{PageSize: *gopdf.PageSizeA4, Unit: gopdf.UnitPT}, imp)
	for _, f := range []string{cjkFamily, latinFamily, latinBoldFamily} {
		if err := gp.AddTTFFontFromFontContainer(f, fc); err != nil {
			return nil, apperr.Wrap(err, "report: font")
		}
	}
	return gp, nil
}

func (p *pdf) T(key string, args map[string]any) string { return i18n.T(p.d.Lang, key, args) }

// width is the advance of r at size 1, measured once per rune.
func (p *pdf) width(r rune) float64 {
	if w, ok := p.widths[r]; ok {
		return w
	}
	_ = p.gp.SetFont(family(r), "", 100)
	w, err := p.gp.MeasureTextWidth(string(r))
	if err != nil {
		w = 0
	}
	w /= 100
	p.widths[r] = w
	return w
}

// boldWidth is the advance of r in bold at size 1.
func (p *pdf) boldWidth(r rune) float64 {
	if family(r) != latinFamily {
		return p.width(r)
	}
	if w, ok := p.boldWidths[r]; ok {
		return w
	}
	_ = p.gp.SetFont(latinBoldFamily, "", 100)
	w, err := p.gp.MeasureTextWidth(string(r))
	if err != nil {
		w = 0
	}
	w /= 100
	p.boldWidths[r] = w
	return w
}

func (p *pdf) textWidth(s string, size float64) float64 {
	return p.styledWidth(s, size, false)
}

func (p *pdf) styledWidth(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		if bold {
			w += p.boldWidth(r)
		} else {
			w += p.width(r)
		}
	}
	return w * size
}

func (p *pdf) lines(s string, width, size float64) []string {
	return wrap(s, width, size, p.width)
}

func (p *pdf) boldLines(s string, width, size float64) []string {
	return wrap(s, width, size, p.boldWidth)
}

// newPage starts a page; pages after the first get a running header so a
// loose sheet still names its patient and report.
func (p *pdf) newPage() {
	p.gp.AddPage()
	p.pages++
	p.watermark(p.d.Watermark, pageW, pageH) // first, so it lies under the content
	p.y = top
	if p.pages > 1 {
		p.runningHeader()
	}
}

// need starts a new page unless h points still fit on this one.
func (p *pdf) need(h float64) {
	if p.y+h > bottom {
		p.newPage()
	}
}

// text draws s with its top-left corner at (x, y), each run of characters
// in the font that has them.
func (p *pdf) text(x, y float64, s string, size float64, c rgb, bold bool) {
	if s == "" {
		return
	}
	p.gp.SetTextColor(c.r, c.g, c.b)
	for _, run := range runs(s) {
		f := family([]rune(run)[0])
		if bold && f == latinFamily {
			f = latinBoldFamily
		}
		_ = p.gp.SetFont(f, "", size)
		p.gp.SetXY(x, y)
		p.cell(run)
		if bold && f == cjkFamily {
			p.gp.SetXY(x+size*fakeBoldOffset, y)
			p.cell(run)
		}
		x += p.styledWidth(run, size, bold)
	}
}

func (p *pdf) cell(s string) {
	if p.alpha != nil {
		_ = p.gp.CellWithOption(nil, s, gopdf.CellOption{Align: gopdf.Left | gopdf.Top, Transparency: p.alpha})
		return
	}
	_ = p.gp.Cell(nil, s)
}

// runs splits s where the font that draws it changes.
func runs(s string) []string {
	var out []string
	start, prev := 0, ""
	for i, r := range s {
		f := family(r)
		if i > 0 && f != prev {
			out = append(out, s[start:i])
			start = i
		}
		prev = f
	}
	return append(out, s[start:])
}

// textRight draws s ending at x.
func (p *pdf) textRight(x, y float64, s string, size float64, c rgb, bold bool) {
	p.text(x-p.styledWidth(s, size, bold), y, s, size, c, bold)
}

// textCenter draws s centred on x.
func (p *pdf) textCenter(x, y float64, s string, size float64, c rgb, bold bool) {
	p.text(x-p.styledWidth(s, size, bold)/2, y, s, size, c, bold)
}

func (p *pdf) line(x1, y1, x2, y2, w float64, c rgb) {
	p.gp.SetLineWidth(w)
	p.gp.SetStrokeColor(c.r, c.g, c.b)
	p.gp.Line(x1, y1, x2, y2)
}

func (p *pdf) fillRect(x, y, w, h float64, c rgb) {
	p.gp.SetFillColor(c.r, c.g, c.b)
	p.gp.RectFromUpperLeftWithStyle(x, y, w, h, "F")
}

func (p *pdf) strokeRect(x, y, w, h, lw float64, c rgb) {
	p.gp.SetLineWidth(lw)
	p.gp.SetStrokeColor(c.r, c.g, c.b)
	p.gp.RectFromUpperLeftWithStyle(x, y, w, h, "D")
}

// paragraph flows wrapped text from the cursor, breaking pages as needed.
// When it continues on a new page, cont (the section's heading) is repeated
// there, marked as continued, so a loose page says what it holds.
func (p *pdf) paragraph(s string, x, width, size float64, c rgb, bold bool, cont string) {
	lh := size * leading
	ls := p.lines(s, width, size)
	if bold {
		ls = p.boldLines(s, width, size)
	}
	for _, l := range ls {
		page := p.pages
		p.need(lh)
		if p.pages != page && cont != "" {
			p.text(left, p.y, clip(cont, maxHeadingRunes)+p.T(keyContinued, nil), sizeSmall+0.5, colMuted, false)
			p.y += (sizeSmall + 0.5) * 1.8
		}
		p.text(x, p.y+(lh-size)/2, l, size, c, bold)
		p.y += lh
	}
}

func (p *pdf) formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if p.d.Location != nil {
		t = t.In(p.d.Location)
	}
	return t.Format("2006-01-02 15:04")
}

// finish draws what every page carries once the page count is known: the
// footer.
func (p *pdf) finish() {
	printed := p.T(keyPrintedAt, map[string]any{"time": p.formatTime(p.d.PrintedAt)})
	disclaimer := p.T(keyDisclaimer, nil)
	for i := 1; i <= p.pages; i++ {
		if err := p.gp.SetPage(i); err != nil {
			break
		}
		p.line(left, footerLine, right, footerLine, 0.5, colRule)
		y := footerLine + 5
		p.text(left, y, disclaimer, sizeSmall, colMuted, false)
		// The print time sits in the middle unless the disclaimer reaches it.
		pw := p.textWidth(printed, sizeSmall)
		p.text(max(pageW/2+40-pw/2, left+p.textWidth(disclaimer, sizeSmall)+24), y, printed, sizeSmall, colMuted, false)
		p.textRight(right, y, p.T(keyPage, map[string]any{"page": i, "pages": p.pages}), sizeSmall, colMuted, false)
	}
}

// watermark tiles wm's text diagonally over a pw×ph page, light
// and translucent so the page stays readable.
func (p *pdf) watermark(wm *Watermark, pw, ph float64) {
	if wm == nil || strings.TrimSpace(wm.Text) == "" {
		return
	}
	size := float64(wm.FontSize)
	if size <= 0 {
		size = 16
	}
	size = min(max(size*1.5, 12), 72)
	text := []rune(strings.TrimSpace(cleanText(strings.ReplaceAll(wm.Text, "\n", " "))))
	if len(text) > 60 {
		text = text[:60]
	}
	s := string(text)
	c, alpha := parseColor(wm.Color, colWMark)
	if alpha >= 1 {
		alpha = 0.18 // an opaque colour still must not hide the report
	}
	if tr, err := gopdf.NewTransparency(max(alpha, 0.04), string(gopdf.NormalBlendMode)); err == nil {
		p.alpha = &tr
		defer func() { p.alpha = nil }()
	}
	w := p.textWidth(s, size)
	stepX := max(w+size*3, 200)
	// Rows are offset by half a step; a long text slopes into the next
	// row unless the rows are as far apart as its rise (sin 30° = 0.5).
	stepY := max(size*7, 150, (stepX/4+size*3)/0.866)
	// The grid is laid out from the page's centre, so a small page still
	// shows one whole mark.
	rows, cols := int(ph/2/stepY)+1, int(pw/2/stepX)+2
	for r := -rows; r <= rows; r++ {
		cy := ph/2 + float64(r)*stepY
		for k := -cols; k <= cols; k++ {
			cx := pw/2 + float64(k)*stepX + stepX/2*float64(r&1)
			p.gp.Rotate(30, cx, cy)
			p.text(cx-w/2, cy-size/2, s, size, c, false)
			p.gp.RotateReset()
		}
	}
}

// parseColor reads "#rgb", "#rrggbb", "rgb(r,g,b)" or "rgba(r,g,b,a)" and
// returns the colour and its alpha (1 unless rgba says otherwise).
func parseColor(s string, def rgb) (rgb, float64) {
	s = strings.ToLower(strings.TrimSpace(s))
	var r, g, b uint8
	switch {
	case strings.HasPrefix(s, "#") && len(s) == 7:
		if _, err := fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b); err == nil {
			return rgb{r, g, b}, 1
		}
	case strings.HasPrefix(s, "#") && len(s) == 4:
		if _, err := fmt.Sscanf(s, "#%1x%1x%1x", &r, &g, &b); err == nil {
			return rgb{r * 17, g * 17, b * 17}, 1
		}
	case strings.HasPrefix(s, "rgb"):
		i, j := strings.IndexByte(s, '('), strings.IndexByte(s, ')')
		if i < 0 || j < i {
			break
		}
		parts := strings.Split(s[i+1:j], ",")
		if len(parts) < 3 {
			break
		}
		var v [3]int
		for k := range v {
			if _, err := fmt.Sscanf(strings.TrimSpace(parts[k]), "%d", &v[k]); err != nil || v[k] < 0 || v[k] > 255 {
				return def, 1
			}
		}
		a := 1.0
		if len(parts) > 3 {
			if _, err := fmt.Sscanf(strings.TrimSpace(parts[3]), "%g", &a); err != nil || a < 0 || a > 1 {
				a = 1
			}
		}
		return rgb{uint8(v[0]), uint8(v[1]), uint8(v[2])}, a
	}
	return def, 1
}
