package slide

import (
	"bufio"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/image/tiff/lzw"
)

const maxChunkBytes = 32 << 20 // compressed bytes of one tile or strip

// chunkBytes bounds the stored bytes of one tile or strip by its pixels:
// no codec the reader accepts needs more than twice the raw samples, so a
// file cannot make every tile request hold megabytes (a stored JPEG tile
// is sent as it is).
func chunkBytes(l *level) uint64 {
	return min(uint64(l.TileWidth)*uint64(l.TileHeight)*uint64(max(l.d.spp, 3))*2+64<<10, maxChunkBytes)
}

// chunkRange returns the file range of chunk idx, checked against the file.
func (s *tiffSlide) chunkRange(l *level, idx int) (off, n uint64, err error) {
	off, n = l.d.offsets[idx], l.d.counts[idx]
	if n > chunkBytes(l) || off > uint64(s.size) || n > uint64(s.size)-off {
		return 0, 0, fmt.Errorf("tile %d: range %d+%d outside file of %d bytes", idx, off, n, s.size)
	}
	return off, n, nil
}

func (s *tiffSlide) pread(p []byte, off uint64) error {
	got, err := s.r.ReadAt(p, int64(off))
	if got == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("read tile: %w", err)
}

func (s *tiffSlide) level(i int) (*level, error) {
	if i < 0 || i >= len(s.levels) {
		return nil, fmt.Errorf("level %d: %w", i, ErrNotFound)
	}
	return s.levels[i], nil
}

func (s *tiffSlide) RawTile(lv, col, row int) ([]byte, bool, error) {
	return s.AppendRawTile(nil, lv, col, row)
}

func (s *tiffSlide) AppendRawTile(dst []byte, lv, col, row int) ([]byte, bool, error) {
	l, err := s.level(lv)
	if err != nil {
		return dst, false, err
	}
	if col < 0 || row < 0 || col >= l.cols || row >= l.rows {
		return dst, false, fmt.Errorf("tile %d/%d,%d: %w", lv, col, row, ErrNotFound)
	}
	if !l.isJPEG || !l.Tiled {
		return dst, false, nil
	}
	return s.jpegChunk(dst, l, row*l.cols+col)
}

// grow extends b by n bytes, reallocating only when its capacity is short.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), len(b)+n)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}

// jpegChunk appends a stored JPEG tile to dst with one pread straight
// behind the level's prefix, which then overwrites the tile's own SOI
// marker. ok is false for an absent (zero-length) tile.
func (s *tiffSlide) jpegChunk(dst []byte, l *level, idx int) (out []byte, ok bool, err error) {
	off, n, err := s.chunkRange(l, idx)
	if err != nil || n == 0 {
		return dst, false, err
	}
	if n < 4 {
		return dst, false, fmt.Errorf("tile %d: %d bytes is not a JPEG stream", idx, n)
	}
	p, start := len(l.prefix), len(dst)
	out = grow(dst, p-2+int(n))
	buf := out[start:]
	if err := s.pread(buf[p-2:], off); err != nil {
		return dst, false, err
	}
	if buf[p-2] != 0xFF || buf[p-1] != 0xD8 {
		return dst, false, fmt.Errorf("tile %d: not a JPEG stream", idx)
	}
	copy(buf, l.prefix)
	return out, true, nil
}

// decodeChunk decodes the part need (in chunk coordinates) of tile or
// strip idx. The image's bounds are in chunk coordinates and cover need; it
// is nil for an absent tile. release frees its decode memory once drawn.
func (s *tiffSlide) decodeChunk(ctx context.Context, l *level, idx int, need image.Rectangle) (img image.Image, release func(), err error) {
	off, n, err := s.chunkRange(l, idx)
	if err != nil || n == 0 {
		return nil, nil, err
	}
	if l.isJPEG {
		return decodeJPEGChunk(ctx, int64(n), l.TileWidth, l.TileHeight, func() ([]byte, bool, error) {
			return s.jpegChunk(nil, l, idx)
		})
	}
	w, h := l.TileWidth, l.TileHeight
	if !l.Tiled {
		// The last strip holds only the remaining rows.
		h = min(h, l.Height-(idx/l.cols)*l.TileHeight)
	}
	need = need.Intersect(image.Rect(0, 0, w, h))
	if need.Empty() {
		return nil, nil, nil
	}
	// Rows are decompressed up to the last one needed, and only the
	// needed columns are kept: a huge strip or tile costs one row of
	// memory, not its whole decoded size.
	if err := spend(ctx, int64(w)*int64(need.Max.Y)); err != nil {
		return nil, nil, err
	}
	spp := l.d.spp
	release, err = reserve(ctx, int64(need.Dx())*int64(need.Dy())*4+int64(w*spp)+decompressBuffer)
	if err != nil {
		return nil, nil, err
	}
	img, err = s.decodeRows(ctx, l, io.NewSectionReader(s.r, int64(off), int64(n)), w, need)
	if err != nil {
		release()
		return nil, nil, fmt.Errorf("tile %d: %w", idx, err)
	}
	return img, release, nil
}

