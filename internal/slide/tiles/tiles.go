// Package tiles serves a whole-slide image as Deep Zoom and IIIF Image API
// 3.0 tiles, thumbnails and associated images. Stored JPEG tiles that map
// 1:1 onto a requested tile are passed through untouched; everything else
// (edge tiles cropped to the image, levels the file lacks, arbitrary IIIF
// regions) is rendered, JPEG-encoded and cached in memory and optionally
// on disk. The package does no HTTP: callers map its results and typed
// errors onto routes and status codes:
//
//	svc, _ := tiles.New(tiles.Options{DiskCacheDir: dir})
//	src, release, err := svc.Acquire(path) // kept open in an LRU
//	defer release()
//	b, etag, err := svc.Tile(ctx, src, level, col, row)
//	// errors.Is(err, tiles.ErrNotFound) → 404, tiles.ErrBadRequest → 400,
//	// tiles.ErrTooCostly → over the render budget,
//	// slide.ErrUnsupportedFormat or tiles.ErrNoPyramid from Acquire → "not viewable".
package tiles

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"strconv"
	"time"

	"golang.org/x/sync/semaphore"

	"telepath/internal/slide"
)

// Errors returned (wrapped) by the Service; test with errors.Is.
var (
	// ErrNotFound: level, tile or associated image out of range or absent (HTTP 404).
	ErrNotFound = errors.New("not found")
	// ErrBadRequest: malformed or unsupported request parameters (HTTP 400).
	ErrBadRequest = errors.New("bad request")
	// ErrTooCostly: drawing the request would exceed its render budget
	// (decoded pixels or time).
	ErrTooCostly = errors.New("rendering exceeds its budget")
	// ErrNoPyramid (from Acquire and NewSource): the slide lacks the
	// reduced-resolution levels needed to show it within the render budget,
	// e.g. a huge image stored at full resolution only. It is not viewable.
	ErrNoPyramid = errors.New("slide has no usable pyramid")
)

func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadRequest, fmt.Sprintf(format, args...))
}

func notFound(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotFound, fmt.Sprintf(format, args...))
}

// Options configures a Service. Zero values take the defaults.
type Options struct {
	MemoryCacheBytes int64  // rendered-tile memory cache; default 256 MB, <0 disables
	DiskCacheDir     string // rendered-tile disk cache; "" disables
	DiskCacheBytes   int64  // default 4 GB
	MaxOpenSlides    int    // slides kept open by Acquire; default 64
	Quality          int    // JPEG quality of rendered images; default 85
	MaxSize          int    // largest IIIF/thumbnail output side; default 4096
	// Every render a request causes (with the renders of the levels it
	// is drawn from) has one budget: at most RenderPixels decoded source
	// pixels (default 2^28) and RenderTimeout (default 60 s); at most
	// MaxRenders requests render at once (default GOMAXPROCS, at least 2),
	// the others wait. A slide one of whose tiles would need more than half
	// of RenderPixels is refused with ErrNoPyramid.
	RenderPixels  int64
	RenderTimeout time.Duration
	MaxRenders    int
}

// Service renders and caches tiles. It is safe for concurrent use.
type Service struct {
	opt     Options
	mem     *memCache
	disk    *diskCache
	pool    *pool
	flight  flightGroup
	renders *semaphore.Weighted
}

// New creates a Service; it fails only if the disk cache directory cannot be used.
func New(o Options) (*Service, error) {
	if o.MemoryCacheBytes == 0 {
		o.MemoryCacheBytes = 256 << 20
	}
	if o.DiskCacheBytes <= 0 {
		o.DiskCacheBytes = 4 << 30
	}
	if o.MaxOpenSlides <= 0 {
		o.MaxOpenSlides = 64
	}
	if o.Quality <= 0 || o.Quality > 100 {
		o.Quality = 85
	}
	if o.MaxSize <= 0 {
		o.MaxSize = 4096
	}
	if o.RenderPixels <= 0 {
		o.RenderPixels = 1 << 28
	}
	if o.RenderTimeout <= 0 {
		o.RenderTimeout = time.Minute
	}
	if o.MaxRenders <= 0 {
		o.MaxRenders = max(2, runtime.GOMAXPROCS(0))
	}
	s := &Service{opt: o, renders: semaphore.NewWeighted(int64(o.MaxRenders))}
	s.pool = newPool(o.MaxOpenSlides, o.RenderPixels/2)
	if o.MemoryCacheBytes > 0 {
		s.mem = newMemCache(o.MemoryCacheBytes)
	}
	if o.DiskCacheDir != "" {
		d, err := openDiskCache(o.DiskCacheDir, o.DiskCacheBytes)
		if err != nil {
			return nil, err
		}
		s.disk = d
	}
	return s, nil
}

// Close closes every slide opened by Acquire (once its users release it).
func (s *Service) Close() error { return s.pool.closeAll() }

