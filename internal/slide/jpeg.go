package slide

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
)

// adobeRGB is an Adobe APP14 segment with transform 0: it tells decoders
// (browsers and image/jpeg alike) that the three components are R, G, B and
// must not be converted from YCbCr.
var adobeRGB = []byte{0xFF, 0xEE, 0x00, 0x0E, 'A', 'd', 'o', 'b', 'e', 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00}

// jpegPrefix builds the bytes that replace a stored tile's SOI marker: SOI,
// the optional Adobe marker and the shared tables without their SOI/EOI.
func jpegPrefix(tables []byte, rgb bool) []byte {
	p := []byte{0xFF, 0xD8}
	if rgb {
		p = append(p, adobeRGB...)
	}
	if len(tables) >= 4 && tables[0] == 0xFF && tables[1] == 0xD8 {
		body := tables[2:]
		if n := len(body); n >= 2 && body[n-2] == 0xFF && body[n-1] == 0xD9 {
			body = body[:n-2]
		}
		p = append(p, body...)
	}
	return p
}

// decodeJPEG decodes a complete JPEG stream after checking that its frame
// is no larger than maxW×maxH, so a hostile header cannot force a huge
// allocation.
func decodeJPEG(b []byte, maxW, maxH int) (image.Image, error) {
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("jpeg header: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxW || cfg.Height > maxH {
		return nil, fmt.Errorf("jpeg frame %dx%d exceeds %dx%d", cfg.Width, cfg.Height, maxW, maxH)
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("jpeg: %w", err)
	}
	return img, nil
}
