package slideserver

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"testing"
)

// tissue is a pale pink 256×256 JPEG, as most tiles of a slide are.
func tissue(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(230 - (x*y)%40), uint8(190 + x%30), 210, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const testMark = "Telepath 远程病理 · Shared by 王医生 on 2026-11-27"

// A stamped tile keeps its size, changes where the text is and is marked
// in its ETag; the overlay is drawn once per text and size.
func TestStamp(t *testing.T) {
	var c markCache
	src := tissue(t, 256, 200) // an edge tile
	out, tag, err := c.stamp(src, `"t1"`, testMark, 256)
	if err != nil {
		t.Fatal(err)
	}
	if tag == `"t1"` || tag[len(tag)-1] != '"' {
		t.Errorf("tag %s", tag)
	}
	a, _ := jpeg.Decode(bytes.NewReader(src))
	b, err := jpeg.Decode(bytes.NewReader(out))
	if err != nil || b.Bounds() != a.Bounds() {
		t.Fatalf("stamped: %v %v", err, b.Bounds())
	}
	changed := 0
	for y := range 200 {
		for x := range 256 {
			r1, _, _, _ := a.At(x, y).RGBA()
			r2, _, _, _ := b.At(x, y).RGBA()
			if d := int(r1>>8) - int(r2>>8); d > 20 || d < -20 {
				changed++
			}
		}
	}
	if changed < 300 || changed > 256*200/3 {
		t.Errorf("%d pixels changed: no text, or more than text", changed)
	}
	if c.overlay(testMark, 256) != c.overlay(testMark, 256) || len(c.m) != 1 {
		t.Error("overlay drawn again")
	}
	if p := os.Getenv("TELEPATH_STAMP_OUT"); p != "" {
		os.WriteFile(p, out, 0o644) //nolint:errcheck // a picture to look at
	}
}

// A share grant opens tiles, the descriptor and the thumbnail; the label
// only when the share is not de-identified; never the macro, the original
// or IIIF.
func TestSharedPart(t *testing.T) {
	base := "/api/slides/1/g/3.s7.x/"
	for path, want := range map[string][2]bool{
		base + "slide.dzi":                            {true, true},
		base + "slide_files/12/3_4.jpeg":              {true, true},
		base + "thumbnail.jpg":                        {true, true},
		base + "label.jpg":                            {false, true},
		base + "macro.jpg":                            {false, false},
		base + "download":                             {false, false},
		"/api/iiif/1/g/3.s7.x/info.json":              {false, false},
		"/api/iiif/1/g/3.s7.x/full/max/0/default.jpg": {false, false},
	} {
		for i, label := range []bool{false, true} {
			if got := sharedPart(path, label); got != want[i] {
				t.Errorf("%s (label %v): %v", path, label, got)
			}
		}
	}
}

// BenchmarkStamp is the cost a share's visitor adds to a 256-px tile:
// decode, draw the cached overlay, encode.
func BenchmarkStamp(b *testing.B) {
	var c markCache
	src := tissue(b, 256, 256)
	c.overlay(testMark, 256)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := c.draw(src, `"t"`, testMark, 256); err != nil {
			b.Fatal(err)
		}
	}
}
