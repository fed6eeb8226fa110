package slidegen

import (
	"image"
	"image/color"
)

// labelImage draws a label: white with a black barcode-like pattern.
func labelImage(r image.Rectangle) *image.RGBA {
	img := image.NewRGBA(r)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.RGBA{255, 255, 255, 255}
			if y > 60 && y < 200 && x > 40 && x < 360 && hash(7, x/6, 0, 0)%3 == 0 {
				c = color.RGBA{0, 0, 0, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// macroImage draws the whole glass slide: label area on the left and the
// tissue downsampled on the right.
func macroImage(t Texture, r image.Rectangle) *image.RGBA {
	img := image.NewRGBA(r)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.RGBA{230, 230, 235, 255}
			if x < 380 {
				c = color.RGBA{250, 250, 250, 255}
			} else {
				c = t.LevelAt(x-380, y, 8)
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}
