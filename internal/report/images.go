package report

import (
	"bytes"
	"image"
	"image/color"
	stddraw "image/draw"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/draw"
)

// Pictures are checked by decoding them in full: a truncated JPEG whose header
// parses would otherwise print as grey noise. Large ones are scaled down to
// what the printed size needs, which keeps the PDF small.
const (
	maxPhotoPx     = 1000     // long side of a photo: 300 dpi in its frame (half the text width)
	maxSignaturePx = 600      // long side of a signature
	maxDecodePx    = 60 << 20 // refuse to decode more pixels than this (decompression bombs)
)

// picture is an image ready for the PDF, or not ok.
type picture struct {
	data []byte
	w, h int
	ok   bool
}

// preparePicture validates b and returns bytes gopdf embeds as they are:
// a baseline YCbCr or grey JPEG, or an opaque PNG for signatures.
func preparePicture(b []byte, maxPx int, signature bool, labels ...Label) picture {
	if len(b) == 0 {
		return picture{}
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxDecodePx {
		return picture{}
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return picture{}
	}
	bounds := img.Bounds()
	w, h := bounds.Dx(), bounds.Dy()
	if format == "jpeg" && !signature && max(w, h) <= maxPx && len(labels) == 0 {
		switch img.(type) {
		case *image.YCbCr, *image.Gray:
			return picture{data: b, w: w, h: h, ok: true}
		}
	}
	if s := max(w, h); s > maxPx {
		w, h = max(1, w*maxPx/s), max(1, h*maxPx/s)
	}
	// Flatten onto white: transparency means paper. The source is first
	// made RGBA (a fast path for JPEG's YCbCr) because scaling from any other
	// image type takes x/image/draw's generic, several times slower path.
	flat := image.NewRGBA(image.Rect(0, 0, bounds.Dx(), bounds.Dy()))
	stddraw.Draw(flat, flat.Bounds(), &image.Uniform{C: color.White}, image.Point{}, stddraw.Src)
	stddraw.Draw(flat, flat.Bounds(), img, bounds.Min, stddraw.Over)
	drawLabels(flat, labels) // in the image's own pixels, before scaling
	dst := flat
	if w != bounds.Dx() || h != bounds.Dy() {
		dst = image.NewRGBA(image.Rect(0, 0, w, h))
		draw.BiLinear.Scale(dst, dst.Bounds(), flat, flat.Bounds(), draw.Src, nil)
	}
	var out bytes.Buffer
	if signature {
		err = png.Encode(&out, dst) // opaque RGBA encodes as 8-bit RGB
	} else {
		err = jpeg.Encode(&out, dst, &jpeg.Options{Quality: 85})
	}
	if err != nil {
		return picture{}
	}
	return picture{data: out.Bytes(), w: w, h: h, ok: true}
}
