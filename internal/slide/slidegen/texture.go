// Package slidegen writes small, deterministic synthetic whole-slide images
// (pyramidal TIFF, BigTIFF and SVS-like files) with a tissue-like texture:
// pink stroma, purple nuclei and white glass. Tests and demos use it to get
// slides without shipping binary fixtures.
package slidegen

import (
	"image"
	"image/color"
	"math"
)

// Texture is a procedural H&E-like image defined at every level-0 pixel.
type Texture struct{ Seed int64 }

func hash(seed int64, a, b, c int) uint64 {
	x := uint64(seed)*0x9E3779B97F4A7C15 ^ uint64(a)*0xBF58476D1CE4E5B9 ^ uint64(b)*0x94D049BB133111EB ^ uint64(c)*0xD6E8FEDA
	x ^= x >> 31
	x *= 0x9E3779B97F4A7C15
	x ^= x >> 29
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 32
	return x
}

// noise is smooth value noise in [0,1) with features about scale pixels wide.
func (t Texture) noise(x, y, scale float64, octave int) float64 {
	fx, fy := x/scale, y/scale
	ix, iy := math.Floor(fx), math.Floor(fy)
	dx, dy := fx-ix, fy-iy
	dx, dy = dx*dx*(3-2*dx), dy*dy*(3-2*dy)
	v := func(i, j float64) float64 {
		return float64(hash(t.Seed, int(i), int(j), octave)>>11) / (1 << 53)
	}
	a := v(ix, iy) + (v(ix+1, iy)-v(ix, iy))*dx
	b := v(ix, iy+1) + (v(ix+1, iy+1)-v(ix, iy+1))*dx
	return a + (b-a)*dy
}

// At returns the colour of level-0 pixel (x,y).
func (t Texture) At(x, y int) color.RGBA {
	fx, fy := float64(x), float64(y)
	tissue := 0.6*t.noise(fx, fy, 700, 1) + 0.4*t.noise(fx, fy, 230, 2)
	grain := float64(hash(t.Seed, x, y, 9)%9) - 4
	if tissue < 0.42 {
		v := clamp(244 + grain*0.5)
		return color.RGBA{v, v, clamp(246 + grain*0.5), 255}
	}
	edge := math.Min(1, (tissue-0.42)*12) // fade from glass into tissue
	s := t.noise(fx, fy, 37, 3)
	r, g, b := 236-30*s, 160-60*s, 200-35*s
	if n := t.noise(fx, fy, 9, 4)*0.7 + t.noise(fx, fy, 23, 5)*0.3; n > 0.66 {
		k := math.Min(1, (n-0.66)*10)
		r, g, b = r+(95-r)*k, g+(55-g)*k, b+(150-b)*k
	}
	mix := func(tv float64) uint8 { return clamp(244 + (tv-244)*edge + grain) }
	return color.RGBA{mix(r), mix(g), mix(b), 255}
}

func clamp(v float64) uint8 {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v + 0.5)
}

// LevelAt returns the colour of pixel (x,y) of a level downsampled by ds,
// point-sampled at the centre of the level-0 block it covers.
func (t Texture) LevelAt(x, y, ds int) color.RGBA {
	return t.At(x*ds+ds/2, y*ds+ds/2)
}

// Render draws rect r of the level downsampled by ds into a new image.
func (t Texture) Render(r image.Rectangle, ds int) *image.RGBA {
	img := image.NewRGBA(r)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := t.LevelAt(x, y, ds)
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 255
		}
	}
	return img
}
