package tiles

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"sync"

	"golang.org/x/image/draw"
	"golang.org/x/image/math/f64"

	"telepath/internal/slide"
)

// cached returns the image stored under key in the memory or disk cache,
// or renders it once (concurrent callers share the render) and stores it.
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
	ctx, done, err := s.admit(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	b, err := s.flight.do(ctx, key, func(ctx context.Context) ([]byte, error) {
		b, err := render(ctx)
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
	return b, s.costly(ctx, err)
}

type renderKey struct{}

// admit gives a request's render one of the render slots, a deadline and
// a pixel budget. The renders it needs in turn (the Deep Zoom levels it is
// drawn from) run under the same slot, deadline and budget.
func (s *Service) admit(ctx context.Context) (context.Context, func(), error) {
	if ctx.Value(renderKey{}) != nil {
		return ctx, func() {}, nil
	}
	if err := s.renders.Acquire(ctx, 1); err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.WithValue(ctx, renderKey{}, true), s.opt.RenderTimeout)
	ctx = slide.WithBudget(ctx, s.opt.RenderPixels)
	return ctx, func() { cancel(); s.renders.Release(1) }, nil
}

// costly marks an error caused by the render's own budget (pixels or time,
// not the caller going away) as ErrTooCostly.
func (s *Service) costly(ctx context.Context, err error) error {
	if errors.Is(err, slide.ErrBudget) || errors.Is(err, context.DeadlineExceeded) && errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", ErrTooCostly, err)
	}
	return err
}

var encodeBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encodeJPEG returns the image encoded in a slice of exactly its size, as
// the caches account what they hold by capacity.
func (s *Service) encodeJPEG(img image.Image) ([]byte, error) {
	buf := encodeBuffers.Get().(*bytes.Buffer)
	defer encodeBuffers.Put(buf)
	buf.Reset()
	if err := jpeg.Encode(buf, img, &jpeg.Options{Quality: s.opt.Quality}); err != nil {
		return nil, fmt.Errorf("encode jpeg: %w", err)
	}
	return bytes.Clone(buf.Bytes()), nil
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
