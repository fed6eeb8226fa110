package slideserver

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"

	"telepath/internal/files"
	"telepath/internal/platform/apperr"
)

// StampImage draws a share's watermark text into an image file (an
// attachment: a gross photo, a screenshot) the way tiles are stamped, and
// returns the new file and its format: a JPEG stays JPEG, any other
// readable image (PNG, GIF's first frame, WebP, BMP) becomes PNG. The image
// is refused before any pixel is decoded when its header names more than
// files.MaxPixels (apperr TooLarge), and when it cannot be read (Invalid).
// b is not changed. One image is stamped at a time: a large one takes
// hundreds of megabytes while it is drawn.
func (s *Server) StampImage(b []byte, text string) ([]byte, string, error) {
	s.imageMu.Lock()
	defer s.imageMu.Unlock()
	_, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, "", apperr.New(apperr.Invalid, "gallery.not_image")
	}
	img, err := files.DecodeImage(b)
	if err != nil {
		return nil, "", err
	}
	bd := img.Bounds()
	out := blend(img, s.marks.overlay(text, markPeriod(min(bd.Dx(), bd.Dy()))))
	var buf bytes.Buffer
	if format == "jpeg" {
		err = jpeg.Encode(&buf, out, &jpeg.Options{Quality: 90})
	} else {
		format = "png"
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, out)
	}
	if err != nil {
		return nil, "", apperr.Wrap(err, "encode stamped image")
	}
	return buf.Bytes(), format, nil
}

// markPeriod is the overlay's size for an image whose short side is side:
// about a third of it, in three steps so that few overlays are drawn.
func markPeriod(side int) int {
	switch {
	case side >= 3072:
		return 1024
	case side >= 1536:
		return 512
	}
	return 256
}
