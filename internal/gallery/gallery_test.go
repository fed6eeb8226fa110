package gallery

import (
	"image"
	"image/color"
	"testing"
)

func TestRotate(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 4, 2))
	src.SetRGBA(0, 0, color.RGBA{R: 255, A: 255}) // top left red
	for deg, want := range map[int]struct {
		w, h, x, y int
	}{0: {4, 2, 0, 0}, 90: {2, 4, 1, 0}, 180: {4, 2, 3, 1}, 270: {2, 4, 0, 3}, -90: {2, 4, 0, 3}, 450: {2, 4, 1, 0}} {
		out := rotate(src, deg)
		if out.Bounds().Dx() != want.w || out.Bounds().Dy() != want.h || out.RGBAAt(want.x, want.y).R != 255 {
			t.Errorf("%d°: %v, red at (%d,%d) is %v", deg, out.Bounds(), want.x, want.y, out.RGBAAt(want.x, want.y))
		}
	}
	if b := rotate(image.NewRGBA(image.Rect(0, 0, 100, 50)), 45).Bounds(); b.Dx() != 107 || b.Dy() != 107 {
		t.Errorf("45°: %v", b)
	}
}

func TestCheckLabels(t *testing.T) {
	ok := ImageLabel{ID: 2, Tool: ToolCurve, Points: []float64{0, 0, 10, 10, 20, 5}, StrokeStyle: "#027aff", FillStyle: "", LineWidth: 2, FontSize: 14}
	if err := checkLabels([]ImageLabel{ok}, 20, 10); err != nil {
		t.Fatal(err)
	}
	dup := ok
	text := ok
	text.ID, text.Tool, text.Points = 3, ToolFont, []float64{1, 1}
	for name, ls := range map[string][]ImageLabel{
		"duplicate id": {ok, dup},
		"empty text":   {text},
		"nan":          {{ID: 2, Tool: ToolLine, Points: []float64{0, 0, 1, nan()}, StrokeStyle: StrokeDefault, LineWidth: 2, FontSize: 14}},
		"fill":         {{ID: 2, Tool: ToolRect, Points: []float64{0, 0, 1, 1}, StrokeStyle: StrokeDefault, FillStyle: "#123456", LineWidth: 2, FontSize: 14}},
	} {
		if checkLabels(ls, 20, 10) == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

func nan() float64 { z := 0.0; return z / z }