const decompressBuffer = 64 << 10

// decodeRows decompresses a chunk w pixels wide row by row up to need's
// last row, converting need's columns to RGBA.
func (s *tiffSlide) decodeRows(ctx context.Context, l *level, raw *io.SectionReader, w int, need image.Rectangle) (*image.RGBA, error) {
	spp := l.d.spp
	stride := w * spp
	first := 0
	var rd io.Reader
	switch l.d.compression {
	case compNone:
		// Uncompressed rows can be read from where they start.
		first = need.Min.Y
		raw.Seek(int64(first)*int64(stride), io.SeekStart) //nolint:errcheck // a short read leaves zeros
		rd = bufio.NewReaderSize(raw, decompressBuffer)
	case compLZW:
		lr := lzw.NewReader(bufio.NewReaderSize(raw, decompressBuffer), lzw.MSB, 8)
		defer lr.Close()
		rd = lr
	case compDeflate, compDeflateOld:
		zr, err := zlib.NewReader(bufio.NewReaderSize(raw, decompressBuffer))
		if err != nil {
			return nil, fmt.Errorf("deflate: %w", err)
		}
		defer zr.Close()
		rd = zr
	}
	img := image.NewRGBA(need)
	row := make([]byte, stride)
	short := false
	for y := first; y < need.Max.Y; y++ {
		if y%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if short {
			clear(row)
		} else if n, err := io.ReadFull(rd, row); err != nil {
			// A short chunk is tolerated (as libtiff does): the rest is zero.
			if err != io.ErrUnexpectedEOF && err != io.EOF {
				return nil, fmt.Errorf("decompress: %w", err)
			}
			clear(row[n:])
			short = true
		}
		if y < need.Min.Y {
			continue
		}
		if l.d.predictor == 2 {
			undoPredictor(row, w, spp)
		}
		o := img.PixOffset(need.Min.X, y)
		convertRow(img.Pix[o:o+need.Dx()*4], row[need.Min.X*spp:need.Max.X*spp], l.d)
	}
	return img, nil
}

// decodeJPEGChunk reads (with read) and decodes a JPEG tile of at most
// maxW×maxH pixels and n compressed bytes, holding its decode memory
// until release.
func decodeJPEGChunk(ctx context.Context, n int64, maxW, maxH int, read func() ([]byte, bool, error)) (img image.Image, release func(), err error) {
	px := int64(maxW) * int64(maxH)
	if err := spend(ctx, px); err != nil {
		return nil, nil, err
	}
	release, err = reserve(ctx, n+3*px)
	if err != nil {
		return nil, nil, err
	}
	b, ok, err := read()
	if err == nil && ok {
		img, err = decodeJPEG(b, maxW, maxH)
	}
	if err != nil || img == nil {
		release()
		return nil, nil, err
	}
	return img, release, nil
}

func undoPredictor(pix []byte, w, spp int) {
	stride := w * spp
	for y := 0; y+stride <= len(pix); y += stride {
		row := pix[y : y+stride]
		for i := spp; i < len(row); i++ {
			row[i] += row[i-spp]
		}
	}
}

// toRGBA converts 8-bit gray, RGB or RGBA samples to an opaque RGBA image.
func toRGBA(pix []byte, w, h int, d *ifd) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	convertRow(img.Pix, pix, d)
	return img
}

