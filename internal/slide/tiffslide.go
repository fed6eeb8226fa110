package slide

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// TIFF compression and photometric codes.
const (
	compNone        = 1
	compLZW         = 5
	compOldJPEG     = 6
	compJPEG        = 7
	compDeflate     = 8
	compDeflateOld  = 32946
	photoMinIsWhite = 0
	photoMinIsBlack = 1
	photoRGB        = 2
	photoYCbCr      = 6
)

// tiffSlide implements Slide for SVS and generic pyramidal TIFF. All its
// fields are fixed at open, so reads need no locking.
type tiffSlide struct {
	f      *os.File // nil when opened from a bare io.ReaderAt
	r      io.ReaderAt
	size   int64
	format string
	levels []*level
	props  Properties
	assoc  map[string]*level
}

// level is one decodable image (pyramid level or associated image) laid
// out as a grid of tiles or strips ("chunks").
type level struct {
	Level
	d          *ifd
	cols, rows int
	isJPEG     bool
	prefix     []byte // replaces the tile's SOI: SOI [+APP14] + tables
}

func openTIFFPath(path string) (Slide, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open slide: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open slide: %w", err)
	}
	s, err := openTIFF(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open slide %s: %w", path, err)
	}
	s.f = f
	return s, nil
}

// OpenTIFF reads an SVS or pyramidal TIFF from r, which must hold size
// bytes. The caller keeps ownership of r; Close on the result is a no-op.
func OpenTIFF(r io.ReaderAt, size int64) (Slide, error) {
	return openTIFF(r, size)
}

func openTIFF(r io.ReaderAt, size int64) (*tiffSlide, error) {
	t, err := parseTIFF(r, size)
	if err != nil {
		return nil, err
	}
	first := t.ifds[0]
	if first.ndpi {
		return nil, unsupported("ndpi", "Hamamatsu NDPI is not supported")
	}
	s := &tiffSlide{r: r, size: size, format: "tiff", assoc: map[string]*level{}}
	if strings.HasPrefix(first.description, "Aperio") {
		s.format = "svs"
		err = s.layoutSVS(t)
	} else {
		err = s.layoutGeneric(t)
	}
	var ue *UnsupportedError
	if errors.As(err, &ue) {
		return nil, unsupported(s.format, ue.Reason)
	}
	if err != nil {
		return nil, err
	}
	l0 := s.levels[0]
	for _, l := range s.levels {
		l.Downsample = (float64(l0.Width)/float64(l.Width) + float64(l0.Height)/float64(l.Height)) / 2
	}
	s.props = tiffProperties(s.format, first)
	return s, nil
}

func (s *tiffSlide) layoutSVS(t *tiffFile) error {
	for i, d := range t.ifds {
		name := assocName(d)
		if name == "" && i == 1 && d.tileW == 0 {
			name = "thumbnail"
		}
		if name == "" && i > 1 && d.tileW == 0 {
			switch d.subfileType {
			case 1:
				name = "label"
			case 9:
				name = "macro"
			}
		}
		if name == "" && d.tileW > 0 {
			if err := s.addLevel(d); err != nil {
				if i == 0 {
					return err
				}
				continue // an unreadable reduced level is skipped, not fatal
			}
			continue
		}
		if name != "" && s.assoc[name] == nil {
			if l, err := newLevel(d); err == nil {
				s.assoc[name] = l
			}
		}
	}
	if len(s.levels) == 0 {
		return fmt.Errorf("SVS has no tiled levels")
	}
	return s.sortLevels()
}

func (s *tiffSlide) layoutGeneric(t *tiffFile) error {
	first := t.ifds[0]
	if err := s.addLevel(first); err != nil {
		return err
	}
	cands := append([]*ifd{}, first.subs...)
	cands = append(cands, t.ifds[1:]...)
	for _, d := range cands {
		if name := assocName(d); name != "" && d.description != first.description {
			if s.assoc[name] == nil {
				if l, err := newLevel(d); err == nil {
					s.assoc[name] = l
				}
			}
			continue
		}
		if d.width >= first.width || !sameAspect(first, d) {
			continue
		}
		if d.subfileType&1 == 0 && d.tileW == 0 {
			continue // a full-resolution stripped image is not a pyramid level
		}
		_ = s.addLevel(d) // unreadable reduced levels are skipped
	}
	return s.sortLevels()
}

// assocName recognizes label/macro/thumbnail images by description or
// NewSubfileType (Aperio writes 1 for label and 9 for macro).
func assocName(d *ifd) string {
	desc := strings.ToLower(d.description)
	for _, n := range []string{"label", "macro", "thumbnail"} {
		if strings.Contains(desc, n) && !strings.HasPrefix(desc, "aperio image library") {
			return n
		}
		if strings.Contains(desc, "\n"+n) || strings.Contains(desc, "\r"+n) {
			return n
		}
	}
	return ""
}

