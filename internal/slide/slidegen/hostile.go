package slidegen

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"os"
)

// Hostile describes a small file that claims far more pixels than it
// holds: every tile offset of one huge level points at the same stored
// tile. Such files test the readers' and renderers' budgets (the security
// test of issue 18 found them); they are generated, never checked in.
type Hostile struct {
	Width, Height         int    // the one level's claimed size
	TileWidth, TileHeight int    // its tile size
	Compression           string // "jpeg" (a real 8-bit JPEG tile) or "deflate" (one zlib stream of white)
	// Downsamples adds reduced levels (stored the same way) at these
	// factors of level 0.
	Downsamples []int
	// Padding is junk stored (and counted) after the tile's data.
	Padding int
}

// TileBomb is the 8 MB classic TIFF of the report: one 262,144 × 262,144
// level whose 1,048,576 tile offsets all point at one valid JPEG tile.
var TileBomb = Hostile{Width: 262144, Height: 262144, TileWidth: 256, TileHeight: 256, Compression: "jpeg"}

// DeflateBomb is the ~49 kB TIFF of the report: 64 deflate tiles of
// 16384 × 1024 white pixels (48 MB each once inflated), one stream shared.
var DeflateBomb = Hostile{Width: 65536, Height: 16384, TileWidth: 16384, TileHeight: 1024, Compression: "deflate"}

// PyramidGap is TileBomb with one 256 px reduced level: a pyramid with
// nothing between the thumbnail and full resolution.
var PyramidGap = Hostile{Width: 262144, Height: 262144, TileWidth: 256, TileHeight: 256, Compression: "jpeg", Downsamples: []int{1024}}

// WideTiles is a proper pyramid (viewable) stored in 16384 × 1024 deflate
// tiles: every Deep Zoom tile lies in a 48 MB chunk.
var WideTiles = Hostile{Width: 16384, Height: 4096, TileWidth: 16384, TileHeight: 1024, Compression: "deflate",
	Downsamples: []int{2, 4, 8, 16, 32, 64}}

// WriteHostile writes h as a classic TIFF at path.
func WriteHostile(path string, h Hostile) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("slidegen: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	tw, err := newTIFFWriter(f, false, false)
	if err != nil {
		return fmt.Errorf("slidegen: %w", err)
	}
	levels := []struct{ w, h int }{{h.Width, h.Height}}
	for _, ds := range h.Downsamples {
		levels = append(levels, struct{ w, h int }{max(1, h.Width/ds), max(1, h.Height/ds)})
	}
	tile, tables, err := hostileTile(h)
	if err != nil {
		return fmt.Errorf("slidegen: %w", err)
	}
	tile = append(tile, make([]byte, h.Padding)...)
	for i, lv := range levels {
		spec, err := hostileLevel(tw, h, tile, tables, lv.w, lv.h, i > 0)
		if err != nil {
			return fmt.Errorf("slidegen: %w", err)
		}
		tw.ifds = append(tw.ifds, spec)
	}
	return tw.finish()
}

// hostileTile encodes the one tile every offset points at.
func hostileTile(h Hostile) (tile, tables []byte, err error) {
	switch h.Compression {
	case "jpeg":
		img := image.NewRGBA(image.Rect(0, 0, h.TileWidth, h.TileHeight))
		for i := range img.Pix {
			img.Pix[i] = 0xF0
		}
		img.Set(h.TileWidth/2, h.TileHeight/2, color.RGBA{200, 60, 120, 255})
		tables, tile, err = encodeJPEG(img, 80, false)
		return tile, tables, err
	case "deflate":
		return deflate(bytes.Repeat([]byte{0xFF}, h.TileWidth*h.TileHeight*3)), nil, nil
	}
	return nil, nil, fmt.Errorf("hostile compression %q", h.Compression)
}

// hostileLevel stores the tile once and an IFD whose every offset points at it.
func hostileLevel(tw *tiffWriter, h Hostile, tile, tables []byte, w, ht int, reduced bool) (*ifdSpec, error) {
	photometric := uint64(2)
	if tables != nil {
		photometric = 6
	}
	off, err := tw.data(tile)
	if err != nil {
		return nil, err
	}
	n := ((w + h.TileWidth - 1) / h.TileWidth) * ((ht + h.TileHeight - 1) / h.TileHeight)
	offs, counts := make([]uint64, n), make([]uint64, n)
	for i := range offs {
		offs[i], counts[i] = uint64(off), uint64(len(tile))
	}
	var subfile uint64
	if reduced {
		subfile = 1
	}
	fs := []field{
		{tag: 254, typ: 4, u: []uint64{subfile}},
		{tag: 256, typ: 4, u: []uint64{uint64(w)}},
		{tag: 257, typ: 4, u: []uint64{uint64(ht)}},
		{tag: 258, typ: 3, u: []uint64{8, 8, 8}},
		{tag: 259, typ: 3, u: []uint64{compCode[h.Compression]}},
		{tag: 262, typ: 3, u: []uint64{photometric}},
		{tag: 277, typ: 3, u: []uint64{3}},
		{tag: 284, typ: 3, u: []uint64{1}},
		{tag: 322, typ: 4, u: []uint64{uint64(h.TileWidth)}},
		{tag: 323, typ: 4, u: []uint64{uint64(h.TileHeight)}},
		{tag: 324, typ: 4, u: offs},
		{tag: 325, typ: 4, u: counts},
	}
	if tables != nil {
		fs = append(fs, field{tag: 347, typ: 7, b: tables}, field{tag: 530, typ: 3, u: []uint64{2, 2}})
	}
	sortFields(fs)
	return &ifdSpec{fields: fs, inMain: true}, nil
}
