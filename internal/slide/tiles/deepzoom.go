package tiles

import (
	"context"
	"fmt"
	"image"
	"math"
	"strconv"
	"sync"

	"golang.org/x/image/draw"
)

// DZI returns the Deep Zoom descriptor: the file's own tile size, overlap 0.
func (s *Service) DZI(src *Source) []byte {
	return fmt.Appendf(nil, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<Image xmlns="http://schemas.microsoft.com/deepzoom/2008" TileSize="%d" Overlap="0" Format="jpeg"><Size Width="%d" Height="%d"/></Image>`+"\n",
		src.tileSize, src.width, src.height)
}

// Tile returns Deep Zoom tile (col,row) of level L as JPEG with a strong
// ETag. A tile that maps 1:1 onto a stored JPEG tile is the stored bytes
// (tables spliced in); any other is rendered once and cached. The bytes
// belong to the caller.
func (s *Service) Tile(ctx context.Context, src *Source, L, col, row int) ([]byte, string, error) {
	b, tag, _, err := s.tile(ctx, src, L, col, row, nil)
	return b, tag, err
}

// WriteTile is Tile for the hot path: write gets the tile in a pooled
// buffer that is valid only until write returns (it should copy or send
// it, e.g. with http.ResponseWriter.Write). write's error is returned.
func (s *Service) WriteTile(ctx context.Context, src *Source, L, col, row int, write func(jpeg []byte, etag string) error) error {
	bp := bufPool.Get().(*[]byte)
	b, tag, pooled, err := s.tile(ctx, src, L, col, row, (*bp)[:0])
	if err == nil {
		err = write(b, tag)
	}
	if pooled && cap(b) <= maxPooledBuffer {
		*bp = b[:0]
	}
	bufPool.Put(bp)
	return err
}

const maxPooledBuffer = 1 << 20

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// tile returns the tile, appending stored bytes to dst (pooled reports that
// the result lives in dst's storage) or returning cached rendered bytes.
func (s *Service) tile(ctx context.Context, src *Source, L, col, row int, dst []byte) (b []byte, tag string, pooled bool, err error) {
	if L < 0 || L > src.maxLevel {
		return nil, "", false, notFound("level %d (0-%d)", L, src.maxLevel)
	}
	dzW, dzH, cols, rows := src.LevelGrid(L)
	if col < 0 || row < 0 || col >= cols || row >= rows {
		return nil, "", false, notFound("tile %d/%d_%d", L, col, row)
	}
	tag = src.tileETag(L, col, row)
	if i := src.dzStored[L]; i >= 0 {
		lv, ts := src.levels[i], src.tileSize
		if lv.Tiled && lv.TileWidth == ts && lv.TileHeight == ts &&
			(col+1)*ts <= min(lv.Width, dzW) && (row+1)*ts <= min(lv.Height, dzH) {
			b, ok, err := src.Slide.AppendRawTile(dst, i, col, row)
			if err != nil {
				return nil, "", false, fmt.Errorf("tile %d/%d_%d: %w", L, col, row, err)
			}
			if ok {
				return b, tag, dst != nil, nil
			}
		}
	}
	key := src.ID + "/dz/" + strconv.Itoa(L) + "/" + strconv.Itoa(col) + "_" + strconv.Itoa(row)
	b, err = s.cached(ctx, key, func(ctx context.Context) ([]byte, error) {
		img, err := s.renderTile(ctx, src, L, col, row)
		if err != nil {
			return nil, err
		}
		return s.encodeJPEG(img)
	})
	if err != nil {
		return nil, "", false, fmt.Errorf("tile %d/%d_%d: %w", L, col, row, err)
	}
	return b, tag, false, nil
}

// tileImage returns a Deep Zoom tile decoded.
func (s *Service) tileImage(ctx context.Context, src *Source, L, col, row int) (image.Image, error) {
	b, _, err := s.Tile(ctx, src, L, col, row)
	if err != nil {
		return nil, err
	}
	return decodeTile(b, src.tileSize)
}

// tileRect is the pixel rectangle of a Deep Zoom tile in its level.
func (src *Source) tileRect(L, col, row int) image.Rectangle {
	w, h := src.levelSize(L)
	ts := src.tileSize
	return image.Rect(col*ts, row*ts, min((col+1)*ts, w), min((row+1)*ts, h))
}

// sourceLevel picks the coarsest stored level at least as fine as the
// given downsample.
func (src *Source) sourceLevel(scale float64) int {
	best := 0
	for i, l := range src.levels {
		if l.Downsample <= scale*1.001 {
			best = i
		}
	}
	return best
}

// renderTile draws a Deep Zoom tile: from the nearest finer stored level
// when it is at most 2× finer, otherwise by halving the four tiles of the
// next Deep Zoom level (which recurse the same way and are cached).
func (s *Service) renderTile(ctx context.Context, src *Source, L, col, row int) (*image.RGBA, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := src.tileRect(L, col, row)
	scale := math.Ldexp(1, src.maxLevel-L)
	i := src.sourceLevel(scale)
	lv := src.levels[i]
	f := scale / lv.Downsample
	dst := whiteRGBA(r.Dx(), r.Dy())
	if f <= 2.001 || L == src.maxLevel {
		// Source rectangle in stored-level pixels, clamped to the level
		// (its size may differ from Deep Zoom's by rounding).
		sx0, sy0 := float64(r.Min.X)*f, float64(r.Min.Y)*f
		sx1, sy1 := math.Min(float64(r.Max.X)*f, float64(lv.Width)), math.Min(float64(r.Max.Y)*f, float64(lv.Height))
		if sx1 <= sx0 || sy1 <= sy0 {
			return dst, nil
		}
		rx0, ry0 := int(math.Floor(sx0)), int(math.Floor(sy0))
		rx1, ry1 := int(math.Ceil(sx1)), int(math.Ceil(sy1))
		region, err := src.Slide.ReadRegion(ctx, i, rx0, ry0, rx1-rx0, ry1-ry0)
		if err != nil {
			return nil, err
		}
		resample(dst, region, sx0-float64(rx0), sy0-float64(ry0), (sx1-sx0)/float64(r.Dx()), (sy1-sy0)/float64(r.Dy()))
		return dst, nil
	}
	// Compose the (up to) four children of level L+1.
	_, _, ccols, crows := src.LevelGrid(L + 1)
	cw, ch := src.levelSize(L + 1)
	ts := src.tileSize
	canvas := whiteRGBA(min(2*ts, cw-2*r.Min.X), min(2*ts, ch-2*r.Min.Y))
	for dy := range 2 {
		for dx := range 2 {
			c, rr := 2*col+dx, 2*row+dy
			if c >= ccols || rr >= crows {
				continue
			}
			img, err := s.tileImage(ctx, src, L+1, c, rr)
			if err != nil {
				return nil, err
			}
			at := image.Pt(dx*ts, dy*ts)
			draw.Draw(canvas, img.Bounds().Sub(img.Bounds().Min).Add(at), img, img.Bounds().Min, draw.Src)
		}
	}
	cb := canvas.Bounds()
	resample(dst, canvas, 0, 0, float64(cb.Dx())/float64(r.Dx()), float64(cb.Dy())/float64(r.Dy()))
	return dst, nil
}