func sameAspect(a, b *ifd) bool {
	ra := float64(a.width) / float64(a.height)
	rb := float64(b.width) / float64(b.height)
	// Small levels are rounded to whole pixels, so allow one pixel of slack.
	tol := 1.0/float64(min(b.width, b.height)) + 0.02
	return ra/rb < 1+tol && rb/ra < 1+tol
}

func (s *tiffSlide) addLevel(d *ifd) error {
	l, err := newLevel(d)
	if err != nil {
		return err
	}
	s.levels = append(s.levels, l)
	return nil
}

func (s *tiffSlide) sortLevels() error {
	sort.SliceStable(s.levels, func(i, j int) bool { return s.levels[i].Width > s.levels[j].Width })
	out := s.levels[:1]
	for _, l := range s.levels[1:] {
		if l.Width < out[len(out)-1].Width && l.Height <= out[len(out)-1].Height {
			out = append(out, l)
		}
	}
	s.levels = out
	return nil
}

// newLevel validates an IFD as a decodable image and computes its grid.
func newLevel(d *ifd) (*level, error) {
	if d.width <= 0 || d.height <= 0 {
		return nil, fmt.Errorf("missing image size")
	}
	if uint64(d.width)*uint64(d.height) > maxLevelPixels {
		return nil, fmt.Errorf("image %dx%d too large", d.width, d.height)
	}
	switch d.compression {
	case compNone, compLZW, compJPEG, compDeflate, compDeflateOld:
	case compOldJPEG:
		return nil, unsupported("tiff", "old-style JPEG compression (6)")
	case 33003, 33005, 34712:
		return nil, unsupported("tiff", fmt.Sprintf("JPEG 2000 compression (%d)", d.compression))
	default:
		return nil, unsupported("tiff", fmt.Sprintf("compression %d", d.compression))
	}
	if d.planar != 1 && d.spp > 1 {
		return nil, unsupported("tiff", "planar (separate) sample layout")
	}
	if d.sampleFormat > 1 {
		return nil, unsupported("tiff", "non-integer samples")
	}
	l := &level{d: d, isJPEG: d.compression == compJPEG}
	if l.isJPEG {
		if d.spp != 1 && d.spp != 3 {
			return nil, unsupported("tiff", fmt.Sprintf("JPEG with %d samples", d.spp))
		}
	} else {
		for _, b := range d.bits {
			if b != 8 {
				return nil, unsupported("tiff", fmt.Sprintf("%d-bit samples", b))
			}
		}
		if len(d.bits) == 0 || d.spp < 1 || d.spp > 4 || d.spp == 2 {
			return nil, unsupported("tiff", fmt.Sprintf("%d samples per pixel", d.spp))
		}
		if d.spp >= 3 && d.photometric != photoRGB || d.spp == 1 && d.photometric > photoMinIsBlack {
			return nil, unsupported("tiff", fmt.Sprintf("photometric %d", d.photometric))
		}
		if d.predictor != 1 && d.predictor != 2 {
			return nil, unsupported("tiff", fmt.Sprintf("predictor %d", d.predictor))
		}
	}
	l.Width, l.Height = d.width, d.height
	if d.tileW > 0 || d.tileH > 0 {
		if d.tileW <= 0 || d.tileH <= 0 {
			return nil, fmt.Errorf("bad tile size %dx%d", d.tileW, d.tileH)
		}
		l.Tiled = true
		l.TileWidth, l.TileHeight = d.tileW, d.tileH
	} else {
		rps := d.rowsPerStrip
		if rps <= 0 || rps > d.height {
			rps = d.height
		}
		l.TileWidth, l.TileHeight = d.width, rps
	}
	if l.TileWidth*l.TileHeight > maxChunkPixels {
		return nil, fmt.Errorf("tile or strip %dx%d too large", l.TileWidth, l.TileHeight)
	}
	l.cols = (d.width + l.TileWidth - 1) / l.TileWidth
	l.rows = (d.height + l.TileHeight - 1) / l.TileHeight
	n := l.cols * l.rows
	if n > maxChunks {
		return nil, fmt.Errorf("%d tiles is too many", n)
	}
	if len(d.offsets) < n || len(d.counts) < n {
		return nil, fmt.Errorf("%d tile offsets and %d byte counts for %d tiles", len(d.offsets), len(d.counts), n)
	}
	if l.isJPEG {
		l.prefix = jpegPrefix(d.jpegTables, d.photometric == photoRGB && d.spp == 3)
	}
	return l, nil
}
