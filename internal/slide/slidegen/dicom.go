package slidegen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
)

// DICOMOptions adds DICOM specifics to Options.
type DICOMOptions struct {
	Options
	Sparse bool // TILED_SPARSE with per-frame positions, some tiles absent
}

const (
	uidRoot   = "1.2.826.0.1.3680043.10.999."
	sopWSI    = "1.2.840.10008.5.1.4.1.1.77.1.6"
	tsJPEGB   = "1.2.840.10008.1.2.4.50"
	dcmLevels = 4 // downsample factor between levels
)

// WriteDICOM writes a DICOM WSI series into dir: one instance per level
// (downsampled by 4 each, JPEG baseline frames, TILED_FULL or
// TILED_SPARSE) and a label instance.
func WriteDICOM(dir string, o DICOMOptions) error {
	o.defaults(256)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("slidegen: %w", err)
	}
	minSide := o.MinLevelSize
	if minSide <= 0 {
		minSide = 256
	}
	tex := Texture{Seed: o.Seed}
	series := uidRoot + "2"
	n := 0
	for ds := 1; ; ds *= dcmLevels {
		w, h := LevelSize(o.Width, o.Height, ds)
		n++
		path := filepath.Join(dir, fmt.Sprintf("level%d.dcm", n))
		if err := writeInstance(path, o, series, n, "VOLUME", w, h, o.TileSize, func(r image.Rectangle) *image.RGBA {
			return padded(tex.Render(r.Intersect(image.Rect(0, 0, w, h)), ds), r)
		}); err != nil {
			return err
		}
		if w <= minSide && h <= minSide {
			break
		}
	}
	lw := min(400, max(40, o.Width/5))
	return writeInstance(filepath.Join(dir, "label.dcm"), DICOMOptions{Options: o.Options}, series, n+1, "LABEL", lw, lw, lw, labelImage)
}

func padded(img *image.RGBA, r image.Rectangle) *image.RGBA {
	if img.Bounds() == r {
		return img
	}
	full := image.NewRGBA(r)
	for i := 3; i < len(full.Pix); i += 4 {
		full.Pix[i] = 255
	}
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		copy(full.Pix[full.PixOffset(img.Rect.Min.X, y):], img.Pix[img.PixOffset(img.Rect.Min.X, y):img.PixOffset(img.Rect.Max.X, y)])
	}
	return full
}

// dcmWriter builds explicit VR little endian elements.
type dcmWriter struct{ bytes.Buffer }

func (d *dcmWriter) tag(t uint32) {
	binary.Write(d, binary.LittleEndian, uint16(t>>16))
	binary.Write(d, binary.LittleEndian, uint16(t))
}

func (d *dcmWriter) elem(t uint32, vr string, val []byte) {
	if len(val)%2 == 1 {
		pad := byte(' ')
		if vr == "UI" || vr == "OB" {
			pad = 0
		}
		val = append(val, pad)
	}
	d.tag(t)
	d.WriteString(vr)
	switch vr {
	case "OB", "OW", "SQ", "UN", "UT":
		d.Write([]byte{0, 0})
		binary.Write(d, binary.LittleEndian, uint32(len(val)))
	default:
		binary.Write(d, binary.LittleEndian, uint16(len(val)))
	}
	d.Write(val)
}

func (d *dcmWriter) str(t uint32, vr, s string) { d.elem(t, vr, []byte(s)) }

func (d *dcmWriter) us(t uint32, v int) {
	d.elem(t, "US", binary.LittleEndian.AppendUint16(nil, uint16(v)))
}

func (d *dcmWriter) ul(t uint32, vr string, v int) {
	d.elem(t, vr, binary.LittleEndian.AppendUint32(nil, uint32(v)))
}

// seq writes a sequence of items; undefined selects undefined lengths
// with delimiters.
func (d *dcmWriter) seq(t uint32, undefined bool, items ...[]byte) {
	d.tag(t)
	d.WriteString("SQ")
	d.Write([]byte{0, 0})
	if undefined {
		binary.Write(d, binary.LittleEndian, uint32(0xFFFFFFFF))
	} else {
		n := 0
		for _, it := range items {
			n += 8 + len(it)
		}
		binary.Write(d, binary.LittleEndian, uint32(n))
	}
	for _, it := range items {
		d.tag(0xFFFEE000)
		if undefined {
			binary.Write(d, binary.LittleEndian, uint32(0xFFFFFFFF))
			d.Write(it)
			d.tag(0xFFFEE00D)
			binary.Write(d, binary.LittleEndian, uint32(0))
		} else {
			binary.Write(d, binary.LittleEndian, uint32(len(it)))
			d.Write(it)
		}
	}
	if undefined {
		d.tag(0xFFFEE0DD)
		binary.Write(d, binary.LittleEndian, uint32(0))
	}
}

