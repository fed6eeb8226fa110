package slide_test

import (
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"telepath/internal/slide"
	"telepath/internal/slide/slidegen"
)

// Slides written by libvips and libtiff (Debian libvips-tools,
// libtiff-tools), compared with OpenSlide's reading where available.

func need(t *testing.T, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("%s not installed", c)
		}
	}
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// imgDiff is the mean absolute RGB difference of two same-size images.
func imgDiff(a, b image.Image) float64 {
	ab, bb := a.Bounds(), b.Bounds()
	var sum, n float64
	for y := 0; y < min(ab.Dy(), bb.Dy()); y++ {
		for x := 0; x < min(ab.Dx(), bb.Dx()); x++ {
			r1, g1, b1, _ := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			sum += abs(float64(r1>>8)-float64(r2>>8)) + abs(float64(g1>>8)-float64(g2>>8)) + abs(float64(b1>>8)-float64(b2>>8))
			n += 3
		}
	}
	return sum / n
}

// compareOpenSlide reads the same region with openslide-write-png, if present.
func compareOpenSlide(t *testing.T, s slide.Slide, path string, level, x, y, w, h int) {
	if _, err := exec.LookPath("openslide-write-png"); err != nil {
		return
	}
	ds := s.Levels()[level].Downsample
	out := filepath.Join(t.TempDir(), "os.png")
	run(t, "openslide-write-png", path, itoa(int(float64(x)*ds)), itoa(int(float64(y)*ds)), itoa(level), itoa(w), itoa(h), out)
	want := readPNG(t, out)
	got, err := s.ReadRegion(context.Background(), level, x, y, w, h)
	if err != nil {
		t.Fatal(err)
	}
	if d := imgDiff(got, want); d > 2.5 {
		t.Errorf("level %d region differs from OpenSlide by %.2f", level, d)
	} else {
		t.Logf("level %d: mean difference from OpenSlide %.2f", level, d)
	}
}

func itoa(v int) string { return strconv.Itoa(v) }

func TestLibvipsPyramids(t *testing.T) {
	need(t, "vips")
	t.Parallel()
	dir := t.TempDir()
	tex := slidegen.Texture{Seed: 3}
	src := filepath.Join(dir, "src.png")
	writePNG(t, src, tex.Render(image.Rect(0, 0, 1300, 1000), 1))
	for _, c := range []struct {
		name string
		args []string
	}{
		{"jpeg", []string{"--compression", "jpeg", "--Q", "90"}},
		{"bigtiff", []string{"--compression", "jpeg", "--Q", "90", "--bigtiff"}},
		{"deflate", []string{"--compression", "deflate", "--predictor", "horizontal"}},
		{"lzw-subifd", []string{"--compression", "lzw", "--subifd"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(dir, c.name+".tif")
			args := append([]string{"tiffsave", src, out, "--tile", "--pyramid", "--tile-width", "256", "--tile-height", "256", "--xres", "4000", "--yres", "4000"}, c.args...)
			run(t, "vips", args...)
			s, err := slide.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			lv := s.Levels()
			if len(lv) < 3 || lv[0].Width != 1300 || lv[0].Height != 1000 || lv[0].TileWidth != 256 || !lv[0].Tiled {
				t.Fatalf("levels %+v", lv)
			}
			if p := s.Properties(); p.MPPX < 0.2499 || p.MPPX > 0.2501 {
				t.Errorf("MPP %v", p.MPPX)
			}
			img, err := s.ReadRegion(context.Background(), 0, 1000, 700, 300, 300)
			if err != nil {
				t.Fatal(err)
			}
			if d := meanDiff(img, 1000, 700, 1, tex, 1300, 1000); d > 3 {
				t.Errorf("level 0 differs from the source by %.2f", d)
			}
			if c.name == "jpeg" {
				if _, ok, err := s.RawTile(1, 0, 0); !ok || err != nil {
					t.Errorf("RawTile: %v %v", ok, err)
				}
			}
			for i := range min(len(lv), 3) {
				w, h := min(lv[i].Width, 400), min(lv[i].Height, 300)
				if strings.HasPrefix(c.name, "jpeg") || c.name == "bigtiff" {
					compareOpenSlide(t, s, out, i, 0, 0, w, h)
					continue
				}
				// OpenSlide 3.4 misreads some deflate/LZW edge tiles and
				// ignores SubIFDs: compare with libvips' own decoding.
				ref := out + "[page=" + itoa(i) + "]"
				if strings.Contains(c.name, "subifd") {
					ref = out + "[subifd=" + itoa(i-1) + "]"
				}
				png := filepath.Join(t.TempDir(), "ref.png")
				run(t, "vips", "copy", ref, png)
				got, err := s.ReadRegion(context.Background(), i, 0, 0, lv[i].Width, lv[i].Height)
				if err != nil {
					t.Fatal(err)
				}
				if d := imgDiff(got, readPNG(t, png)); d != 0 {
					t.Errorf("level %d differs from libvips by %.2f", i, d)
				}
			}
		})
	}
}

