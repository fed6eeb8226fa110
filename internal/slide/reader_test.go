package slide_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"telepath/internal/slide"
	"telepath/internal/slide/slidegen"
)

type variant struct {
	name   string
	svs    bool
	opts   slidegen.Options
	format string // Format()
	detect string // Detect()
	tol    float64
}

var variants = []variant{
	{name: "jpeg.tif", opts: slidegen.Options{Width: 1500, Height: 1100}, format: "tiff", detect: "tiff", tol: 6},
	{name: "bigtiff-be.tif", opts: slidegen.Options{Width: 1300, Height: 1000, BigTIFF: true, BigEndian: true}, format: "tiff", detect: "bigtiff", tol: 6},
	{name: "lzw.tif", opts: slidegen.Options{Width: 900, Height: 700, Compression: "lzw", Predictor: true}, format: "tiff", detect: "tiff", tol: 0.01},
	{name: "deflate-subifd.tif", opts: slidegen.Options{Width: 900, Height: 700, Compression: "deflate", SubIFDs: true}, format: "tiff", detect: "tiff", tol: 0.01},
	{name: "striped.tif", opts: slidegen.Options{Width: 1000, Height: 700, Striped: true}, format: "tiff", detect: "tiff", tol: 6},
	{name: "none-be.tif", opts: slidegen.Options{Width: 600, Height: 500, Compression: "none", BigEndian: true, MinLevelSize: 128}, format: "tiff", detect: "tiff", tol: 0.01},
	{name: "aperio.svs", svs: true, opts: slidegen.Options{Width: 2000, Height: 1500, MinLevelSize: 200}, format: "svs", detect: "svs", tol: 10},
}

func writeVariant(t testing.TB, dir string, v variant) string {
	t.Helper()
	p := filepath.Join(dir, v.name)
	var err error
	if v.svs {
		err = slidegen.WriteSVS(p, v.opts)
	} else {
		err = slidegen.WriteTIFF(p, v.opts)
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// meanDiff compares img with the texture at downsample ds over img's bounds
// placed at (x0,y0) of the level.
func meanDiff(img image.Image, x0, y0, ds int, tex slidegen.Texture, w, h int) float64 {
	b := img.Bounds()
	var sum, n float64
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			if x0+x >= w || y0+y >= h {
				continue
			}
			r, g, bb, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			c := tex.LevelAt(x0+x, y0+y, ds)
			sum += abs(float64(r>>8)-float64(c.R)) + abs(float64(g>>8)-float64(c.G)) + abs(float64(bb>>8)-float64(c.B))
			n += 3
		}
	}
	return sum / n
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func TestReadGenerated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			p := writeVariant(t, dir, v)
			f, ok, err := slide.Detect(p)
			if err != nil || !ok || f != v.detect {
				t.Fatalf("Detect = %q %v %v, want %q", f, ok, err, v.detect)
			}
			s, err := slide.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Format() != v.format {
				t.Errorf("Format = %q", s.Format())
			}
			levels := s.Levels()
			if len(levels) < 2 {
				t.Fatalf("levels = %+v", levels)
			}
			if levels[0].Width != v.opts.Width || levels[0].Height != v.opts.Height {
				t.Errorf("level 0 = %+v", levels[0])
			}
			props := s.Properties()
			if props.MPPX < 0.2499 || props.MPPX > 0.2501 {
				t.Errorf("MPPX = %v", props.MPPX)
			}
			tex := slidegen.Texture{Seed: v.opts.Seed}
			for i, l := range levels {
				ds := int(l.Downsample + 0.5)
				w, h := min(l.Width, 300), min(l.Height, 300)
				x, y := l.Width-w, l.Height-h
				img, err := s.ReadRegion(context.Background(), i, x, y, w, h)
				if err != nil {
					t.Fatalf("level %d: %v", i, err)
				}
				d := meanDiff(img, x, y, ds, tex, l.Width, l.Height)
				t.Logf("level %d %dx%d tiled=%v diff %.2f", i, l.Width, l.Height, l.Tiled, d)
				if d > v.tol {
					t.Errorf("level %d (%+v): mean difference %.2f > %.2f", i, l, d, v.tol)
				}
				if l.Tiled {
					raw, ok, err := s.RawTile(i, 0, 0)
					if err != nil {
						t.Fatal(err)
					}
					if ok != (v.opts.Compression == "" || v.opts.Compression == "jpeg") {
						t.Errorf("RawTile ok = %v", ok)
					}
					if ok {
						img, err := jpeg.Decode(bytes.NewReader(raw))
						if err != nil {
							t.Fatalf("raw tile does not decode: %v", err)
						}
						if d := meanDiff(img, 0, 0, ds, tex, l.Width, l.Height); d > v.tol {
							t.Errorf("level %d raw tile: mean difference %.2f", i, d)
						}
					}
				}
			}
			if v.svs {
				if props.Objective != 40 || props.ScanDate.IsZero() || props.Vendor != "aperio" {
					t.Errorf("properties = %+v", props)
				}
				names := s.AssociatedImages()
				if len(names) != 3 {
					t.Errorf("associated = %v", names)
				}
				for _, n := range names {
					img, err := s.AssociatedImage(context.Background(), n)
					if err != nil || img.Bounds().Dx() == 0 {
						t.Errorf("%s: %v", n, err)
					}
				}
				lbl, _ := s.AssociatedImage(context.Background(), "label")
				if r, _, _, _ := lbl.At(0, 0).RGBA(); r>>8 != 255 {
					t.Errorf("label corner is not white")
				}
			}
		})
	}
}

