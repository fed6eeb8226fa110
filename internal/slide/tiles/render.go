package tiles

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"math"

	"golang.org/x/image/draw"
	"golang.org/x/image/math/f64"
)

// cached returns the image stored under key in the memory or disk cache,
// or renders it once (concurrent callers share the render) and stores it.
// The render does not stop when the first caller goes away: others may be
// waiting for it, and the result is cached.
func (s *Service) cached(ctx context.Context, key string, render func(context.Context) ([]byte, error)) ([]byte, error) {
	if s.mem != nil {
		if b, ok := s.mem.get(key); ok {
			return b, nil
		}
	}
	if s.disk != nil {
		if b, ok := s.disk.get(key); ok {
			if s.mem != nil {
				s.mem.put(key, b)
			}
			return b, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.flight.do(key, func() ([]byte, error) {
		b, err := render(context.WithoutCancel(ctx))
		if err != nil {
			return nil, err
		}
		if s.mem != nil {
			s.mem.put(key, b)
		}
		if s.disk != nil {
			s.disk.put(key, b)
		}
		return b, nil
	})
}

func (s *Service) encodeJPEG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(32 << 10)
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: s.opt.Quality}); err != nil {
		return nil, fmt.Errorf("encode jpeg: %w", err)
	}
	return buf.Bytes(), nil
}

// decodeTile decodes a JPEG tile this package produced or passed through.
func decodeTile(b []byte, maxSide int) (image.Image, error) {
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("decode tile: %w", err)
	}
	if cfg.Width > maxSide || cfg.Height > maxSide {
		return nil, fmt.Errorf("decode tile: %dx%d too large", cfg.Width, cfg.Height)
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("decode tile: %w", err)
	}
	return img, nil
}

// whiteRGBA allocates a w×h image filled with opaque white (glass).
func whiteRGBA(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xFF
	}
	return img
}

// resample draws the area of src starting at (u0,v0) (in src's pixel
// coordinates, fractional) with a pixel pitch of (ax,ay) source pixels
// per destination pixel into all of dst. A pitch of exactly 2 on an even
// grid averages 2×2 blocks; a pitch of 1 on the grid copies.
func resample(dst *image.RGBA, src image.Image, u0, v0, ax, ay float64) {
	sr := src.Bounds()
	if ax == 1 && ay == 1 && u0 == math.Trunc(u0) && v0 == math.Trunc(v0) {
		draw.Draw(dst, dst.Bounds(), src, image.Pt(int(u0), int(v0)), draw.Src)
		return
	}
	s2d := f64.Aff3{1 / ax, 0, -u0 / ax, 0, 1 / ay, -v0 / ay}
	draw.ApproxBiLinear.Transform(dst, s2d, src, sr, draw.Src, nil)
}
