package slide_test

import (
	"bytes"
	"context"
	"image/jpeg"
	"path/filepath"
	"testing"

	"telepath/internal/slide"
	"telepath/internal/slide/slidegen"
)

func TestReadDICOM(t *testing.T) {
	t.Parallel()
	for _, sparse := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "series")
		o := slidegen.DICOMOptions{Options: slidegen.Options{Width: 1200, Height: 900, Seed: 2}, Sparse: sparse}
		if err := slidegen.WriteDICOM(dir, o); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{dir, filepath.Join(dir, "level2.dcm")} {
			f, ok, err := slide.Detect(p)
			if f != "dicom" || !ok || err != nil {
				t.Fatalf("Detect(%s) = %s %v %v", p, f, ok, err)
			}
			s, err := slide.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			lv := s.Levels()
			if s.Format() != "dicom" || len(lv) < 2 || lv[0].Width != 1200 || lv[1].Width != 300 || lv[0].TileWidth != 256 {
				t.Fatalf("levels %+v", lv)
			}
			props := s.Properties()
			if props.MPPX < 0.2499 || props.MPPX > 0.2501 || props.Objective != 40 || props.ScanDate.IsZero() {
				t.Errorf("properties %+v", props)
			}
			if names := s.AssociatedImages(); len(names) != 1 || names[0] != "label" {
				t.Errorf("associated %v", names)
			}
			if _, err := s.AssociatedImage(context.Background(), "label"); err != nil {
				t.Error(err)
			}
			tex := slidegen.Texture{Seed: 2}
			for i, l := range lv {
				img, err := s.ReadRegion(context.Background(), i, 0, 0, min(l.Width, 600), min(l.Height, 256))
				if err != nil {
					t.Fatal(err)
				}
				// The first three tiles exist in sparse series too.
				if d := meanDiff(img, 0, 0, int(l.Downsample+0.5), tex, l.Width, l.Height); d > 8 {
					t.Errorf("level %d differs by %.2f", i, d)
				}
			}
			raw, ok, err := s.RawTile(0, 1, 0)
			if err != nil || !ok {
				t.Fatalf("RawTile: %v %v", ok, err)
			}
			if _, err := jpeg.Decode(bytes.NewReader(raw)); err != nil {
				t.Error(err)
			}
			_, ok, err = s.RawTile(0, 3, 0) // tile index 3 is absent in the sparse series
			if err != nil || ok == sparse {
				t.Errorf("tile 3: ok=%v err=%v (sparse %v)", ok, err, sparse)
			}
			s.Close()
		}
	}
}
