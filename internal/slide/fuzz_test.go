package slide_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"telepath/internal/slide"
	"telepath/internal/slide/slidegen"
)

// FuzzOpenTIFF opens mutated TIFF/SVS files and reads from every level and
// associated image: any input must give an error or a result, never a
// panic, hang or huge allocation.
func FuzzOpenTIFF(f *testing.F) {
	dir := f.TempDir()
	small := []struct {
		name string
		svs  bool
		o    slidegen.Options
	}{
		{"a.tif", false, slidegen.Options{Width: 200, Height: 150, TileSize: 64, Quality: 30, MinLevelSize: 64}},
		{"b.tif", false, slidegen.Options{Width: 200, Height: 100, TileSize: 64, Compression: "lzw", Predictor: true, BigTIFF: true, MinLevelSize: 64}},
		{"c.tif", false, slidegen.Options{Width: 150, Height: 100, TileSize: 64, Compression: "deflate", BigEndian: true, SubIFDs: true, MinLevelSize: 64}},
		{"d.tif", false, slidegen.Options{Width: 160, Height: 90, Striped: true, Compression: "none", MinLevelSize: 64}},
		{"e.svs", true, slidegen.Options{Width: 400, Height: 200, TileSize: 64, Quality: 20, MinLevelSize: 64}},
	}
	for _, s := range small {
		p := filepath.Join(dir, s.name)
		var err error
		if s.svs {
			err = slidegen.WriteSVS(p, s.o)
		} else {
			err = slidegen.WriteTIFF(p, s.o)
		}
		if err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Files that claim far more pixels than they hold (issue 18).
	for i, h := range []slidegen.Hostile{slidegen.TileBomb, slidegen.DeflateBomb, slidegen.PyramidGap, slidegen.WideTiles} {
		p := filepath.Join(dir, fmt.Sprintf("hostile-%d.tif", i))
		if err := slidegen.WriteHostile(p, h); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Real tiles are at most a few megapixels; a lower cap keeps each
	// execution fast without hiding parser bugs.
	defer slide.SetMaxChunkPixels(1 << 20)()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := slide.OpenTIFF(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		defer s.Close()
		ctx := slide.WithBudget(context.Background(), 1<<24)
		for i, l := range s.Levels() {
			s.RawTile(i, 0, 0)
			s.RawTile(i, l.Width/max(1, l.TileWidth), l.Height/max(1, l.TileHeight))
			s.ReadRegion(ctx, i, 0, 0, min(l.Width, 200), min(l.Height, 200))
			s.ReadRegion(ctx, i, l.Width-10, l.Height-10, 20, 20)
		}
		for _, n := range s.AssociatedImages() {
			s.AssociatedImage(ctx, n)
		}
		s.Properties()
	})
}

// FuzzOpenDICOM does the same for single DICOM WSI instances.
func FuzzOpenDICOM(f *testing.F) {
	dir := f.TempDir()
	for i, sparse := range []bool{false, true} {
		d := filepath.Join(dir, string(rune('a'+i)))
		o := slidegen.DICOMOptions{Options: slidegen.Options{Width: 200, Height: 130, TileSize: 64, Quality: 20, MinLevelSize: 256}, Sparse: sparse}
		if err := slidegen.WriteDICOM(d, o); err != nil {
			f.Fatal(err)
		}
		for _, name := range []string{"level1.dcm", "label.dcm"} {
			b, err := os.ReadFile(filepath.Join(d, name))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	defer slide.SetMaxChunkPixels(1 << 20)()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := slide.OpenDICOMReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		defer s.Close()
		ctx := slide.WithBudget(context.Background(), 1<<24)
		for i, l := range s.Levels() {
			s.RawTile(i, 0, 0)
			s.ReadRegion(ctx, i, 0, 0, min(l.Width, 200), min(l.Height, 200))
		}
		for _, n := range s.AssociatedImages() {
			s.AssociatedImage(ctx, n)
		}
	})
}
