package slidegen

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"image/jpeg"
)

// encodeJPEG encodes img and splits the stream into the shared tables
// (SOI, DQT, DHT, EOI: the TIFF JPEGTables) and the abbreviated tile stream
// (SOI, SOF, SOS, data, EOI). With rgb the components hold R, G, B
// unconverted, as Aperio's RGB-photometric tiles do.
func encodeJPEG(img *image.RGBA, q int, rgb bool) (tables, tile []byte, err error) {
	var src image.Image = img
	if rgb {
		b := img.Bounds()
		y := image.NewYCbCr(b, image.YCbCrSubsampleRatio444)
		for yy := b.Min.Y; yy < b.Max.Y; yy++ {
			for xx := b.Min.X; xx < b.Max.X; xx++ {
				i := img.PixOffset(xx, yy)
				j := y.YOffset(xx, yy)
				y.Y[j], y.Cb[j], y.Cr[j] = img.Pix[i], img.Pix[i+1], img.Pix[i+2]
			}
		}
		src = y
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, src, &jpeg.Options{Quality: q}); err != nil {
		return nil, nil, err
	}
	return splitJPEG(buf.Bytes())
}

func splitJPEG(b []byte) (tables, tile []byte, err error) {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return nil, nil, fmt.Errorf("not a JPEG")
	}
	tables = []byte{0xFF, 0xD8}
	tile = []byte{0xFF, 0xD8}
	i := 2
	for i+4 <= len(b) {
		if b[i] != 0xFF {
			return nil, nil, fmt.Errorf("bad JPEG marker at %d", i)
		}
		m := b[i+1]
		n := int(b[i+2])<<8 | int(b[i+3])
		seg := b[i : i+2+n]
		switch {
		case m == 0xDA: // SOS: the rest is scan data
			tile = append(tile, b[i:]...)
			return append(tables, 0xFF, 0xD9), tile, nil
		case m == 0xDB || m == 0xC4:
			tables = append(tables, seg...)
		default:
			tile = append(tile, seg...)
		}
		i += 2 + n
	}
	return nil, nil, fmt.Errorf("JPEG without scan")
}

// fullJPEG encodes img as a self-contained JPEG.
func fullJPEG(img *image.RGBA, q int) ([]byte, error) {
	var buf bytes.Buffer
	err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q})
	return buf.Bytes(), err
}

// samples returns the RGB bytes of img, with TIFF horizontal differencing
// when predictor is set.
func samples(img *image.RGBA, predictor bool) []byte {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := make([]byte, 0, w*h*3)
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w*4]
		start := len(out)
		for x := 0; x < w; x++ {
			out = append(out, row[4*x], row[4*x+1], row[4*x+2])
		}
		if predictor {
			r := out[start:]
			for i := len(r) - 1; i >= 3; i-- {
				r[i] -= r[i-3]
			}
		}
	}
	return out
}

func deflate(p []byte) []byte {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write(p)
	zw.Close()
	return buf.Bytes()
}

// lzwEncode compresses p with TIFF's LZW variant (MSB-first codes, code
// width grows one code early).
func lzwEncode(p []byte) []byte {
	const clear, eoi = 256, 257
	var out []byte
	var acc uint32
	var nbits uint
	width := uint(9)
	emit := func(code int) {
		acc = acc<<width | uint32(code)
		nbits += width
		for nbits >= 8 {
			out = append(out, byte(acc>>(nbits-8)))
			nbits -= 8
		}
	}
	dict := map[uint32]int{}
	next := 258
	emit(clear)
	prefix := -1
	for _, c := range p {
		if prefix < 0 {
			prefix = int(c)
			continue
		}
		key := uint32(prefix)<<8 | uint32(c)
		if code, ok := dict[key]; ok {
			prefix = code
			continue
		}
		emit(prefix)
		dict[key] = next
		next++
		if next == 1<<width && width < 12 {
			width++
		}
		if next >= 4094 {
			emit(clear)
			dict = map[uint32]int{}
			next = 258
			width = 9
		}
		prefix = int(c)
	}
	if prefix >= 0 {
		emit(prefix)
		next++
		if next == 1<<width && width < 12 {
			width++
		}
	}
	emit(eoi)
	if nbits > 0 {
		out = append(out, byte(acc<<(8-nbits)))
	}
	return out
}
