package tiles

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"

	"golang.org/x/image/draw"
)

// InfoJSON returns the IIIF Image API 3.0 info.json of the slide; id is the
// service's base URL (without "/info.json").
func (s *Service) InfoJSON(src *Source, id string) []byte {
	type tile struct {
		Width        int   `json:"width"`
		Height       int   `json:"height"`
		ScaleFactors []int `json:"scaleFactors"`
	}
	type size struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	}
	var factors []int
	for k := 0; k <= src.maxLevel; k++ {
		factors = append(factors, 1<<k)
		w, h := src.levelSize(src.maxLevel - k)
		if w <= src.tileSize && h <= src.tileSize {
			break
		}
	}
	var sizes []size
	for L := 0; L <= src.maxLevel; L++ {
		w, h := src.levelSize(L)
		if w > s.opt.MaxSize || h > s.opt.MaxSize {
			break
		}
		if w >= 32 || h >= 32 {
			sizes = append(sizes, size{w, h})
		}
	}
	info := map[string]any{
		"@context":         "http://iiif.io/api/image/3/context.json",
		"id":               id,
		"type":             "ImageService3",
		"protocol":         "http://iiif.io/api/image",
		"profile":          "level1",
		"width":            src.width,
		"height":           src.height,
		"maxWidth":         s.opt.MaxSize,
		"maxHeight":        s.opt.MaxSize,
		"tiles":            []tile{{src.tileSize, src.tileSize, factors}},
		"sizes":            sizes,
		"extraFormats":     []string{"png"},
		"extraQualities":   []string{"gray"},
		"extraFeatures":    []string{"mirroring", "rotationBy90s", "sizeUpscaling"},
		"preferredFormats": []string{"jpg"},
	}
	b, _ := json.Marshal(info)
	return b
}

// IIIF answers an Image API 3.0 request
// ({region}/{size}/{rotation}/{quality}.{format}). Requests on the tile grid
// of info.json are served exactly like Deep Zoom tiles (pass-through or
// cached); others are rendered and cached.
func (s *Service) IIIF(ctx context.Context, src *Source, region, size, rotation, quality, format string) (data []byte, contentType, tag string, err error) {
	q, err := parseIIIF(region, size, rotation, quality, format, src.width, src.height, s.opt.MaxSize)
	if err != nil {
		return nil, "", "", err
	}
	if q.rotation == 0 && !q.mirror && !q.gray && q.format == "jpg" {
		if L, col, row, ok := src.gridTile(q); ok {
			b, tag, err := s.Tile(ctx, src, L, col, row)
			return b, "image/jpeg", tag, err
		}
	}
	key := fmt.Sprintf("iiif/%d,%d,%d,%d/%d,%d/%d,%v/%v.%s", q.x, q.y, q.w, q.h, q.ow, q.oh, q.rotation, q.mirror, q.gray, q.format)
	b, err := s.cached(ctx, src.ID+"/"+key, func(ctx context.Context) ([]byte, error) {
		img, err := s.renderRegion(ctx, src, q.x, q.y, q.w, q.h, q.ow, q.oh)
		if err != nil {
			return nil, err
		}
		return s.encode(transform(img, q.rotation, q.mirror, q.gray), q.format)
	})
	if err != nil {
		return nil, "", "", err
	}
	ct := "image/jpeg"
	if q.format == "png" {
		ct = "image/png"
	}
	return b, ct, etag(src, key), nil
}

// gridTile maps a request that is exactly one tile of info.json's grid to
// its Deep Zoom coordinates.
func (src *Source) gridTile(q iiifRequest) (L, col, row int, ok bool) {
	ts := src.tileSize
	for k := 0; k <= src.maxLevel; k++ {
		tsf := ts << k
		if q.x%tsf != 0 || q.y%tsf != 0 {
			return 0, 0, 0, false
		}
		if q.w == min(tsf, src.width-q.x) && q.h == min(tsf, src.height-q.y) &&
			q.ow == ceilShift(q.w, k) && q.oh == ceilShift(q.h, k) {
			return src.maxLevel - k, q.x / tsf, q.y / tsf, true
		}
	}
	return 0, 0, 0, false
}

func (s *Service) encode(img image.Image, format string) ([]byte, error) {
	if format == "png" {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return nil, fmt.Errorf("encode png: %w", err)
		}
		return bytes.Clone(buf.Bytes()), nil
	}
	return s.encodeJPEG(img)
}

// renderRegion draws the full-resolution region (x,y,w,h) at ow×oh from
// the Deep Zoom level just finer than the requested scale, one output
// block at a time so memory stays bounded.
func (s *Service) renderRegion(ctx context.Context, src *Source, x, y, w, h, ow, oh int) (*image.RGBA, error) {
	ax, ay := float64(w)/float64(ow), float64(h)/float64(oh)
	k := 0
	if sc := math.Min(ax, ay); sc >= 2 {
		k = min(int(math.Floor(math.Log2(sc))), src.maxLevel)
	}
	L := src.maxLevel - k
	div := math.Ldexp(1, k)
	lw, lh := src.levelSize(L)
	// Region origin and pitch in level-L pixels.
	u0, v0 := float64(x)/div, float64(y)/div
	px, py := ax/div, ay/div
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	const block = 1024
	for by := 0; by < oh; by += block {
		for bx := 0; bx < ow; bx += block {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			br := image.Rect(bx, by, min(bx+block, ow), min(by+block, oh))
			bu0, bv0 := u0+float64(bx)*px, v0+float64(by)*py
			bu1, bv1 := u0+float64(br.Max.X)*px, v0+float64(br.Max.Y)*py
			cr := image.Rect(int(math.Floor(bu0))-1, int(math.Floor(bv0))-1, int(math.Ceil(bu1))+1, int(math.Ceil(bv1))+1).
				Intersect(image.Rect(0, 0, lw, lh))
			canvas, err := s.compose(ctx, src, L, cr)
			if err != nil {
				return nil, err
			}
			dst := out.SubImage(br).(*image.RGBA)
			tmp := whiteRGBA(br.Dx(), br.Dy())
			resample(tmp, canvas, bu0-float64(cr.Min.X), bv0-float64(cr.Min.Y), px, py)
			draw.Draw(dst, br, tmp, image.Point{}, draw.Src)
		}
	}
	return out, nil
}

