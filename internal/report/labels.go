package report

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Label is an annotation drawn on an image before it is printed (spec 1 §3
// Annotation label), in the image's pixels. Points are x,y pairs: the
// text's top left for "font", the polyline for "curve", the two corners of
// the drag for the other tools.
type Label struct {
	Tool      string
	Points    []float64
	Stroke    string // #rrggbb
	Fill      string // #rrggbb or empty
	LineWidth float64
	Text      string
	FontSize  float64
}

// fillAlpha is how opaque a label's fill is, as the editor shows it.
const fillAlpha = 0.3

// drawLabels draws labels onto dst, in the order given.
func drawLabels(dst *image.RGBA, labels []Label) {
	for _, l := range labels {
		drawLabel(dst, l)
	}
}

func drawLabel(dst *image.RGBA, l Label) {
	p := l.Points
	if len(p) < 2 || len(p)%2 != 0 {
		return
	}
	stroke := hexColour(l.Stroke, 1)
	fill := hexColour(l.Fill, fillAlpha)
	lw := math.Max(1, l.LineWidth)
	switch l.Tool {
	case "font":
		drawText(dst, p[0], p[1], l.Text, math.Max(8, l.FontSize), stroke)
		return
	case "curve":
		pts := pairs(p)
		strokePath(dst, pts, lw, stroke, false)
		return
	}
	if len(p) != 4 {
		return
	}
	x1, y1, x2, y2 := p[0], p[1], p[2], p[3]
	switch l.Tool {
	case "line":
		strokePath(dst, [][2]float64{{x1, y1}, {x2, y2}}, lw, stroke, false)
	case "arrow", "bilateral":
		strokePath(dst, [][2]float64{{x1, y1}, {x2, y2}}, lw, stroke, false)
		arrowHead(dst, x1, y1, x2, y2, lw, stroke)
		if l.Tool == "bilateral" {
			arrowHead(dst, x2, y2, x1, y1, lw, stroke)
		}
	case "rect":
		pts := [][2]float64{{x1, y1}, {x2, y1}, {x2, y2}, {x1, y2}}
		fillPolygon(dst, pts, fill)
		strokePath(dst, pts, lw, stroke, true)
	case "ellipse":
		pts := ellipsePoints((x1+x2)/2, (y1+y2)/2, math.Abs(x2-x1)/2, math.Abs(y2-y1)/2)
		fillPolygon(dst, pts, fill)
		strokePath(dst, pts, lw, stroke, true)
	case "star":
		pts := StarPoints(x1, y1, math.Hypot(x2-x1, y2-y1))
		fillPolygon(dst, pts, fill)
		strokePath(dst, pts, lw, stroke, true)
	case "flag":
		pts := FlagPoints(x1, y1, x2, y2)
		fillPolygon(dst, pts[1:], fill)
		strokePath(dst, pts[:2], lw, stroke, false)
		strokePath(dst, pts[1:], lw, stroke, true)
	}
}

// StarPoints is a five-pointed star of outer radius r about (cx, cy), its
// first point up, inner radius 0.4 r: the editor draws the same.
func StarPoints(cx, cy, r float64) [][2]float64 {
	out := make([][2]float64, 10)
	for i := range out {
		rr := r
		if i%2 == 1 {
			rr = r * 0.4
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		out[i] = [2]float64{cx + rr*math.Cos(a), cy + rr*math.Sin(a)}
	}
	return out
}

// FlagPoints is a flag planted at (x1, y1) whose pole reaches (x1, y2) and
// whose pennant points to x2: pole foot, pole top, pennant tip, pennant foot.
func FlagPoints(x1, y1, x2, y2 float64) [][2]float64 {
	top := y2
	h := y1 - top
	return [][2]float64{{x1, y1}, {x1, top}, {x2, top + h/4}, {x1, top + h/2}}
}

func ellipsePoints(cx, cy, rx, ry float64) [][2]float64 {
	const n = 72
	out := make([][2]float64, n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / n
		out[i] = [2]float64{cx + rx*math.Cos(a), cy + ry*math.Sin(a)}
	}
	return out
}

func pairs(p []float64) [][2]float64 {
	out := make([][2]float64, 0, len(p)/2)
	for i := 0; i+1 < len(p); i += 2 {
		out = append(out, [2]float64{p[i], p[i+1]})
	}
	return out
}

func hexColour(s string, alpha float64) *image.Uniform {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(s) != 6 {
		return nil
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return nil
	}
	a := alpha
	return image.NewUniform(color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: uint8(math.Round(a * 255))})
}

func raster(dst *image.RGBA) *vector.Rasterizer {
	b := dst.Bounds()
	return vector.NewRasterizer(b.Dx(), b.Dy())
}

func fillPolygon(dst *image.RGBA, pts [][2]float64, c *image.Uniform) {
	if c == nil || len(pts) < 3 {
		return
	}
	z := raster(dst)
	z.MoveTo(float32(pts[0][0]), float32(pts[0][1]))
	for _, q := range pts[1:] {
		z.LineTo(float32(q[0]), float32(q[1]))
	}
	z.ClosePath()
	z.Draw(dst, dst.Bounds(), c, image.Point{})
}

// strokePath strokes a polyline (closed or not) lw wide: each segment a
// quadrilateral, each joint a small disc. Each shape is filled separately so
// overlaps within the stroke do not cancel out under the nonzero rule.
func strokePath(dst *image.RGBA, pts [][2]float64, lw float64, c *image.Uniform, closed bool) {
	if c == nil || len(pts) < 2 {
		return
	}
	if closed {
		pts = append(pts, pts[0])
	}
	z := raster(dst)
	hw := lw / 2
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		dx, dy := b[0]-a[0], b[1]-a[1]
		n := math.Hypot(dx, dy)
		if n == 0 {
			continue
		}
		nx, ny := -dy/n*hw, dx/n*hw
		poly(z, [][2]float64{{a[0] + nx, a[1] + ny}, {b[0] + nx, b[1] + ny}, {b[0] - nx, b[1] - ny}, {a[0] - nx, a[1] - ny}})
	}
	if lw > 2 {
		for _, q := range pts {
			poly(z, ellipsePoints(q[0], q[1], hw, hw))
		}
	}
	z.Draw(dst, dst.Bounds(), c, image.Point{})
}