func TestRawTileOutOfRange(t *testing.T) {
	p := writeVariant(t, t.TempDir(), variants[0])
	s, err := slide.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range [][3]int{{-1, 0, 0}, {0, -1, 0}, {0, 100, 0}, {0, 0, 100}, {99, 0, 0}} {
		if _, _, err := s.RawTile(c[0], c[1], c[2]); !errors.Is(err, slide.ErrNotFound) {
			t.Errorf("RawTile%v err = %v", c, err)
		}
	}
	if _, err := s.ReadRegion(context.Background(), 0, 0, 0, 100000, 100000); err == nil {
		t.Error("huge region accepted")
	}
}

func TestDetectUnsupported(t *testing.T) {
	dir := t.TempDir()
	cases := map[string][]byte{
		"a.kfb":  []byte("KFB\x00 some kfb data"),
		"b.sdpc": []byte("SQ whatever"),
		"c.mrxs": []byte("[GENERAL]"),
		"d.bin":  []byte("hello world"),
	}
	want := map[string]string{"a.kfb": "kfb", "b.sdpc": "sdpc", "c.mrxs": "mrxs", "d.bin": "unknown"}
	for name, data := range cases {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		f, ok, err := slide.Detect(p)
		if err != nil || ok || f != want[name] {
			t.Errorf("%s: Detect = %q %v %v", name, f, ok, err)
		}
		_, err = slide.Open(p)
		var ue *slide.UnsupportedError
		if !errors.Is(err, slide.ErrUnsupportedFormat) || !errors.As(err, &ue) || ue.Format != want[name] {
			t.Errorf("%s: Open err = %v", name, err)
		}
	}
}

func TestJPEG2000SVSNotViewable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j2k.svs")
	if err := slidegen.WriteSVS(p, slidegen.Options{Width: 600, Height: 400, MinLevelSize: 400}); err != nil {
		t.Fatal(err)
	}
	// Mark level 0 as Aperio JPEG 2000 (compression 33003).
	b, _ := os.ReadFile(p)
	ifd := binary.LittleEndian.Uint32(b[4:])
	n := int(binary.LittleEndian.Uint16(b[ifd:]))
	for i := range n {
		e := b[int(ifd)+2+12*i:]
		if binary.LittleEndian.Uint16(e) == 259 {
			binary.LittleEndian.PutUint16(e[8:], 33003)
		}
	}
	os.WriteFile(p, b, 0o644)
	f, ok, err := slide.Detect(p)
	if f != "svs" || ok || err != nil {
		t.Errorf("Detect = %s %v %v", f, ok, err)
	}
	_, err = slide.Open(p)
	var ue *slide.UnsupportedError
	if !errors.As(err, &ue) || ue.Format != "svs" || !strings.Contains(ue.Reason, "JPEG 2000") {
		t.Errorf("Open error = %v", err)
	}
}
