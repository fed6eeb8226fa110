package tiles

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"telepath/internal/slide/slidegen"
)

// The generated benchmark slide is written once per test binary and
// removed by TestMain.
var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

func benchSource(b *testing.B, s *Service) *Source {
	b.Helper()
	p := os.Getenv("TELEPATH_BENCH_SLIDE")
	if p == "" {
		benchOnce.Do(func() {
			dir, err := os.MkdirTemp("", "slide-bench")
			if err != nil {
				b.Fatal(err)
			}
			benchDir = dir
			benchErr = slidegen.WriteTIFF(filepath.Join(dir, "bench.tif"), slidegen.Options{Width: 4096, Height: 4096, Quality: 85})
		})
		if benchErr != nil {
			b.Fatal(benchErr)
		}
		p = filepath.Join(benchDir, "bench.tif")
	}
	src, release, err := s.Acquire(p)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(release)
	return src
}

// BenchmarkTilePassThrough: full-resolution Deep Zoom tiles that map onto stored tiles.
func BenchmarkTilePassThrough(b *testing.B) {
	s, _ := New(Options{})
	defer s.Close()
	src := benchSource(b, s)
	L := src.MaxLevel()
	_, _, cols, rows := src.LevelGrid(L)
	cols, rows = cols-1, rows-1 // interior tiles only
	var n atomic.Int64
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(n.Add(7919))
			if err := s.WriteTile(ctx, src, L, i%cols, (i/cols)%rows, func([]byte, string) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTileRender renders tiles of a level below the stored ones (no cache).
func BenchmarkTileRender(b *testing.B) {
	s, _ := New(Options{MemoryCacheBytes: -1})
	defer s.Close()
	src := benchSource(b, s)
	var n atomic.Int64
	ctx := context.Background()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(n.Add(1))
			img, err := s.renderTile(ctx, src, src.MaxLevel(), i%8, (i/8)%8)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.encodeJPEG(img); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTileCached serves rendered tiles from the memory cache.
func BenchmarkTileCached(b *testing.B) {
	s, _ := New(Options{})
	defer s.Close()
	src := benchSource(b, s)
	L := src.MaxLevel() - 7 // 32×32, below the stored pyramid: rendered once, then cached
	_, _, cols, rows := src.LevelGrid(L)
	ctx := context.Background()
	for c := range cols {
		for r := range rows {
			s.Tile(ctx, src, L, c, r)
		}
	}
	var n atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(n.Add(1))
			if _, _, err := s.Tile(ctx, src, L, i%cols, (i/cols)%rows); err != nil {
				b.Fatal(err)
			}
		}
	})
}