// poly adds a clockwise-consistent polygon: each is reoriented so the
// nonzero winding rule unions them rather than cancelling overlaps.
func poly(z *vector.Rasterizer, pts [][2]float64) {
	area := 0.0
	for i := range pts {
		j := (i + 1) % len(pts)
		area += pts[i][0]*pts[j][1] - pts[j][0]*pts[i][1]
	}
	if area < 0 {
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	z.MoveTo(float32(pts[0][0]), float32(pts[0][1]))
	for _, q := range pts[1:] {
		z.LineTo(float32(q[0]), float32(q[1]))
	}
	z.ClosePath()
}

// arrowHead draws a filled head at (x2, y2) for a line from (x1, y1).
func arrowHead(dst *image.RGBA, x1, y1, x2, y2, lw float64, c *image.Uniform) {
	if c == nil {
		return
	}
	a := math.Atan2(y2-y1, x2-x1)
	size := math.Max(10, lw*4)
	pts := [][2]float64{{x2, y2},
		{x2 - size*math.Cos(a-math.Pi/7), y2 - size*math.Sin(a-math.Pi/7)},
		{x2 - size*math.Cos(a+math.Pi/7), y2 - size*math.Sin(a+math.Pi/7)}}
	fillPolygon(dst, pts, c)
}

var (
	faceOnce           sync.Once
	latinFont, cjkFont *opentype.Font
)

// DrawText draws text (Latin and CJK; "\n" breaks lines) on dst in c, its
// first line's top at y, with the fonts the report prints with. Other
// packages draw with it what must read like the report (share watermarks).
func DrawText(dst *image.RGBA, x, y float64, text string, size float64, c color.Color) {
	drawText(dst, x, y, text, size, image.NewUniform(c))
}

func drawText(dst *image.RGBA, x, y float64, text string, size float64, c *image.Uniform) {
	if c == nil || strings.TrimSpace(text) == "" {
		return
	}
	faceOnce.Do(func() {
		latinFont, _ = opentype.Parse(latinTTF)
		cjkFont, _ = opentype.Parse(cjkTTF)
	})
	if latinFont == nil || cjkFont == nil {
		return
	}
	opts := &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone}
	latin, err1 := opentype.NewFace(latinFont, opts)
	cjk, err2 := opentype.NewFace(cjkFont, opts)
	if err1 != nil || err2 != nil {
		return
	}
	defer latin.Close()
	defer cjk.Close()
	d := &font.Drawer{Dst: dst, Src: c}
	lineH := size * 1.2
	for i, line := range strings.Split(text, "\n") {
		d.Dot = fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6((y + size + float64(i)*lineH) * 64)}
		for _, r := range line {
			d.Face = latin
			if family(r) == cjkFamily {
				d.Face = cjk
			}
			d.DrawString(string(r))
		}
	}
}