// compose decodes the Deep Zoom tiles of level L covering r into one image
// whose bounds start at (0,0).
func (s *Service) compose(ctx context.Context, src *Source, L int, r image.Rectangle) (*image.RGBA, error) {
	canvas := whiteRGBA(r.Dx(), r.Dy())
	ts := src.tileSize
	for row := r.Min.Y / ts; row*ts < r.Max.Y; row++ {
		for col := r.Min.X / ts; col*ts < r.Max.X; col++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			img, err := s.tileImage(ctx, src, L, col, row)
			if err != nil {
				return nil, err
			}
			at := image.Pt(col*ts, row*ts).Sub(r.Min)
			draw.Draw(canvas, img.Bounds().Sub(img.Bounds().Min).Add(at), img, img.Bounds().Min, draw.Src)
		}
	}
	return canvas, nil
}

// transform applies mirroring, then clockwise rotation, then gray.
func transform(img *image.RGBA, rotation int, mirror, gray bool) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if mirror || rotation != 0 {
		ow, oh := w, h
		if rotation == 90 || rotation == 270 {
			ow, oh = h, w
		}
		out := image.NewRGBA(image.Rect(0, 0, ow, oh))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				sx := x
				if mirror {
					sx = w - 1 - x
				}
				var dx, dy int
				switch rotation {
				case 0:
					dx, dy = x, y
				case 90:
					dx, dy = h-1-y, x
				case 180:
					dx, dy = w-1-x, h-1-y
				case 270:
					dx, dy = y, w-1-x
				}
				si, di := img.PixOffset(b.Min.X+sx, b.Min.Y+y), out.PixOffset(dx, dy)
				copy(out.Pix[di:di+4], img.Pix[si:si+4])
			}
		}
		img = out
	}
	if !gray {
		return img
	}
	g := image.NewGray(img.Bounds())
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			g.Set(x, y, color.GrayModel.Convert(img.RGBAAt(x, y)))
		}
	}
	return g
}

// Thumbnail renders the whole slide to fit maxSize×maxSize as JPEG.
func (s *Service) Thumbnail(ctx context.Context, src *Source, maxSize int) ([]byte, string, error) {
	if maxSize <= 0 || maxSize > s.opt.MaxSize {
		return nil, "", badRequest("thumbnail size %d: must be 1-%d", maxSize, s.opt.MaxSize)
	}
	ow, oh := fit(src.width, src.height, maxSize)
	key := fmt.Sprintf("thumb/%d", maxSize)
	b, err := s.cached(ctx, src.ID+"/"+key, func(ctx context.Context) ([]byte, error) {
		img, err := s.renderRegion(ctx, src, 0, 0, src.width, src.height, ow, oh)
		if err != nil {
			return nil, err
		}
		return s.encodeJPEG(img)
	})
	if err != nil {
		return nil, "", err
	}
	return b, etag(src, key), nil
}

// fit scales w×h down (never up) to fit in maxSize×maxSize.
func fit(w, h, maxSize int) (int, int) {
	k := math.Min(1, math.Min(float64(maxSize)/float64(w), float64(maxSize)/float64(h)))
	return max(1, int(math.Round(float64(w)*k))), max(1, int(math.Round(float64(h)*k)))
}

// Associated returns an associated image ("label", "macro", "thumbnail")
// scaled to fit maxSize×maxSize, as JPEG.
func (s *Service) Associated(ctx context.Context, src *Source, name string, maxSize int) ([]byte, string, error) {
	if maxSize <= 0 || maxSize > s.opt.MaxSize {
		return nil, "", badRequest("image size %d: must be 1-%d", maxSize, s.opt.MaxSize)
	}
	found := false
	for _, n := range src.Slide.AssociatedImages() {
		found = found || n == name
	}
	if !found {
		return nil, "", notFound("associated image %q", name)
	}
	key := fmt.Sprintf("assoc/%s/%d", name, maxSize)
	b, err := s.cached(ctx, src.ID+"/"+key, func(ctx context.Context) ([]byte, error) {
		img, err := src.Slide.AssociatedImage(ctx, name)
		if err != nil {
			return nil, err
		}
		b := img.Bounds()
		ow, oh := fit(b.Dx(), b.Dy(), maxSize)
		if ow != b.Dx() || oh != b.Dy() {
			dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
			draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
			img = dst
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
			return nil, err
		}
		return bytes.Clone(buf.Bytes()), nil
	})
	if err != nil {
		return nil, "", err
	}
	return b, etag(src, key), nil
}
