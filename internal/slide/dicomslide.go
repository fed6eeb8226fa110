package slide

import (
	"context"
	"errors"
	"fmt"
	"image"
	"sort"
	"strings"
	"time"
)

// dicomSlide implements Slide for a DICOM WSI series: one instance per
// pyramid level plus optional label, overview and thumbnail instances.
type dicomSlide struct {
	instances []*dcmInstance // all open files
	levels    []*dcmLevel
	assoc     map[string]*dcmLevel
	props     Properties
}

type dcmLevel struct {
	Level
	in         *dcmInstance
	cols, rows int
	frameAt    []int32 // TILED_SPARSE: frame index per tile, -1 if absent
	prefix     []byte  // SOI [+ Adobe APP14] replacing the frame's SOI
}

func newDICOMSlide(ins []*dcmInstance) (*dicomSlide, error) {
	if len(ins) == 0 {
		return nil, fmt.Errorf("no DICOM WSI instances")
	}
	series := ins[0].series
	s := &dicomSlide{assoc: map[string]*dcmLevel{}}
	var vols []*dcmInstance
	for _, in := range ins {
		if in.series != series {
			if in.f != nil {
				in.f.Close()
			}
			continue
		}
		s.instances = append(s.instances, in)
		name := ""
		switch {
		case strings.Contains(in.imageType, "LABEL"):
			name = "label"
		case strings.Contains(in.imageType, "OVERVIEW"):
			name = "macro"
		case strings.Contains(in.imageType, "THUMBNAIL"):
			name = "thumbnail"
		default:
			vols = append(vols, in)
		}
		if name != "" && s.assoc[name] == nil {
			if l, err := newDCMLevel(in); err == nil {
				s.assoc[name] = l
			}
		}
	}
	sort.SliceStable(vols, func(i, j int) bool { return vols[i].width > vols[j].width })
	for _, in := range vols {
		if n := len(s.levels); n > 0 && s.levels[n-1].Width <= in.width {
			continue // same level again (another focal plane or concatenation)
		}
		l, err := newDCMLevel(in)
		if err != nil {
			if len(s.levels) == 0 {
				return nil, err
			}
			continue
		}
		s.levels = append(s.levels, l)
	}
	if len(s.levels) == 0 {
		return nil, fmt.Errorf("no readable volume images")
	}
	l0 := s.levels[0]
	for _, l := range s.levels {
		l.Downsample = (float64(l0.Width)/float64(l.Width) + float64(l0.Height)/float64(l.Height)) / 2
	}
	s.props = dicomProperties(l0.in)
	return s, nil
}

func newDCMLevel(in *dcmInstance) (*dcmLevel, error) {
	l := &dcmLevel{in: in}
	l.Width, l.Height = in.width, in.height
	l.TileWidth, l.TileHeight, l.Tiled = in.tileW, in.tileH, true
	if l.Width <= 0 || l.Height <= 0 || uint64(l.Width)*uint64(l.Height) > maxLevelPixels {
		return nil, fmt.Errorf("bad image size %dx%d", l.Width, l.Height)
	}
	l.cols = (l.Width + l.TileWidth - 1) / l.TileWidth
	l.rows = (l.Height + l.TileHeight - 1) / l.TileHeight
	if l.cols*l.rows > maxChunks {
		return nil, fmt.Errorf("too many tiles")
	}
	if in.encapsuled {
		l.prefix = []byte{0xFF, 0xD8}
		if in.photometric == "RGB" {
			l.prefix = append(l.prefix, adobeRGB...)
		}
	}
	if in.sparse {
		l.frameAt = make([]int32, l.cols*l.rows)
		for i := range l.frameAt {
			l.frameAt[i] = -1
		}
		for f, p := range in.positions {
			if f >= in.frames {
				break
			}
			c, r := int(p[0]-1)/l.TileWidth, int(p[1]-1)/l.TileHeight
			if p[0] >= 1 && p[1] >= 1 && c < l.cols && r < l.rows {
				l.frameAt[r*l.cols+c] = int32(f)
			}
		}
	}
	return l, nil
}

func dicomProperties(in *dcmInstance) Properties {
	p := Properties{Vendor: "dicom", MPPX: in.mppX, MPPY: in.mppY, Objective: in.objective, Raw: map[string]string{}}
	if p.MPPX <= 0 || p.MPPX > 100 || p.MPPY <= 0 || p.MPPY > 100 {
		p.MPPX, p.MPPY = 0, 0
	}
	names := map[uint32]string{dcmManufacturer: "Manufacturer", dcmModelName: "ManufacturerModelName", dcmStudyDate: "StudyDate",
		dcmStudyTime: "StudyTime", dcmAcqDateTime: "AcquisitionDateTime", dcmSeriesUID: "SeriesInstanceUID", dcmImageType: "ImageType"}
	for tag, n := range names {
		if v := in.top[tag]; v != "" {
			p.Raw["dicom."+n] = v
		}
	}
	p.Description = in.top[dcmManufacturer]
	if t, err := time.Parse("20060102150405", trimFraction(in.top[dcmAcqDateTime])); err == nil {
		p.ScanDate = t
	} else if t, err := time.Parse("20060102150405", in.top[dcmStudyDate]+trimFraction(in.top[dcmStudyTime])); err == nil {
		p.ScanDate = t
	} else if t, err := time.Parse("20060102", in.top[dcmStudyDate]); err == nil {
		p.ScanDate = t
	}
	return p
}

