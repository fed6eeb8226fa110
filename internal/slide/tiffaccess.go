package slide

import (
	"context"
	"fmt"
	"image"
)

func (s *tiffSlide) Format() string { return s.format }

func (s *tiffSlide) Levels() []Level {
	out := make([]Level, len(s.levels))
	for i, l := range s.levels {
		out[i] = l.Level
	}
	return out
}

func (s *tiffSlide) Properties() Properties {
	p := s.props
	p.Raw = make(map[string]string, len(s.props.Raw))
	for k, v := range s.props.Raw {
		p.Raw[k] = v
	}
	return p
}

func (s *tiffSlide) AssociatedImages() []string {
	var out []string
	for _, n := range []string{"label", "macro", "thumbnail"} {
		if s.assoc[n] != nil {
			out = append(out, n)
		}
	}
	return out
}

func (s *tiffSlide) AssociatedImage(ctx context.Context, name string) (image.Image, error) {
	l := s.assoc[name]
	if l == nil {
		return nil, fmt.Errorf("associated image %q: %w", name, ErrNotFound)
	}
	if l.Width*l.Height > maxAssocPixels {
		return nil, fmt.Errorf("associated image %q is %dx%d, too large", name, l.Width, l.Height)
	}
	return s.readRegion(ctx, l, 0, 0, l.Width, l.Height)
}

func (s *tiffSlide) Close() error {
	if s.f != nil {
		return s.f.Close()
	}
	return nil
}
