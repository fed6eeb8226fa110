package report

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
)

// Labels are drawn on the picture as printed: a red rectangle's edge turns
// the white photo red where it runs, and nowhere else.
func TestPictureDrawsLabels(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 200, 100))
	for i := range src.Pix {
		src.Pix[i] = 255
	}
	var b bytes.Buffer
	jpeg.Encode(&b, src, &jpeg.Options{Quality: 95})
	pic := preparePicture(b.Bytes(), maxPhotoPx, false,
		Label{Tool: "rect", Points: []float64{20, 20, 180, 80}, Stroke: "#FF6261", LineWidth: 6},
		Label{Tool: "font", Points: []float64{30, 30}, Stroke: "#027AFF", Text: "病灶 A", FontSize: 20},
		Label{Tool: "star", Points: []float64{100, 50, 110, 50}, Stroke: "#B352BE", Fill: "#E8C141", LineWidth: 2})
	if !pic.ok {
		t.Fatal("not prepared")
	}
	img, err := jpeg.Decode(bytes.NewReader(pic.data))
	if err != nil {
		t.Fatal(err)
	}
	red := func(c color.Color) bool { r, g, _, _ := c.RGBA(); return r > 0xd000 && g < 0x9000 }
	if !red(img.At(100, 20)) || !red(img.At(20, 50)) {
		t.Errorf("rectangle edge not drawn: %v %v", img.At(100, 20), img.At(20, 50))
	}
	if red(img.At(5, 5)) || red(img.At(190, 95)) {
		t.Error("drawn outside the label")
	}
}
