package slideserver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"telepath/internal/platform/i18n"
	"telepath/internal/slide/slidegen"
	"telepath/internal/slide/tiles"
)

var (
	benchOnce           sync.Once
	benchDir, benchPath string
	benchErr            error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// discard is a ResponseWriter that keeps only the status.
type discard struct {
	h      http.Header
	status int
	n      int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(s int)           { d.status = s }
func (d *discard) Write(b []byte) (int, error) { d.n += len(b); return len(b), nil }

// benchServer serves one generated slide through the signed-URL handlers,
// with the database lookup replaced by a constant.
// With shared, the tiles are asked for through a share's grant (watermarked).
func benchServer(b *testing.B, w, h int, shared bool) (*http.ServeMux, string, *tiles.Source, func()) {
	b.Helper()
	// The benchmark function runs several times; make the slide once.
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "slideserver-bench")
		if err != nil {
			benchErr = err
			return
		}
		benchDir = dir
		benchPath = filepath.Join(dir, "bench.tif")
		benchErr = slidegen.WriteTIFF(benchPath, slidegen.Options{Width: w, Height: h, Seed: 11, Quality: 85})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	path := benchPath
	ts, err := tiles.New(tiles.Options{MemoryCacheBytes: 256 << 20})
	if err != nil {
		b.Fatal(err)
	}
	s := &Server{tiles: ts, now: time.Now, cache: map[int64]entry{},
		lookup: func(context.Context, int64) (entry, error) { return entry{path: path, viewable: true}, nil }}
	// A granted slide as the tile requests find it: key and check remembered.
	key := slideKey{ID: 1, Key: "30313233343536373839616263646566"}
	s.keys.add(keyRing{Current: key})
	s.grants.put(grantKey{slideID: 1, sessionID: 7, keyID: 1}, true, time.Now().Add(time.Hour))
	// And as a share's visitor finds it (share 5): watermarked.
	mark := &ShareGrant{Watermark: map[i18n.Lang]string{i18n.ZH: testMark, i18n.EN: testMark}}
	s.shares = func(context.Context, int64, int64) (ShareGrant, bool) { return *mark, true }
	s.grants.putShare(grantKey{slideID: 1, sessionID: -5, keyID: 1}, true, mark, time.Now().Add(time.Hour))
	mux := http.NewServeMux()
	s.Mount(mux)
	base := fmt.Sprintf("/api/slides/1/g/%s/slide_files/", signGrant(key, 1, 7))
	if shared {
		base = fmt.Sprintf("/api/slides/1/g/%s/slide_files/", signShare(key, 1, 5))
	}
	src, release, err := ts.Acquire(path)
	if err != nil {
		b.Fatal(err)
	}
	return mux, base, src, func() { release(); ts.Close() }
}

// BenchmarkTiles serves random Deep Zoom tiles in parallel through the
// handler (grant check, slide lookup, pass-through of stored JPEG
// tiles), weighted as in bench/tiles: 40 % full resolution, then 25, 15,
// 10, 5 % and 5 % over the lower levels. It reports tiles/s and latency.
func BenchmarkTiles(b *testing.B) { benchTiles(b, false, 0) }

// BenchmarkSharedTiles is BenchmarkTiles for a share's visitor: every
// tile decoded, watermarked and encoded again (watermark.go).
func BenchmarkSharedTiles(b *testing.B) { benchTiles(b, true, 0) }

// BenchmarkSharedTilesRevisited is BenchmarkSharedTiles once 300 tiles
// have been seen (several visitors of a share on the same fields, or one
// panning back): every tile asked for is one of them, stamped before.
func BenchmarkSharedTilesRevisited(b *testing.B) { benchTiles(b, true, 300) }

// benchTiles serves random tiles; with seen > 0, only seen tiles picked
// and served once before the clock starts.
func benchTiles(b *testing.B, shared bool, seen int) {
	mux, base, src, done := benchServer(b, 8192, 8192, shared)
	defer done()
	maxL := src.MaxLevel()
	weights := []int{40, 25, 15, 10, 5}
	pick := func(r *rand.Rand) string {
		x := r.IntN(100)
		L := maxL - len(weights)
		for i, wgt := range weights {
			if x < wgt {
				L = maxL - i
				break
			}
			x -= wgt
		}
		if L == maxL-len(weights) {
			L = r.IntN(maxL - len(weights) + 1)
		}
		_, _, cols, rows := src.LevelGrid(L)
		return fmt.Sprintf("%s%d/%d_%d.jpeg", base, L, r.IntN(cols), r.IntN(rows))
	}
	if seen > 0 {
		r, pool := rand.New(rand.NewPCG(7, 7)), make([]string, seen)
		for i := range pool {
			pool[i] = pick(r)
			req, _ := http.NewRequest(http.MethodGet, pool[i], nil)
			mux.ServeHTTP(&discard{h: http.Header{}}, req)
		}
		pick = func(r *rand.Rand) string { return pool[r.IntN(len(pool))] }
	}
	var mu sync.Mutex
	var all []time.Duration
	var seed uint64
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		seed++
		r := rand.New(rand.NewPCG(seed, 42))
		mu.Unlock()
		lat := make([]time.Duration, 0, 1<<16)
		w := &discard{h: http.Header{}}
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodGet, pick(r), nil)
			clear(w.h)
			w.status = 0
			t0 := time.Now()
			mux.ServeHTTP(w, req)
			lat = append(lat, time.Since(t0))
			if w.status != 0 && w.status != http.StatusOK {
				b.Errorf("%s: %d", req.URL.Path, w.status)
				return
			}
		}
		mu.Lock()
		all = append(all, lat...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if len(all) == 0 {
		return
	}
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "tiles/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
}
