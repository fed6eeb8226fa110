package files

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	stddraw "image/draw"
	_ "image/gif" // decoders of the images shown as thumbnails
	"image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	_ "golang.org/x/image/bmp"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// MaxPixels refuses decompression bombs.
const MaxPixels = 60 << 20

// MaxImageBytes is the largest stored image decoded for a thumbnail.
const MaxImageBytes = 30 << 20

// ThumbPx is the long side of a thumbnail.
const ThumbPx = 320

// thumbSuffix names a file's thumbnail, kept beside it.
const thumbSuffix = ".thumb.jpg"

// DecodeImage reads an image, refusing what is not one or has too many pixels.
func DecodeImage(b []byte) (image.Image, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, apperr.New(apperr.Invalid, "gallery.not_image")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > MaxPixels {
		return nil, apperr.New(apperr.TooLarge, "gallery.too_many_pixels")
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, apperr.New(apperr.Invalid, "gallery.not_image")
	}
	return img, nil
}

// Flatten draws an image onto white in RGBA.
func Flatten(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	stddraw.Draw(out, out.Bounds(), &image.Uniform{C: color.White}, image.Point{}, stddraw.Src)
	stddraw.Draw(out, out.Bounds(), img, b.Min, stddraw.Over)
	return out
}

// ReadImage reads a stored image of at most maxBytes, refusing a larger one
// before reading anything.
func (s *Service) ReadImage(ctx context.Context, id, maxBytes int64) ([]byte, error) {
	f, path, err := s.Local(ctx, id)
	if err != nil {
		return nil, err
	}
	tooLarge := apperr.New(apperr.TooLarge, "gallery.too_large").With("max", maxBytes>>20)
	if f.Size > maxBytes {
		return nil, tooLarge
	}
	r, err := os.Open(path)
	if err != nil {
		return nil, apperr.Wrap(err, "open image")
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, apperr.Wrap(err, "read image")
	}
	if int64(len(b)) > maxBytes {
		return nil, tooLarge
	}
	return b, nil
}

// Thumb is a stored image's thumbnail on disk.
type Thumb struct {
	Path string
	ETag string
}

// Thumbnail is a small JPEG of a stored image (ThumbPx on its long side),
// made the first time it is asked for and kept beside the file. A stored
// file never changes (a rotated, cropped or processed image is a new file
// with a thumbnail of its own), so a kept thumbnail is never stale. The
// caller has checked access to the file.
func (s *Service) Thumbnail(ctx context.Context, id, maxBytes int64) (*Thumb, error) {
	f, full, err := s.Local(ctx, id)
	if err != nil {
		return nil, err
	}
	t := &Thumb{Path: full + thumbSuffix, ETag: `"` + f.SHA256[:min(16, len(f.SHA256))] + "-" + strconv.Itoa(ThumbPx) + `"`}
	if _, err := os.Stat(t.Path); err == nil {
		return t, nil
	}
	b, err := s.ReadImage(ctx, id, maxBytes)
	if err != nil {
		return nil, err
	}
	img, err := DecodeImage(b)
	if err != nil {
		return nil, err
	}
	src := Flatten(img)
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	if m := max(w, h); m > ThumbPx {
		w, h = max(1, w*ThumbPx/m), max(1, h*ThumbPx/m)
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	tmp, err := os.CreateTemp(filepath.Dir(full), ".thumb-*")
	if err != nil {
		return nil, apperr.Wrap(err, "create thumbnail")
	}
	err = jpeg.Encode(tmp, dst, &jpeg.Options{Quality: 80})
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), t.Path) // whole or not at all, also when two requests make it at once
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, apperr.Wrap(err, "write thumbnail")
	}
	return t, nil
}

// ServeThumb sends a thumbnail with its ETag (304 when the browser has it)
// and cacheControl.
func ServeThumb(t *Thumb, ifNoneMatch, cacheControl string) (*huma.StreamResponse, error) {
	var body []byte
	if !strings.Contains(ifNoneMatch, t.ETag) {
		var err error
		if body, err = os.ReadFile(t.Path); err != nil {
			return nil, apperr.Wrap(err, "read thumbnail")
		}
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("ETag", t.ETag)
		hc.SetHeader("Cache-Control", cacheControl)
		if body == nil {
			hc.SetStatus(304)
			return
		}
		hc.SetHeader("Content-Type", "image/jpeg")
		hc.SetHeader("Content-Length", strconv.Itoa(len(body)))
		hc.SetHeader("X-Content-Type-Options", "nosniff")
		hc.SetHeader("Content-Security-Policy", "sandbox")
		hc.SetStatus(200)
		hc.BodyWriter().Write(body)
	}}, nil
}

// Usage is what a hospital's kept thumbnails take on disk.
type Usage struct {
	Count int64
	Bytes int64
}

// ThumbUsage counts the thumbnails kept beside each hospital's files, by
// looking at the disk: a thumbnail is made on first view, so only the
// directory knows which exist.
func (s *Service) ThumbUsage(ctx context.Context) (map[int64]Usage, error) {
	var rows []struct {
		HospitalID int64  `db:"hospital_id"`
		Path       string `db:"path"`
	}
	if err := db.Select(ctx, s.db, &rows, s.db.Builder().Select("hospital_id", "path").From("files").Where("hospital_id IS NOT NULL")); err != nil {
		return nil, apperr.Wrap(err, "files of hospitals")
	}
	out := map[int64]Usage{}
	for _, r := range rows {
		fi, err := os.Stat(filepath.Join(s.dir, r.Path) + thumbSuffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue // not made yet
		} else if err != nil {
			return nil, apperr.Wrap(err, "thumbnail size")
		}
		u := out[r.HospitalID]
		u.Count++
		u.Bytes += fi.Size()
		out[r.HospitalID] = u
	}
	return out, nil
}
