package slideserver

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"strconv"
	"strings"
	"sync"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/math/f64"

	"telepath/internal/report"
)

// A share's watermark is drawn into the pixels of every image its visitors
// get, so that a saved tile or screenshot still names who shared it. The
// text is drawn once per text and tile size into a transparent overlay
// (markCache); a request decodes the JPEG, draws the overlay over it,
// repeated from the top-left corner, and encodes it again. Stamped images
// are not cached: they are only for the few visitors of a share.

// markQuality is the JPEG quality of stamped images.
const markQuality = 85

// markAngle is the slope of the watermark's text (it rises to the right).
const markAngle = -25 * math.Pi / 180

type markKey struct {
	text   string
	period int
}

// markCache holds the watermark overlays drawn so far.
type markCache struct {
	mu sync.Mutex
	m  map[markKey]*image.RGBA
}

// overlay returns the period×period overlay of text.
func (c *markCache) overlay(text string, period int) *image.RGBA {
	k := markKey{text, period}
	c.mu.Lock()
	defer c.mu.Unlock()
	if o := c.m[k]; o != nil {
		return o
	}
	if c.m == nil || len(c.m) > 256 {
		c.m = map[markKey]*image.RGBA{}
	}
	o := drawOverlay(text, period)
	c.m[k] = o
	return o
}

// drawOverlay draws text (" · " parts on lines of their own) across a
// period×period square, along a diagonal, grey with a light edge so it
// reads on pale and dark tissue alike.
func drawOverlay(text string, period int) *image.RGBA {
	lines := strings.Split(text, " · ")
	size := max(11, float64(period)/20)
	w, h := int(size)*4*max(8, longest(lines)), int(size*1.3)*len(lines)+int(size)
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	joined := strings.Join(lines, "\n")
	edge := color.NRGBA{255, 255, 255, 110}
	for _, d := range [][2]float64{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		report.DrawText(canvas, 2+d[0], 2+d[1], joined, size, edge)
	}
	report.DrawText(canvas, 2, 2, joined, size, color.NRGBA{70, 80, 95, 120})
	box := opaqueBounds(canvas)
	out := image.NewRGBA(image.Rect(0, 0, period, period))
	if box.Empty() {
		return out
	}
	// Fit the text in 90% of the diagonal, centred on the square.
	k := math.Min(1, 0.9*math.Sqrt2*float64(period)/float64(box.Dx()))
	cos, sin := math.Cos(markAngle)*k, math.Sin(markAngle)*k
	cx, cy := float64(box.Min.X+box.Max.X)/2, float64(box.Min.Y+box.Max.Y)/2
	half := float64(period) / 2
	m := f64.Aff3{cos, -sin, half - (cos*cx - sin*cy), sin, cos, half - (sin*cx + cos*cy)}
	xdraw.BiLinear.Transform(out, m, canvas, box, xdraw.Over, nil)
	return out
}

func longest(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, len([]rune(l)))
	}
	return n
}

// opaqueBounds is the smallest rectangle holding every visible pixel of img.
func opaqueBounds(img *image.RGBA) image.Rectangle {
	b := img.Bounds()
	r := image.Rectangle{Min: b.Max, Max: b.Min}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[(y-b.Min.Y)*img.Stride:]
		for x := b.Min.X; x < b.Max.X; x++ {
			if row[(x-b.Min.X)*4+3] == 0 {
				continue
			}
			r.Min.X, r.Min.Y = min(r.Min.X, x), min(r.Min.Y, y)
			r.Max.X, r.Max.Y = max(r.Max.X, x+1), max(r.Max.Y, y+1)
		}
	}
	if r.Min.X >= r.Max.X {
		return image.Rectangle{}
	}
	return r
}

// stamp draws text into the JPEG b and returns it encoded again, with an
// ETag of its own (tag marked by the text).
func (c *markCache) stamp(b []byte, tag, text string, period int) ([]byte, string, error) {
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, "", err
	}
	bd := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, bd.Dx(), bd.Dy()))
	xdraw.Draw(dst, dst.Bounds(), img, bd.Min, xdraw.Src)
	ov := c.overlay(text, max(period, 64))
	p := ov.Bounds().Dx()
	for y := 0; y < bd.Dy(); y += p {
		for x := 0; x < bd.Dx(); x += p {
			xdraw.Draw(dst, image.Rect(x, y, x+p, y+p), ov, image.Point{}, xdraw.Over)
		}
	}
	var buf bytes.Buffer
	buf.Grow(len(b) + len(b)/4)
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: markQuality}); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), strings.TrimSuffix(tag, `"`) + "-w" + strconv.FormatUint(hashString(text), 36) + `"`, nil
}
