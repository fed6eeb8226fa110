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
// repeated from the top-left corner, and encodes it again. Stamped tiles,
// thumbnails and labels are kept in a cache bounded by bytes (stampcache.go).

// markQuality is the JPEG quality of stamped images.
const markQuality = 85

// markAngle is the slope of the watermark's text (it rises to the right).
const markAngle = -25 * math.Pi / 180

type markKey struct {
	text   string
	period int
}

// markCache holds the watermark overlays drawn so far, and the images
// stamped with them.
type markCache struct {
	mu   sync.Mutex
	m    map[markKey]*image.RGBA
	done stampCache
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

// stamp draws text into the JPEG b whose ETag is tag and returns it
// encoded again, with an ETag of its own (tag marked by the text). The
// result is kept: the same tag, text and period give it back undrawn.
func (c *markCache) stamp(b []byte, tag, text string, period int) ([]byte, string, error) {
	key := stampKey(tag, text, period)
	if out, t, ok := c.done.get(key); ok {
		return out, t, nil
	}
	out, t, err := c.draw(b, tag, text, period)
	if err != nil {
		return nil, "", err
	}
	c.done.put(key, out, t)
	return out, t, nil
}

// draw is stamp without the cache.
func (c *markCache) draw(b []byte, tag, text string, period int) ([]byte, string, error) {
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, "", err
	}
	out := blend(img, c.overlay(text, max(period, 64)))
	var buf bytes.Buffer
	buf.Grow(len(b) + len(b)/4)
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: markQuality}); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), strings.TrimSuffix(tag, `"`) + "-w" + strconv.FormatUint(hashString(text), 36) + `"`, nil
}

// blend draws the overlay ov, repeated from the top-left corner, over img:
// a YCbCr image in place (most tiles: no conversion to RGB and back), any
// other into an RGBA copy.
func blend(img image.Image, ov *image.RGBA) image.Image {
	if ycc, ok := img.(*image.YCbCr); ok {
		blendYCbCr(ycc, ov)
		return ycc
	}
	bd := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, bd.Dx(), bd.Dy()))
	xdraw.Draw(dst, dst.Bounds(), img, bd.Min, xdraw.Src)
	p := ov.Bounds().Dx()
	for y := 0; y < bd.Dy(); y += p {
		for x := 0; x < bd.Dx(); x += p {
			xdraw.Draw(dst, image.Rect(x, y, x+p, y+p), ov, image.Point{}, xdraw.Over)
		}
	}
	return dst
}

// blendYCbCr draws the overlay ov (grey, premultiplied), repeated from the
// top-left corner, over img in place: luma takes the overlay's grey, and the
// chroma of each subsampled block moves towards neutral by the overlay's
// cover at the block's corner.
func blendYCbCr(img *image.YCbCr, ov *image.RGBA) {
	b := img.Bounds()
	p := ov.Bounds().Dx()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		orow := ov.Pix[((y-b.Min.Y)%p)*ov.Stride:]
		yrow := img.Y[img.YOffset(b.Min.X, y):]
		for x := 0; x < b.Dx(); x++ {
			o := orow[(x%p)*4:]
			if a := uint32(o[3]); a != 0 {
				// Premultiplied grey: R = G = B = grey × a / 255.
				yrow[x] = uint8((uint32(yrow[x])*(255-a) + uint32(o[0])*255 + 127) / 255)
			}
		}
	}
	sx, sy := 1, 1
	switch img.SubsampleRatio {
	case image.YCbCrSubsampleRatio422:
		sx = 2
	case image.YCbCrSubsampleRatio420:
		sx, sy = 2, 2
	case image.YCbCrSubsampleRatio440:
		sy = 2
	case image.YCbCrSubsampleRatio411:
		sx = 4
	case image.YCbCrSubsampleRatio410:
		sx, sy = 4, 2
	}
	for y := b.Min.Y; y < b.Max.Y; y += sy {
		orow := ov.Pix[((y-b.Min.Y)%p)*ov.Stride:]
		c := img.COffset(b.Min.X, y)
		for x := 0; x < b.Dx(); x, c = x+sx, c+1 {
			if a := uint32(orow[(x%p)*4+3]); a != 0 {
				img.Cb[c] = uint8((uint32(img.Cb[c])*(255-a) + 128*a + 127) / 255)
				img.Cr[c] = uint8((uint32(img.Cr[c])*(255-a) + 128*a + 127) / 255)
			}
		}
	}
}