func trimFraction(s string) string {
	if i := strings.IndexAny(s, ".+-"); i >= 0 {
		return s[:i]
	}
	return s
}

func (s *dicomSlide) Format() string { return "dicom" }

func (s *dicomSlide) Levels() []Level {
	out := make([]Level, len(s.levels))
	for i, l := range s.levels {
		out[i] = l.Level
	}
	return out
}

func (s *dicomSlide) Properties() Properties {
	p := s.props
	p.Raw = make(map[string]string, len(s.props.Raw))
	for k, v := range s.props.Raw {
		p.Raw[k] = v
	}
	return p
}

func (s *dicomSlide) AssociatedImages() []string {
	var out []string
	for _, n := range []string{"label", "macro", "thumbnail"} {
		if s.assoc[n] != nil {
			out = append(out, n)
		}
	}
	return out
}

func (s *dicomSlide) AssociatedImage(ctx context.Context, name string) (image.Image, error) {
	l := s.assoc[name]
	if l == nil {
		return nil, fmt.Errorf("associated image %q: %w", name, ErrNotFound)
	}
	if l.Width*l.Height > maxAssocPixels {
		return nil, fmt.Errorf("associated image %q too large", name)
	}
	return s.readRegion(ctx, l, 0, 0, l.Width, l.Height)
}

// frameIndex maps a tile to its frame, or -1 when the tile is absent.
func (l *dcmLevel) frameIndex(col, row int) int {
	if l.frameAt != nil {
		return int(l.frameAt[row*l.cols+col])
	}
	if i := row*l.cols + col; i < l.in.frames {
		return i
	}
	return -1
}

func (s *dicomSlide) RawTile(lv, col, row int) ([]byte, bool, error) {
	return s.AppendRawTile(nil, lv, col, row)
}

func (s *dicomSlide) AppendRawTile(dst []byte, lv, col, row int) ([]byte, bool, error) {
	if lv < 0 || lv >= len(s.levels) {
		return dst, false, fmt.Errorf("level %d: %w", lv, ErrNotFound)
	}
	l := s.levels[lv]
	if col < 0 || row < 0 || col >= l.cols || row >= l.rows {
		return dst, false, fmt.Errorf("tile %d/%d,%d: %w", lv, col, row, ErrNotFound)
	}
	if !l.in.encapsuled {
		return dst, false, nil
	}
	return l.jpegFrame(dst, col, row)
}

// jpegFrame appends the frame of a tile, as a complete JPEG, to dst.
func (l *dcmLevel) jpegFrame(dst []byte, col, row int) ([]byte, bool, error) {
	f := l.frameIndex(col, row)
	if f < 0 {
		return dst, false, nil
	}
	out, ok, err := l.in.frame(dst, f, l.prefix)
	if err != nil || !ok {
		return dst, false, err
	}
	b := out[len(dst):]
	p := len(l.prefix)
	if len(b) < p+2 || b[p-2] != 0xFF || b[p-1] != 0xD8 {
		return dst, false, fmt.Errorf("frame %d is not a JPEG stream", f)
	}
	copy(b, l.prefix)
	return out, true, nil
}

func (s *dicomSlide) ReadRegion(ctx context.Context, lv, x, y, w, h int) (*image.RGBA, error) {
	if lv < 0 || lv >= len(s.levels) {
		return nil, fmt.Errorf("level %d: %w", lv, ErrNotFound)
	}
	return s.readRegion(ctx, s.levels[lv], x, y, w, h)
}

func (s *dicomSlide) readRegion(ctx context.Context, l *dcmLevel, x, y, w, h int) (*image.RGBA, error) {
	return readGrid(ctx, l.Level, x, y, w, h, func(ctx context.Context, col, row int, _ image.Rectangle) (image.Image, func(), error) {
		px := int64(l.TileWidth) * int64(l.TileHeight)
		if l.in.encapsuled {
			return decodeJPEGChunk(ctx, px, l.TileWidth, l.TileHeight, func() ([]byte, bool, error) {
				return l.jpegFrame(nil, col, row)
			})
		}
		f := l.frameIndex(col, row)
		if f < 0 {
			return nil, nil, nil
		}
		if err := spend(ctx, px); err != nil {
			return nil, nil, err
		}
		release, err := reserve(ctx, px*int64(l.in.spp+4))
		if err != nil {
			return nil, nil, err
		}
		b, ok, err := l.in.frame(nil, f, nil)
		if err != nil || !ok {
			release()
			return nil, nil, err
		}
		d := &ifd{spp: l.in.spp, photometric: photoMinIsBlack}
		return toRGBA(b, l.TileWidth, l.TileHeight, d), release, nil
	})
}

func (s *dicomSlide) Close() error {
	var errs []error
	for _, in := range s.instances {
		if in.f != nil {
			errs = append(errs, in.f.Close())
		}
	}
	return errors.Join(errs...)
}