// convertRow converts samples to opaque RGBA pixels, compositing any alpha
// over white as a slide viewer shows glass.
func convertRow(dst, pix []byte, d *ifd) {
	spp := d.spp
	assoc := len(d.extraSamples) > 0 && d.extraSamples[0] == 1
	for i, j := 0, 0; i+spp <= len(pix) && j+4 <= len(dst); i, j = i+spp, j+4 {
		switch spp {
		case 1:
			v := pix[i]
			if d.photometric == photoMinIsWhite {
				v = 255 - v
			}
			dst[j], dst[j+1], dst[j+2] = v, v, v
		case 3:
			dst[j], dst[j+1], dst[j+2] = pix[i], pix[i+1], pix[i+2]
		case 4:
			a := uint32(pix[i+3])
			for c := 0; c < 3; c++ {
				v := uint32(pix[i+c])
				if !assoc {
					v = v * a / 255
				}
				dst[j+c] = uint8(min(v+255-a, 255))
			}
		}
		dst[j+3] = 255
	}
}

func (s *tiffSlide) ReadRegion(ctx context.Context, lv, x, y, w, h int) (*image.RGBA, error) {
	l, err := s.level(lv)
	if err != nil {
		return nil, err
	}
	return s.readRegion(ctx, l, x, y, w, h)
}

func (s *tiffSlide) readRegion(ctx context.Context, l *level, x, y, w, h int) (*image.RGBA, error) {
	return readGrid(ctx, l.Level, x, y, w, h, func(ctx context.Context, col, row int, need image.Rectangle) (image.Image, func(), error) {
		return s.decodeChunk(ctx, l, row*l.cols+col, need)
	})
}

// chunkDecoder decodes the part need (in chunk coordinates) of the chunk
// at (col,row): an image whose bounds are in chunk coordinates and cover
// need, or nil for an absent chunk (which stays white). release, when not
// nil, frees the decode memory once the image is drawn.
type chunkDecoder func(ctx context.Context, col, row int, need image.Rectangle) (img image.Image, release func(), err error)

// readGrid composes the region (x,y,w,h) of a level stored as a grid of
// tiles or strips, decoding only the chunks it overlaps.
func readGrid(ctx context.Context, l Level, x, y, w, h int, decode chunkDecoder) (*image.RGBA, error) {
	dst, err := newRegion(x, y, w, h)
	if err != nil {
		return nil, err
	}
	r := image.Rect(x, y, x+w, y+h).Intersect(image.Rect(0, 0, l.Width, l.Height))
	if r.Empty() {
		return dst, nil
	}
	c0, c1 := r.Min.X/l.TileWidth, (r.Max.X-1)/l.TileWidth
	r0, r1 := r.Min.Y/l.TileHeight, (r.Max.Y-1)/l.TileHeight
	n := (c1 - c0 + 1) * (r1 - r0 + 1)
	// Chunks decode in parallel (they draw into disjoint parts of dst), which
	// cuts the latency of rendered tiles that need several source tiles.
	workers := min(n, runtime.GOMAXPROCS(0), 4)
	var next atomic.Int64
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				col, row := c0+i%(c1-c0+1), r0+i/(c1-c0+1)
				origin := image.Pt(col*l.TileWidth, row*l.TileHeight)
				img, release, err := decode(ctx, col, row, r.Sub(origin))
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					next.Store(int64(n)) // stop the others early
					return
				}
				if img == nil {
					continue
				}
				tr := img.Bounds().Add(origin).Intersect(r)
				// dst's bounds are in level coordinates offset by (x,y).
				draw.Draw(dst, tr.Sub(image.Pt(x, y)), img, tr.Min.Sub(origin), draw.Src)
				if release != nil {
					release()
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return dst, nil
}

// newRegion allocates a white w×h image with bounds at the origin.
func newRegion(x, y, w, h int) (*image.RGBA, error) {
	if w <= 0 || h <= 0 || w > maxDimension || h > maxDimension || w*h > maxRegionPixels {
		return nil, fmt.Errorf("region %dx%d: size out of range", w, h)
	}
	if x < -maxDimension || y < -maxDimension || x > 2*maxDimension || y > 2*maxDimension {
		return nil, fmt.Errorf("region at %d,%d: position out of range", x, y)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xFF
	}
	return img, nil
}
