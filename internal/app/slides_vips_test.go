package app_test

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"telepath/internal/platform/db"
	"telepath/internal/slide/slidegen"
)

// meanAbsDiff is the mean absolute difference of the RGB channels (0–255)
// of two images of the same size.
func meanAbsDiff(t *testing.T, a, b image.Image) float64 {
	t.Helper()
	if a.Bounds().Size() != b.Bounds().Size() {
		t.Fatalf("sizes differ: %v and %v", a.Bounds().Size(), b.Bounds().Size())
	}
	ab, bb := a.Bounds(), b.Bounds()
	var sum, n float64
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, _ := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			for _, d := range [3][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}} {
				v := float64(d[0]>>8) - float64(d[1]>>8)
				if v < 0 {
					v = -v
				}
				sum += v
			}
			n += 3
		}
	}
	return sum / n
}

func vips(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("vips", args...).CombinedOutput(); err != nil {
		t.Fatalf("vips %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestTilesMatchLibvips decodes Deep Zoom tiles we serve and the same
// regions decoded by libvips (which reads SVS through OpenSlide): a tile
// sent as stored, a cropped edge tile, and tiles we render (another tile
// grid, a level the file lacks). The mean absolute differences are logged.
func TestTilesMatchLibvips(t *testing.T) {
	if _, err := exec.LookPath("vips"); err != nil {
		t.Skip("vips (Debian libvips-tools) is not installed")
	}
	t.Parallel()
	dir := t.TempDir()
	const W, H = 2600, 1900

	// A pyramid written by libvips from a generated slide, and an SVS.
	src := filepath.Join(dir, "src.tif")
	if err := slidegen.WriteTIFF(src, slidegen.Options{Width: W, Height: H, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	pyramid := filepath.Join(dir, "vips.tif")
	vips(t, "tiffsave", src, pyramid, "--tile", "--pyramid", "--compression", "jpeg", "--tile-width", "256", "--tile-height", "256", "--Q", "90")
	svs := filepath.Join(dir, "s.svs")
	if err := slidegen.WriteSVS(svs, slidegen.Options{Width: W, Height: H, Seed: 12}); err != nil {
		t.Fatal(err)
	}

	e := newEnv(t, db.SQLite, nil)
	site := e.login("site")
	tiles := func(path string) (files string, maxLevel, size int) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		id := e.uploadAll(site, filepath.Base(path), data)
		if sl := e.waitSlide(site, id); sl.Viewable != 1 {
			t.Fatalf("%s not viewable: %+v", path, sl)
		}
		var v struct{ Data viewerOut }
		e.decode(e.expect(e.do("GET", "/api/slides/"+strconv.FormatInt(id, 10)+"/viewer", site, nil), 200), &v)
		return strings.TrimSuffix(v.Data.DZIURL, ".dzi") + "_files/", v.Data.MaxLevel, v.Data.TileSize
	}
	n := 0
	reference := func(file string, shrink, x, y, w, h int) image.Image {
		n++
		in := file
		if shrink > 1 {
			in = filepath.Join(dir, fmt.Sprintf("shrunk%d.v", n))
			vips(t, "shrink", file, in, strconv.Itoa(shrink), strconv.Itoa(shrink))
		}
		out := filepath.Join(dir, fmt.Sprintf("ref%d.png", n))
		vips(t, "crop", in, out, strconv.Itoa(x), strconv.Itoa(y), strconv.Itoa(w), strconv.Itoa(h))
		f, err := os.Open(out)
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
	ours := func(url string) image.Image {
		r := e.expect(e.do("GET", url, "", nil), 200)
		img, err := jpeg.Decode(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		return img
	}

	vf, vmax, vt := tiles(pyramid)
	sf, smax, st := tiles(svs)
	if vt != 256 || st != 240 {
		t.Fatalf("Deep Zoom tile sizes %d, %d: want the stored 256 and 240", vt, st)
	}
	// SVS level 0 is 11×8 tiles of 240; its half-size level 1300×950 is 6×4.
	for _, c := range []struct {
		name       string
		url        string
		file       string
		shrink     int
		x, y, w, h int
		max        float64
	}{
		// libvips pyramid, full resolution: the stored JPEG tile itself.
		{"stored tile", vf + strconv.Itoa(vmax) + "/3_2.jpeg", pyramid, 1, 768, 512, 256, 256, 2},
		// The last column and row: the stored tile cropped to the image.
		{"edge tile", vf + strconv.Itoa(vmax) + "/10_7.jpeg", pyramid, 1, 2560, 1792, W - 2560, H - 1792, 3},
		// A stored level 1 (half size) tile.
		{"stored level 1", vf + strconv.Itoa(vmax-1) + "/2_1.jpeg", pyramid, 2, 512, 256, 256, 256, 6},
		// SVS (read by libvips through OpenSlide): a stored 240-pixel tile and the edge.
		{"SVS stored tile", sf + strconv.Itoa(smax) + "/4_3.jpeg", svs, 1, 960, 720, 240, 240, 2},
		// Cropped and re-encoded: the SVS's RGB (not subsampled) JPEG becomes 4:2:0
		// YCbCr, which costs about 3.5 on this high-frequency texture.
		{"SVS edge tile", sf + strconv.Itoa(smax) + "/10_7.jpeg", svs, 1, 2400, 1680, W - 2400, H - 1680, 5},
		// SVS has levels 1, 4, 16…: the half-size level is rendered from level 0.
		{"SVS rendered level", sf + strconv.Itoa(smax-1) + "/2_1.jpeg", svs, 2, 480, 240, 240, 240, 6},
		{"SVS rendered edge", sf + strconv.Itoa(smax-1) + "/5_3.jpeg", svs, 2, 1200, 720, W/2 - 1200, H/2 - 720, 6},
	} {
		d := meanAbsDiff(t, ours(c.url), reference(c.file, c.shrink, c.x, c.y, c.w, c.h))
		t.Logf("%-20s mean abs diff %.3f (limit %.0f)", c.name, d, c.max)
		if d > c.max {
			t.Errorf("%s: mean absolute difference %.2f > %.0f", c.name, d, c.max)
		}
	}
}
