package slide_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"telepath/internal/slide"
	"telepath/internal/slide/slidegen"
)

// benchSlide opens $TELEPATH_BENCH_SLIDE, or a generated 4096×4096 JPEG pyramid.
// The generated benchmark slide is written once per test binary and
// removed by TestMain.
var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

func benchSlide(b *testing.B) slide.Slide {
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
	s, err := slide.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkRawTile reads level-0 tiles in parallel into reused buffers, as
// the tile service does for pass-through requests; tiles/s = 1e9 / ns/op.
func BenchmarkRawTile(b *testing.B) {
	s := benchSlide(b)
	l := s.Levels()[0]
	cols, rows := l.Width/l.TileWidth, l.Height/l.TileHeight
	var n atomic.Int64
	var bytes atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var buf []byte // reused, as the tile service's pooled buffers are
		for pb.Next() {
			i := int(n.Add(7919))
			t, ok, err := s.AppendRawTile(buf[:0], 0, i%cols, (i/cols)%rows)
			if err != nil || !ok {
				b.Fatal(err)
			}
			buf = t
			bytes.Add(int64(len(t)))
		}
	})
	b.ReportMetric(float64(bytes.Load())/float64(b.N), "B/tile")
}

// BenchmarkReadRegion decodes a 512×512 region (four 256 px JPEG tiles).
func BenchmarkReadRegion(b *testing.B) {
	s := benchSlide(b)
	l := s.Levels()[0]
	var n atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(n.Add(1))
			x := (i * 256) % (l.Width - 512)
			y := (i * 256 / (l.Width - 512) * 256) % (l.Height - 512)
			if _, err := s.ReadRegion(context.Background(), 0, x, y, 512, 512); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}