func writeInstance(path string, o DICOMOptions, series string, n int, kind string, w, h, tile int, render func(image.Rectangle) *image.RGBA) error {
	cols, rows := (w+tile-1)/tile, (h+tile-1)/tile
	var frames [][]byte
	var positions [][2]int
	for r := range rows {
		for c := range cols {
			if o.Sparse && (r*cols+c)%5 == 3 {
				continue // absent tile
			}
			img := render(image.Rect(c*tile, r*tile, (c+1)*tile, (r+1)*tile))
			b, err := fullJPEG(img, o.Quality)
			if err != nil {
				return err
			}
			frames = append(frames, b)
			positions = append(positions, [2]int{c*tile + 1, r*tile + 1})
		}
	}
	sop := fmt.Sprintf("%s3.%d", uidRoot, n)
	var meta dcmWriter
	meta.elem(0x00020001, "OB", []byte{0, 1})
	meta.str(0x00020002, "UI", sopWSI)
	meta.str(0x00020003, "UI", sop)
	meta.str(0x00020010, "UI", tsJPEGB)
	meta.str(0x00020012, "UI", uidRoot+"1")
	var d dcmWriter
	d.Write(make([]byte, 128))
	d.WriteString("DICM")
	d.ul(0x00020000, "UL", meta.Len())
	d.Write(meta.Bytes())
	d.str(0x00080008, "CS", `ORIGINAL\PRIMARY\`+kind+`\NONE`)
	d.str(0x00080016, "UI", sopWSI)
	d.str(0x00080018, "UI", sop)
	d.str(0x00080020, "DA", "20240314")
	d.str(0x00080030, "TM", "102030")
	d.str(0x00080060, "CS", "SM")
	d.str(0x00080070, "LO", "Telepath slidegen")
	d.str(0x0020000D, "UI", uidRoot+"4")
	d.str(0x0020000E, "UI", series)
	org := "TILED_FULL"
	if o.Sparse {
		org = "TILED_SPARSE"
	}
	d.str(0x00209311, "CS", org)
	d.us(0x00280002, 3)
	d.str(0x00280004, "CS", "YBR_FULL_422")
	d.us(0x00280006, 0)
	d.str(0x00280008, "IS", fmt.Sprint(len(frames)))
	d.us(0x00280010, tile)
	d.us(0x00280011, tile)
	d.us(0x00280100, 8)
	d.us(0x00280101, 8)
	d.us(0x00280102, 7)
	d.us(0x00280103, 0)
	d.ul(0x00480006, "UL", w)
	d.ul(0x00480007, "UL", h)
	var op dcmWriter
	op.str(0x00480112, "DS", "40")
	d.seq(0x00480105, true, op.Bytes())
	mpp := o.MPP * float64(o.Width) / float64(w) / 1000
	var pm, shared dcmWriter
	pm.str(0x00280030, "DS", strings.TrimSpace(fmt.Sprintf("%.8g\\%.8g", mpp, mpp)))
	shared.seq(0x00289110, false, pm.Bytes())
	d.seq(0x52009229, false, shared.Bytes())
	if o.Sparse {
		items := make([][]byte, len(positions))
		for i, p := range positions {
			var pos, fr dcmWriter
			pos.ul(0x0048021E, "SL", p[0])
			pos.ul(0x0048021F, "SL", p[1])
			fr.seq(0x0048021A, false, pos.Bytes())
			items[i] = fr.Bytes()
		}
		d.seq(0x52009230, true, items...)
	}
	d.tag(0x7FE00010)
	d.WriteString("OB")
	d.Write([]byte{0, 0})
	binary.Write(&d, binary.LittleEndian, uint32(0xFFFFFFFF))
	d.tag(0xFFFEE000)
	binary.Write(&d, binary.LittleEndian, uint32(0)) // empty basic offset table
	for _, f := range frames {
		if len(f)%2 == 1 {
			f = append(f, 0)
		}
		d.tag(0xFFFEE000)
		binary.Write(&d, binary.LittleEndian, uint32(len(f)))
		d.Write(f)
	}
	d.tag(0xFFFEE0DD)
	binary.Write(&d, binary.LittleEndian, uint32(0))
	if err := os.WriteFile(path, d.Bytes(), 0o644); err != nil {
		return fmt.Errorf("slidegen: %w", err)
	}
	return nil
}
