package tiles

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"telepath/internal/slide"
	"telepath/internal/slide/slidegen"
)

func hostile(t *testing.T, h slidegen.Hostile) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "h.tif")
	if err := slidegen.WriteHostile(p, h); err != nil {
		t.Fatal(err)
	}
	return p
}

// Slides whose overview would need decoding gigapixels are refused when
// opened; a proper pyramid in odd tiles is not.
func TestHostileSlidesRefused(t *testing.T) {
	s := newService(t, Options{})
	for name, h := range map[string]slidegen.Hostile{"tile bomb": slidegen.TileBomb, "deflate bomb": slidegen.DeflateBomb, "pyramid gap": slidegen.PyramidGap} {
		if _, _, err := s.Acquire(hostile(t, h)); !errors.Is(err, ErrNoPyramid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	src := acquire(t, s, hostile(t, slidegen.WideTiles))
	b, _, err := s.Thumbnail(context.Background(), src, 256)
	if err != nil {
		t.Fatal(err)
	}
	decode(t, b)
	_, _, err = s.Tile(context.Background(), src, src.MaxLevel(), 3, 2)
	if err != nil {
		t.Fatal(err)
	}
}

// A request's renders stop at its pixel budget.
func TestRenderBudget(t *testing.T) {
	s := newService(t, Options{RenderPixels: 1 << 16, MemoryCacheBytes: -1})
	sl, err := slide.Open(hostile(t, slidegen.Hostile{Width: 2048, Height: 2048, TileWidth: 256, TileHeight: 256, Compression: "jpeg"}))
	if err != nil {
		t.Fatal(err)
	}
	defer sl.Close()
	src, err := NewSource(sl, "budget", 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Tile(context.Background(), src, src.MaxLevel()-3, 0, 0); !errors.Is(err, ErrTooCostly) {
		t.Fatalf("over budget: %v", err)
	}
}

// A render nobody waits for any more stops (the background check of a slide
// is cancelled at shutdown), and is not cached half-done.
func TestRenderStopsWhenNobodyWaits(t *testing.T) {
	s := newService(t, Options{})
	src := acquire(t, s, hostile(t, slidegen.Hostile{Width: 8192, Height: 8192, TileWidth: 256, TileHeight: 256, Compression: "jpeg"}))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, _, err := s.Thumbnail(ctx, src, 256); !errors.Is(err, context.Canceled) {
		t.Fatalf("thumbnail after cancel: %v", err)
	}
	// Hang detector only: the renders end once they notice.
	for deadline := time.Now().Add(30 * time.Second); s.flight.len() > 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("renders still running")
		}
	}
	if _, ok := s.mem.get(src.ID + "/thumb/256"); ok {
		t.Fatal("the cancelled thumbnail was finished anyway")
	}
}

// The memory cache counts what entries hold (capacity and bookkeeping),
// not only their length.
func TestMemCacheCountsCapacity(t *testing.T) {
	c := newMemCache(1 << 20)
	shards := map[*memShard]bool{} // each shard the keys fall in keeps at least its newest entry
	for i := range 100 {
		key := string(rune('a'+i%26)) + string(rune('a'+i/26))
		shards[c.shard(key)] = true
		c.put(key, make([]byte, 10, 32<<10))
	}
	if n := c.bytes(); n > 1<<20 || n < int64(len(shards))*(32<<10) {
		t.Fatalf("accounted %d bytes for entries in %d shards", n, len(shards))
	}
}

// The disk cache bounds its in-memory index by entries as well as bytes.
func TestDiskCacheEntryBound(t *testing.T) {
	c, err := openDiskCache(t.TempDir(), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	c.maxEntries = 50
	for i := range 200 {
		c.put(string(rune('a'+i%26))+string(rune('a'+i/26)), []byte{1})
	}
	if n := c.lru.Len(); n != 50 || len(c.items) != 50 {
		t.Fatalf("%d entries", n)
	}
}