// Source is an opened slide with the identity that keys caches and ETags,
// and its Deep Zoom geometry.
type Source struct {
	Slide slide.Slide
	// ID identifies the slide's content: two different files must never
	// share an ID. It keys the caches and ETags.
	ID string

	idHash        uint64
	width, height int
	tileSize      int
	maxLevel      int
	levels        []slide.Level
	dzStored      []int // per DZ level: stored level that maps 1:1 (pass-through), or -1
}

// NewSource wraps an opened slide. id must change whenever the content does
// (e.g. a content hash, or path+size+mtime). It fails with ErrNoPyramid when
// one Deep Zoom tile would need more than maxTilePixels decoded pixels.
func NewSource(s slide.Slide, id string, maxTilePixels int64) (*Source, error) {
	src := &Source{Slide: s, ID: id, levels: s.Levels()}
	h := fnv.New64a()
	h.Write([]byte(id))
	src.idHash = h.Sum64()
	l0 := src.levels[0]
	src.width, src.height = l0.Width, l0.Height
	src.tileSize = 256
	for _, l := range src.levels {
		if l.Tiled {
			if l.TileWidth == l.TileHeight && l.TileWidth >= 64 && l.TileWidth <= 2048 {
				src.tileSize = l.TileWidth
			}
			break
		}
	}
	src.maxLevel = int(math.Ceil(math.Log2(float64(max(src.width, src.height)))))
	src.dzStored = make([]int, src.maxLevel+1)
	for L := range src.dzStored {
		src.dzStored[L] = -1
		w, h := src.levelSize(L)
		for i, l := range src.levels {
			if abs(l.Width-w) <= 1 && abs(l.Height-h) <= 1 {
				src.dzStored[L] = i
				break
			}
		}
	}
	if c := src.worstTileCost(); c > maxTilePixels {
		return nil, fmt.Errorf("%w: one %d px tile needs %d decoded pixels (at most %d)", ErrNoPyramid, src.tileSize, c, maxTilePixels)
	}
	return src, nil
}

// worstTileCost is the most stored pixels rendering one Deep Zoom tile
// decodes when nothing is cached. For the coarse levels of a slide without
// a pyramid that is all of level 0.
func (src *Source) worstTileCost() int64 {
	var worst int64
	for L := 0; L <= src.maxLevel; L++ {
		worst = max(worst, src.tileCost(L))
	}
	return worst
}

// tileCost is what rendering tile (L,0,0) decodes, as renderTile draws it:
// the stored chunks its region overlaps in the level it is read from, or,
// above that level, the cost of its children (edge tiles cost less).
func (src *Source) tileCost(L int) int64 {
	const ceiling = 1 << 50
	scale := math.Ldexp(1, src.maxLevel-L)
	lv := src.levels[src.sourceLevel(scale)]
	f := scale / lv.Downsample
	if f > 2.001 && L < src.maxLevel {
		_, _, cols, rows := src.LevelGrid(L + 1)
		return min(int64(min(2, cols)*min(2, rows))*src.tileCost(L+1), ceiling)
	}
	w, h := src.levelSize(L)
	rw := min(int(math.Ceil(float64(min(w, src.tileSize))*f)), lv.Width)
	rh := min(int(math.Ceil(float64(min(h, src.tileSize))*f)), lv.Height)
	return int64(roundUp(rw, lv.TileWidth)) * int64(roundUp(rh, lv.TileHeight))
}

func roundUp(v, step int) int { return (v + step - 1) / step * step }

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TileSize is the Deep Zoom / IIIF tile size (the file's own, overlap 0).
func (s *Source) TileSize() int { return s.tileSize }

// MaxLevel is the highest (full-resolution) Deep Zoom level.
func (s *Source) MaxLevel() int { return s.maxLevel }

// levelSize is the pixel size of Deep Zoom level L.
func (s *Source) levelSize(L int) (int, int) {
	sh := s.maxLevel - L
	return ceilShift(s.width, sh), ceilShift(s.height, sh)
}

func ceilShift(v, sh int) int { return (v + (1 << sh) - 1) >> sh }

// LevelGrid returns the size and tile grid of Deep Zoom level L.
func (s *Source) LevelGrid(L int) (w, h, cols, rows int) {
	w, h = s.levelSize(L)
	return w, h, (w + s.tileSize - 1) / s.tileSize, (h + s.tileSize - 1) / s.tileSize
}

// tileETag is the strong ETag of a Deep Zoom tile (and of the IIIF request
// on the same grid), made without allocating more than the string.
func (s *Source) tileETag(L, col, row int) string {
	h := s.idHash
	for _, v := range [3]int{L, col, row} {
		h ^= uint64(v) + 0x9E3779B97F4A7C15 + h<<6 + h>>2
		h *= 0xBF58476D1CE4E5B9
	}
	var b [16]byte
	out := append(b[:0], '"', 't')
	out = strconv.AppendUint(out, h, 36)
	return string(append(out, '"'))
}

// etag makes a strong ETag from the slide identity and a request key.
func etag(src *Source, key string) string {
	h := fnv.New64a()
	h.Write([]byte(src.ID))
	h.Write([]byte{0})
	h.Write([]byte(key))
	return `"` + strconv.FormatUint(h.Sum64(), 36) + `"`
}
