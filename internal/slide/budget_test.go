package slide_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"telepath/internal/platform/memprobe"
	"telepath/internal/slide"
	"telepath/internal/slide/slidegen"
)

func openHostile(t *testing.T, h slidegen.Hostile) slide.Slide {
	t.Helper()
	p := filepath.Join(t.TempDir(), "h.tif")
	if err := slidegen.WriteHostile(p, h); err != nil {
		t.Fatal(err)
	}
	s, err := slide.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A read stops at its context's pixel budget and at cancellation.
func TestReadRegionBudget(t *testing.T) {
	s := openHostile(t, slidegen.TileBomb)
	ctx := slide.WithBudget(context.Background(), 256*256*4)
	if _, err := s.ReadRegion(ctx, 0, 0, 0, 512, 512); err != nil {
		t.Fatalf("within budget: %v", err)
	}
	if _, err := s.ReadRegion(ctx, 0, 512, 0, 512, 512); !errors.Is(err, slide.ErrBudget) {
		t.Fatalf("over budget: %v", err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.ReadRegion(cancelled, 0, 0, 0, 256, 256); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// 64 concurrent reads of small regions of 16384 × 1024 deflate tiles keep
// only what they need: memory stays far below 64 decoded tiles (7 GB).
func TestWideTilesReadConcurrently(t *testing.T) {
	s := openHostile(t, slidegen.WideTiles)
	probe := memprobe.Start(0)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			img, err := s.ReadRegion(context.Background(), 0, (i%64)*256, (i%4)*1024+512, 256, 256)
			if err == nil && img.RGBAAt(10, 10).R != 0xFF {
				err = errors.New("not white")
			}
			errs <- err
		}()
	}
	wg.Wait()
	peak := probe.Stop()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("peak heap in use %.0f MB", memprobe.MB(peak.HeapInuse))
	if peak.HeapInuse > 300<<20 {
		t.Fatalf("peak heap %.0f MB", memprobe.MB(peak.HeapInuse))
	}
}

// A stored tile may not claim far more bytes than its pixels need: a
// pass-through request would hold them all.
func TestTileBytesBounded(t *testing.T) {
	s := openHostile(t, slidegen.Hostile{Width: 1024, Height: 1024, TileWidth: 256, TileHeight: 256, Compression: "jpeg", Padding: 4 << 20})
	if b, ok, err := s.RawTile(0, 1, 1); err == nil {
		t.Fatalf("a tile of %d bytes (ok %v) was read", len(b), ok)
	}
}
