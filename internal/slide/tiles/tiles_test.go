package tiles

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"telepath/internal/slide"
	"telepath/internal/slide/slidegen"
)

var (
	fixtureOnce sync.Once
	fixtureDir  string
)

// fixtures writes the test slides once per test binary.
func fixtures(t *testing.T) (svs, tif string) {
	t.Helper()
	fixtureOnce.Do(func() {
		dir, err := osMkdirTemp()
		if err != nil {
			t.Fatal(err)
		}
		fixtureDir = dir
		if err := slidegen.WriteSVS(filepath.Join(dir, "a.svs"), slidegen.Options{Width: 2000, Height: 1500, MinLevelSize: 200}); err != nil {
			t.Fatal(err)
		}
		if err := slidegen.WriteTIFF(filepath.Join(dir, "b.tif"), slidegen.Options{Width: 1500, Height: 1100}); err != nil {
			t.Fatal(err)
		}
	})
	return filepath.Join(fixtureDir, "a.svs"), filepath.Join(fixtureDir, "b.tif")
}

func newService(t *testing.T, o Options) *Service {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func acquire(t *testing.T, s *Service, path string) *Source {
	t.Helper()
	src, release, err := s.Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return src
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return img
}

func TestDeepZoomGeometry(t *testing.T) {
	svs, _ := fixtures(t)
	s := newService(t, Options{})
	src := acquire(t, s, svs)
	if src.TileSize() != 240 || src.MaxLevel() != 11 {
		t.Fatalf("tile size %d, max level %d", src.TileSize(), src.MaxLevel())
	}
	dzi := string(s.DZI(src))
	for _, want := range []string{`TileSize="240"`, `Overlap="0"`, `Format="jpeg"`, `Width="2000"`, `Height="1500"`, `xmlns="http://schemas.microsoft.com/deepzoom/2008"`} {
		if !strings.Contains(dzi, want) {
			t.Errorf("DZI lacks %s: %s", want, dzi)
		}
	}
	want := map[int][4]int{11: {2000, 1500, 9, 7}, 10: {1000, 750, 5, 4}, 9: {500, 375, 3, 2}, 1: {2, 2, 1, 1}, 0: {1, 1, 1, 1}}
	for L, g := range want {
		w, h, c, r := src.LevelGrid(L)
		if [4]int{w, h, c, r} != g {
			t.Errorf("level %d: %d %d %d %d, want %v", L, w, h, c, r, g)
		}
	}
	ctx := context.Background()
	for L := 0; L <= src.MaxLevel(); L++ {
		w, h, cols, rows := src.LevelGrid(L)
		for _, cr := range [][2]int{{0, 0}, {cols - 1, rows - 1}, {cols / 2, 0}} {
			b, tag, err := s.Tile(ctx, src, L, cr[0], cr[1])
			if err != nil {
				t.Fatalf("level %d tile %v: %v", L, cr, err)
			}
			if !strings.HasPrefix(tag, `"`) {
				t.Errorf("etag %q", tag)
			}
			img := decode(t, b)
			ew, eh := min(240, w-cr[0]*240), min(240, h-cr[1]*240)
			if img.Bounds().Dx() != ew || img.Bounds().Dy() != eh {
				t.Errorf("level %d tile %v is %v, want %dx%d", L, cr, img.Bounds().Size(), ew, eh)
			}
		}
		for _, bad := range [][2]int{{cols, 0}, {0, rows}, {-1, 0}} {
			if _, _, err := s.Tile(ctx, src, L, bad[0], bad[1]); !errors.Is(err, ErrNotFound) {
				t.Errorf("level %d tile %v: err %v", L, bad, err)
			}
		}
	}
	if _, _, err := s.Tile(ctx, src, 12, 0, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("level 12: %v", err)
	}
}

func TestPassThroughAndRendered(t *testing.T) {
	svs, tif := fixtures(t)
	s := newService(t, Options{})
	ctx := context.Background()
	for _, p := range []string{svs, tif} {
		src := acquire(t, s, p)
		for i, lv := range src.Slide.Levels() {
			L := src.MaxLevel() - int(lv.Downsample+0.5)/2 // ds 1→max, 2→max-1, 4→max-2
			switch int(lv.Downsample + 0.5) {
			case 1:
				L = src.MaxLevel()
			case 2:
				L = src.MaxLevel() - 1
			case 4:
				L = src.MaxLevel() - 2
			default:
				continue
			}
			raw, ok, err := src.Slide.RawTile(i, 0, 0)
			if err != nil || !ok {
				t.Fatalf("%s level %d: RawTile %v %v", p, i, ok, err)
			}
			b, _, err := s.Tile(ctx, src, L, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, raw) {
				t.Errorf("%s: DZ %d/0_0 is not the stored tile of level %d", p, L, i)
			}
			for range 2 { // the second call reuses a pooled buffer
				err = s.WriteTile(ctx, src, L, 0, 0, func(w []byte, tag string) error {
					if !bytes.Equal(w, raw) || tag == "" {
						t.Errorf("WriteTile differs from the stored tile")
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		// A rendered level (SVS lacks downsample 2) matches the texture.
		tex := slidegen.Texture{}
		L := src.MaxLevel() - 1
		b, _, err := s.Tile(ctx, src, L, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		img := decode(t, b)
		var sum, n float64
		ts := src.TileSize()
		for y := 0; y < ts; y += 3 {
			for x := 0; x < ts; x += 3 {
				r, g, bb, _ := img.At(x, y).RGBA()
				// Average the 2×2 level-0 block, as a box filter would.
				var er, eg, eb float64
				for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					c := tex.At(2*(ts+x)+d[0], 2*(ts+y)+d[1])
					er, eg, eb = er+float64(c.R)/4, eg+float64(c.G)/4, eb+float64(c.B)/4
				}
				sum += absf(float64(r>>8)-er) + absf(float64(g>>8)-eg) + absf(float64(bb>>8)-eb)
				n += 3
			}
		}
		if d := sum / n; d > 8 {
			t.Errorf("%s: rendered tile differs from the texture by %.1f", p, d)
		}
	}
}

func absf(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func TestIIIF(t *testing.T) {
	_, tif := fixtures(t)
	s := newService(t, Options{MaxSize: 2048})
	src := acquire(t, s, tif)
	ctx := context.Background()
	info := string(s.InfoJSON(src, "https://x/iiif/1"))
	for _, want := range []string{`"profile":"level1"`, `"width":1500`, `"scaleFactors":[1,2,4,8]`, `"id":"https://x/iiif/1"`, `"type":"ImageService3"`, `"maxWidth":2048`} {
		if !strings.Contains(info, want) {
			t.Errorf("info.json lacks %s: %s", want, info)
		}
	}
	// Grid requests are Deep Zoom tiles.
	for _, c := range []struct {
		region, size string
		L, col, row  int
	}{
		{"0,0,256,256", "256,256", 11, 0, 0},
		{"1280,1024,220,76", "220,76", 11, 5, 4},
		{"512,0,512,512", "256,", 10, 1, 0},
		{"1024,1024,476,76", "119,19", 9, 1, 1},
	} {
		b, ct, tag, err := s.IIIF(ctx, src, c.region, c.size, "0", "default", "jpg")
		if err != nil {
			t.Fatalf("%s/%s: %v", c.region, c.size, err)
		}
		dz, dtag, _ := s.Tile(ctx, src, c.L, c.col, c.row)
		if !bytes.Equal(b, dz) || tag != dtag || ct != "image/jpeg" {
			t.Errorf("%s/%s is not DZ tile %d/%d_%d", c.region, c.size, c.L, c.col, c.row)
		}
	}
	for _, c := range []struct {
		region, size, rot, q, f string
		w, h                    int
	}{
		{"full", "max", "0", "default", "jpg", 1500, 1100},
		{"full", "!300,300", "0", "default", "jpg", 300, 220},
		{"square", "100,", "90", "gray", "png", 100, 100},
		{"pct:10,10,50,50", "pct:50", "!0", "color", "jpg", 375, 275},
		{"100,200,300,150", "^600,", "270", "default", "jpg", 300, 600},
		{"1400,1000,500,500", "max", "180", "default", "png", 100, 100},
	} {
		b, ct, _, err := s.IIIF(ctx, src, c.region, c.size, c.rot, c.q, c.f)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		var img image.Image
		if c.f == "png" {
			img, err = png.Decode(bytes.NewReader(b))
		} else {
			img, err = jpeg.Decode(bytes.NewReader(b))
		}
		if err != nil || img.Bounds().Dx() != c.w || img.Bounds().Dy() != c.h || ct != "image/"+map[string]string{"jpg": "jpeg", "png": "png"}[c.f] {
			t.Errorf("%+v: %v %v %s", c, err, img.Bounds(), ct)
		}
	}
}

func TestParseIIIF(t *testing.T) {
	const W, H, M = 1000, 800, 4096
	valid := []struct {
		region, size, rot, q, f string
		want                    iiifRequest
	}{
		{"full", "max", "0", "default", "jpg", iiifRequest{0, 0, 1000, 800, 1000, 800, 0, false, false, "jpg"}},
		{"square", "max", "0", "default", "jpg", iiifRequest{100, 0, 800, 800, 800, 800, 0, false, false, "jpg"}},
		{"10,20,30,40", "15,", "90", "color", "png", iiifRequest{10, 20, 30, 40, 15, 20, 90, false, false, "png"}},
		{"900,700,500,500", ",50", "!180", "gray", "jpg", iiifRequest{900, 700, 100, 100, 50, 50, 180, true, true, "jpg"}},
		{"pct:50,50,50,50", "pct:10", "0", "default", "jpg", iiifRequest{500, 400, 500, 400, 50, 40, 0, false, false, "jpg"}},
		{"full", "!100,100", "0", "default", "jpg", iiifRequest{0, 0, 1000, 800, 100, 80, 0, false, false, "jpg"}},
		{"full", "100,50", "0", "default", "jpg", iiifRequest{0, 0, 1000, 800, 100, 50, 0, false, false, "jpg"}},
		{"0,0,10,10", "^20,20", "0", "default", "jpg", iiifRequest{0, 0, 10, 10, 20, 20, 0, false, false, "jpg"}},
		{"0,0,10,10", "^max", "0", "default", "jpg", iiifRequest{0, 0, 10, 10, 4096, 4096, 0, false, false, "jpg"}},
	}
	for _, c := range valid {
		got, err := parseIIIF(c.region, c.size, c.rot, c.q, c.f, W, H, M)
		if err != nil || got != c.want {
			t.Errorf("%s/%s/%s/%s.%s = %+v, %v; want %+v", c.region, c.size, c.rot, c.q, c.f, got, err, c.want)
		}
	}
	invalid := [][5]string{
		{"", "max", "0", "default", "jpg"},
		{"1,2,3", "max", "0", "default", "jpg"},
		{"0,0,0,10", "max", "0", "default", "jpg"},
		{"1000,0,10,10", "max", "0", "default", "jpg"},
		{"-1,0,10,10", "max", "0", "default", "jpg"},
		{"1.5,0,10,10", "max", "0", "default", "jpg"},
		{"pct:x,0,1,1", "max", "0", "default", "jpg"},
		{"full", "2000,", "0", "default", "jpg"},
		{"full", "^5000,", "0", "default", "jpg"},
		{"full", "0,", "0", "default", "jpg"},
		{"full", ",", "0", "default", "jpg"},
		{"full", "!100,", "0", "default", "jpg"},
		{"full", "pct:0", "0", "default", "jpg"},
		{"full", "pct:200", "0", "default", "jpg"},
		{"full", "full", "0", "default", "jpg"},
		{"full", "max", "45", "default", "jpg"},
		{"full", "max", "0", "bitonal", "jpg"},
		{"full", "max", "0", "default", "webp"},
		{"full", "max", "0", "default", "gif"},
	}
	for _, c := range invalid {
		if _, err := parseIIIF(c[0], c[1], c[2], c[3], c[4], W, H, M); !errors.Is(err, ErrBadRequest) {
			t.Errorf("%v: err = %v, want bad request", c, err)
		}
	}
}

func TestThumbnailAndAssociated(t *testing.T) {
	svs, _ := fixtures(t)
	s := newService(t, Options{})
	src := acquire(t, s, svs)
	ctx := context.Background()
	b, _, err := s.Thumbnail(ctx, src, 200)
	if err != nil {
		t.Fatal(err)
	}
	if sz := decode(t, b).Bounds().Size(); sz != image.Pt(200, 150) {
		t.Errorf("thumbnail %v", sz)
	}
	b, _, err = s.Associated(ctx, src, "label", 100)
	if err != nil {
		t.Fatal(err)
	}
	if sz := decode(t, b).Bounds().Size(); sz != image.Pt(100, 95) {
		t.Errorf("label %v", sz)
	}
	if _, _, err := s.Associated(ctx, src, "nope", 100); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing associated: %v", err)
	}
}

func TestPool(t *testing.T) {
	svs, tif := fixtures(t)
	s := newService(t, Options{MaxOpenSlides: 1})
	a, relA, err := s.Acquire(svs)
	if err != nil {
		t.Fatal(err)
	}
	a2, relA2, _ := s.Acquire(svs)
	if a != a2 {
		t.Error("same path opened twice")
	}
	b, relB, err := s.Acquire(tif) // evicts a, still in use
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Slide.RawTile(0, 0, 0); err != nil {
		t.Errorf("evicted slide closed while in use: %v", err)
	}
	relA()
	relA2()
	if _, _, err := a.Slide.RawTile(0, 0, 0); err == nil {
		t.Error("evicted slide still open after release")
	}
	if a.ID == b.ID {
		t.Error("two files share an ID")
	}
	relB()
	if _, _, err := s.Acquire(filepath.Join(t.TempDir(), "missing.svs")); err == nil {
		t.Error("missing file opened")
	}
	var _ slide.Slide = b.Slide
}

func TestDICOMSource(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "series")
	if err := slidegen.WriteDICOM(dir, slidegen.DICOMOptions{Options: slidegen.Options{Width: 1100, Height: 700}}); err != nil {
		t.Fatal(err)
	}
	s := newService(t, Options{})
	src := acquire(t, s, dir)
	ctx := context.Background()
	raw, ok, err := src.Slide.RawTile(0, 1, 1)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	b, _, err := s.Tile(ctx, src, src.MaxLevel(), 1, 1)
	if err != nil || !bytes.Equal(b, raw) {
		t.Errorf("DICOM tile not passed through: %v", err)
	}
	for L := 0; L <= src.MaxLevel(); L++ {
		w, h, cols, rows := src.LevelGrid(L)
		b, _, err := s.Tile(ctx, src, L, cols-1, rows-1)
		if err != nil {
			t.Fatal(err)
		}
		if sz := decode(t, b).Bounds().Size(); sz.X != w-(cols-1)*256 || sz.Y != h-(rows-1)*256 {
			t.Errorf("level %d edge tile %v", L, sz)
		}
	}
}

func TestDiskCacheService(t *testing.T) {
	_, tif := fixtures(t)
	dir := t.TempDir()
	ctx := context.Background()
	s1 := newService(t, Options{MemoryCacheBytes: -1, DiskCacheDir: dir, DiskCacheBytes: 1 << 20})
	src := acquire(t, s1, tif)
	L := src.MaxLevel() - 4 // below the stored pyramid: rendered
	a, tagA, err := s1.Tile(ctx, src, L, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	s2 := newService(t, Options{MemoryCacheBytes: -1, DiskCacheDir: dir, DiskCacheBytes: 1 << 20})
	src2 := acquire(t, s2, tif)
	if _, ok := s2.disk.get(src2.ID + "/dz/" + itoa(L) + "/0_0"); !ok {
		t.Fatal("rendered tile not found on disk by a new service")
	}
	b, tagB, err := s2.Tile(ctx, src2, L, 0, 0)
	if err != nil || !bytes.Equal(a, b) || tagA != tagB {
		t.Errorf("disk-cached tile differs: %v", err)
	}
}

func itoa(v int) string { return strconv.Itoa(v) }

func TestConcurrentTiles(t *testing.T) {
	svs, _ := fixtures(t)
	s := newService(t, Options{MemoryCacheBytes: 1 << 20})
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src, release, err := s.Acquire(svs)
			if err != nil {
				errs <- err
				return
			}
			defer release()
			for L := src.MaxLevel(); L >= src.MaxLevel()-3; L-- {
				_, _, cols, rows := src.LevelGrid(L)
				for i := range cols * rows {
					j := (i + g) % (cols * rows)
					if _, _, err := s.Tile(ctx, src, L, j%cols, j/cols); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
