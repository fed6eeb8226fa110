package gallery

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	stddraw "image/draw"
	_ "image/gif" // decoders of the gallery's images
	"image/jpeg"
	_ "image/png"
	"io"
	"math"
	"os"
	"strings"

	sq "github.com/Masterminds/squirrel"
	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/webp"

	"telepath/internal/consultation"
	"telepath/internal/files"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/report"
)

func jsonEncoder(w io.Writer) *json.Encoder {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	return e
}

// read checks a stored image's size before reading anything, then returns
// its bytes.
func (s *Service) read(ctx context.Context, fileID int64) ([]byte, error) {
	return s.files.ReadImage(ctx, fileID, s.MaxEditBytes)
}

// size is an image's width and height, read from its header only.
func (s *Service) size(ctx context.Context, fileID int64) (int, int, error) {
	_, path, err := s.files.Local(ctx, fileID)
	if err != nil {
		return 0, 0, err
	}
	r, err := os.Open(path)
	if err != nil {
		return 0, 0, apperr.Wrap(err, "open image")
	}
	defer r.Close()
	cfg, _, err := image.DecodeConfig(r)
	if err != nil {
		return 0, 0, apperr.New(apperr.Invalid, "gallery.not_image")
	}
	return cfg.Width, cfg.Height, nil
}

// decode reads an image, refusing what is not one or has too many pixels.
func decode(b []byte) (image.Image, error) { return files.DecodeImage(b) }

// flatten draws an image onto white in RGBA.
func flatten(img image.Image) *image.RGBA { return files.Flatten(img) }

// ImageFile is the stored file a gallery image shows now, and its path, for
// streaming it whole (any size: nothing is decoded).
func (s *Service) ImageFile(ctx context.Context, consultID, fileID int64) (*files.File, string, error) {
	it, err := s.Item(ctx, consultID, fileID)
	if err != nil {
		return nil, "", err
	}
	return s.files.Local(ctx, it.Current)
}

// Thumbnail is a small JPEG of a gallery image as edited, made once per
// stored file and kept (files.Thumbnail): rotating, cropping or restoring
// changes the file the item shows, and so its thumbnail.
func (s *Service) Thumbnail(ctx context.Context, consultID, fileID int64) (*files.Thumb, int64, error) {
	it, err := s.Item(ctx, consultID, fileID)
	if err != nil {
		return nil, 0, err
	}
	t, err := s.files.Thumbnail(ctx, it.Current, s.MaxEditBytes)
	return t, it.Current, err
}

// GalleryCrop is a rectangle of the image, in its pixels after rotation.
type GalleryCrop struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// RotateInput rotates and/or crops an image (spec 2 §7 POST /rotate_image).
type RotateInput struct {
	ConsultID int64        `json:"consult_id" minimum:"1"`
	ID        int64        `json:"id" minimum:"1" doc:"The gallery image"`
	Angle     float64      `json:"angle" minimum:"-360" maximum:"360" doc:"Clockwise degrees, in steps of 1"`
	Crop      *GalleryCrop `json:"crop,omitempty" doc:"Applied after the rotation"`
	Quality   int          `json:"quality,omitempty" minimum:"0" maximum:"100" doc:"JPEG quality, 92 when 0"`
}

// Rotate rotates and/or crops an image, overwriting it (the original stays
// for restore) and clearing its labels.
func (s *Service) Rotate(ctx context.Context, in RotateInput) (*GalleryImage, error) {
	if in.Angle != math.Trunc(in.Angle) {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("angle", "gallery.bad_angle")
	}
	it, err := s.Item(ctx, in.ConsultID, in.ID)
	if err != nil {
		return nil, err
	}
	b, err := s.read(ctx, it.Current)
	if err != nil {
		return nil, err
	}
	img, err := decode(b)
	if err != nil {
		return nil, err
	}
	out := rotate(flatten(img), int(in.Angle))
	if c := in.Crop; c != nil {
		ob := out.Bounds()
		if c.W < 1 || c.H < 1 || c.X < 0 || c.Y < 0 || math.Round(c.X+c.W) > float64(ob.Dx()) || math.Round(c.Y+c.H) > float64(ob.Dy()) {
			return nil, apperr.New(apperr.Invalid, "error.validation").Field("crop", "gallery.crop_outside")
		}
		r := image.Rect(int(c.X), int(c.Y), int(math.Round(c.X+c.W)), int(math.Round(c.Y+c.H)))
		cropped := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
		stddraw.Draw(cropped, cropped.Bounds(), out, r.Min, stddraw.Src)
		out = cropped
	} else if int(in.Angle)%360 == 0 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("angle", "gallery.nothing_to_do")
	}
	q := in.Quality
	if q == 0 {
		q = 92
	}
	var enc bytes.Buffer
	if err := jpeg.Encode(&enc, out, &jpeg.Options{Quality: q}); err != nil {
		return nil, apperr.Wrap(err, "encode image")
	}
	name := strings.TrimSuffix(it.Name, extOf(it.Name)) + "-edited.jpg"
	// The edited file is written and recorded in the change's transaction:
	// refused or failed, it leaves no file behind.
	err = s.change(ctx, in.ConsultID, in.ID, "", func(tx *db.Tx, _ consultation.Action, cur *GalleryImage) error {
		if cur.Current != it.Current {
			return apperr.New(apperr.Conflict, "gallery.changed")
		}
		f, err := s.files.SaveIn(ctx, tx, "gallery", name, "image/jpeg", bytes.NewReader(enc.Bytes()))
		if err != nil {
			return err
		}
		return s.upsert(ctx, tx, in.ConsultID, cur, map[string]any{"edited_file_id": f.ID, "labels": "[]"})
	})
	if err != nil {
		return nil, err
	}
	return s.Item(ctx, in.ConsultID, in.ID)
}

func extOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[i:]
	}
	return ""
}

// rotate turns an image clockwise by deg degrees about its centre, on a
// canvas large enough to hold it, the corners filled white.
func rotate(src *image.RGBA, deg int) *image.RGBA {
	deg = ((deg % 360) + 360) % 360
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	switch deg {
	case 0:
		return src
	case 90, 180, 270:
		ow, oh := w, h
		if deg != 180 {
			ow, oh = h, w
		}
		out := image.NewRGBA(image.Rect(0, 0, ow, oh))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var nx, ny int
				switch deg {
				case 90:
					nx, ny = h-1-y, x
				case 180:
					nx, ny = w-1-x, h-1-y
				default:
					nx, ny = y, w-1-x
				}
				out.SetRGBA(nx, ny, src.RGBAAt(x, y))
			}
		}
		return out
	}
	rad := float64(deg) * math.Pi / 180
	sin, cos := math.Sin(rad), math.Cos(rad)
	ow := int(math.Ceil(math.Abs(float64(w)*cos) + math.Abs(float64(h)*sin)))
	oh := int(math.Ceil(math.Abs(float64(w)*sin) + math.Abs(float64(h)*cos)))
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	stddraw.Draw(out, out.Bounds(), &image.Uniform{C: color.White}, image.Point{}, stddraw.Src)
	cx, cy := float64(w)/2, float64(h)/2
	ocx, ocy := float64(ow)/2, float64(oh)/2
	for y := 0; y < oh; y++ {
		for x := 0; x < ow; x++ {
			dx, dy := float64(x)+0.5-ocx, float64(y)+0.5-ocy
			sx := int(math.Floor(dx*cos + dy*sin + cx))
			sy := int(math.Floor(-dx*sin + dy*cos + cy))
			if sx >= 0 && sy >= 0 && sx < w && sy < h {
				out.SetRGBA(x, y, src.RGBAAt(sx, sy))
			}
		}
	}
	return out
}

// Restore gives an image its original back and clears its labels.
func (s *Service) Restore(ctx context.Context, consultID, fileID int64) (*GalleryImage, error) {
	err := s.change(ctx, consultID, fileID, "", func(tx *db.Tx, _ consultation.Action, it *GalleryImage) error {
		return s.upsert(ctx, tx, consultID, it, map[string]any{"edited_file_id": nil, "labels": "[]"})
	})
	if err != nil {
		return nil, err
	}
	return s.Item(ctx, consultID, fileID)
}

// CopyInput is a processed copy of a gallery image (the editor's "save as a
// new image"): the JPEG itself and the labels carried over to it.
type CopyInput struct {
	Name   string
	Data   []byte
	Labels []ImageLabel
}

// SaveCopy stores a processed copy of a gallery image and attaches it to
// the case as a new gallery image, with labels. The file is written in the
// change's transaction: a refused or failed save leaves no file behind.
func (s *Service) SaveCopy(ctx context.Context, consultID, fromID int64, in CopyInput) (*GalleryImage, error) {
	if int64(len(in.Data)) > s.MaxEditBytes {
		return nil, apperr.New(apperr.TooLarge, "gallery.too_large").With("max", s.MaxEditBytes>>20)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(in.Data))
	if err != nil || format != "jpeg" {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("file", "gallery.not_jpeg")
	}
	if _, err := decode(in.Data); err != nil {
		return nil, err
	}
	labels := in.Labels
	if labels == nil {
		labels = []ImageLabel{}
	}
	if err := checkLabels(labels, cfg.Width, cfg.Height); err != nil {
		return nil, err
	}
	raw, err := jsonString(labels)
	if err != nil {
		return nil, err
	}
	var fileID int64
	err = s.change(ctx, consultID, fromID, "", func(tx *db.Tx, _ consultation.Action, from *GalleryImage) error {
		f, err := s.files.SaveIn(ctx, tx, "attachment", in.Name, "image/jpeg", bytes.NewReader(in.Data))
		if err != nil {
			return err
		}
		fileID = f.ID
		if err := s.cases.AttachFile(ctx, tx, consultID, f.ID); err != nil {
			return err
		}
		var next int
		if err := db.Get(ctx, tx, &next, tx.Builder().Select("COALESCE(MAX(sort), 0) + 1").From("gallery_images").Where("consult_id = ?", consultID)); err != nil {
			return apperr.Wrap(err, "gallery sort")
		}
		next = max(next, from.Sort+1)
		_, err = db.Exec(ctx, tx, tx.Builder().Insert("gallery_images").SetMap(map[string]any{"consult_id": consultID, "file_id": f.ID,
			"checked": 0, "sort": next, "labels": raw, "updated_by": access.FromContext(ctx).UserID, "updated_at": s.now()}))
		return apperr.Wrap(err, "insert gallery image")
	})
	if err != nil {
		return nil, err
	}
	return s.Item(ctx, consultID, fileID)
}

// ReportImages are the images checked for a case's report, their labels
// drawn on them by the report.
func (s *Service) ReportImages(ctx context.Context, consultID int64) []report.Image {
	l, err := s.items(ctx, s.db, consultID, sq.Eq{"g.checked": 1})
	if err != nil {
		return nil
	}
	var out []report.Image
	for _, it := range l {
		if len(out) == report.MaxImages {
			break
		}
		b, err := s.read(ctx, it.Current)
		if err != nil {
			continue
		}
		out = append(out, report.Image{Data: b, Caption: it.Name, Labels: reportLabels(it.Labels)})
	}
	return out
}