func TestTiffcpAperio(t *testing.T) {
	need(t, "vips", "tiffcp", "tiffset")
	t.Parallel()
	dir := t.TempDir()
	tex := slidegen.Texture{Seed: 5}
	l0, l1 := filepath.Join(dir, "l0.png"), filepath.Join(dir, "l1.png")
	writePNG(t, l0, tex.Render(image.Rect(0, 0, 1920, 1440), 1))
	run(t, "vips", "resize", l0, l1, "0.25")
	var tifs []string
	for _, p := range []string{l0, l1} {
		out := strings.TrimSuffix(p, ".png") + ".tif"
		run(t, "vips", "tiffsave", p, out, "--tile", "--tile-width", "240", "--tile-height", "240")
		tifs = append(tifs, out)
	}
	svs := filepath.Join(dir, "x.svs")
	run(t, "tiffcp", append(append([]string{"-c", "jpeg:r", "-t", "-w", "240", "-l", "240"}, tifs...), svs)...)
	run(t, "tiffset", "-s", "270", "Aperio Image Library v12.0.15 \r\n1920x1440 (240x240) JPEG/RGB Q=75|AppMag = 40|MPP = 0.25", svs)
	f, ok, err := slide.Detect(svs)
	if f != "svs" || !ok || err != nil {
		t.Fatalf("Detect = %s %v %v", f, ok, err)
	}
	s, err := slide.Open(svs)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lv := s.Levels()
	if len(lv) != 2 || lv[1].Width != 480 || lv[0].TileWidth != 240 {
		t.Fatalf("levels %+v", lv)
	}
	p := s.Properties()
	if p.MPPX != 0.25 || p.Objective != 40 || p.Vendor != "aperio" {
		t.Errorf("properties %+v", p)
	}
	// RGB-photometric tiles: the spliced Adobe marker makes them decode right.
	img, err := s.ReadRegion(context.Background(), 0, 0, 0, 480, 480)
	if err != nil {
		t.Fatal(err)
	}
	if d := meanDiff(img, 0, 0, 1, tex, 1920, 1440); d > 4 {
		t.Errorf("level 0 differs from the source by %.2f", d)
	}
	if _, err := exec.LookPath("openslide-show-properties"); err == nil {
		props := run(t, "openslide-show-properties", svs)
		if !strings.Contains(props, "openslide.vendor: 'aperio'") || !strings.Contains(props, "openslide.mpp-x: '0.25'") {
			t.Errorf("OpenSlide sees: %s", props)
		}
	}
	compareOpenSlide(t, s, svs, 0, 200, 200, 300, 300)
	compareOpenSlide(t, s, svs, 1, 0, 0, 480, 360)
}

func TestOrthancDICOM(t *testing.T) {
	need(t, "OrthancWSIDicomizer")
	t.Parallel()
	dir := t.TempDir()
	tif := filepath.Join(dir, "in.tif")
	if err := slidegen.WriteTIFF(tif, slidegen.Options{Width: 1500, Height: 1100, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "dcm")
	os.Mkdir(out, 0o755)
	run(t, "OrthancWSIDicomizer", tif, "--folder", out, "--threads", "1")
	d, err := slide.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, err := slide.Open(tif)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dl, sl := d.Levels(), s.Levels()
	if len(dl) != len(sl) || dl[0].Width != 1500 || dl[0].Height != 1100 {
		t.Fatalf("DICOM levels %+v, TIFF levels %+v", dl, sl)
	}
	for i := range dl {
		w, h := min(dl[i].Width, 500), min(dl[i].Height, 400)
		a, err := d.ReadRegion(context.Background(), i, 0, 0, w, h)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := s.ReadRegion(context.Background(), i, 0, 0, w, h)
		if diff := imgDiff(a, b); diff > 1 {
			t.Errorf("level %d: DICOM and TIFF differ by %.2f", i, diff)
		}
	}
	if _, ok, err := d.RawTile(0, 0, 0); !ok || err != nil {
		t.Errorf("RawTile: %v %v", ok, err)
	}
}
