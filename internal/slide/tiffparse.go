package slide

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// TIFF tags the reader uses.
const (
	tagNewSubfileType   = 254
	tagImageWidth       = 256
	tagImageLength      = 257
	tagBitsPerSample    = 258
	tagCompression      = 259
	tagPhotometric      = 262
	tagImageDescription = 270
	tagMake             = 271
	tagModel            = 272
	tagStripOffsets     = 273
	tagSamplesPerPixel  = 277
	tagRowsPerStrip     = 278
	tagStripByteCounts  = 279
	tagXResolution      = 282
	tagYResolution      = 283
	tagPlanarConfig     = 284
	tagResolutionUnit   = 296
	tagSoftware         = 305
	tagDateTime         = 306
	tagPredictor        = 317
	tagTileWidth        = 322
	tagTileLength       = 323
	tagTileOffsets      = 324
	tagTileByteCounts   = 325
	tagSubIFDs          = 330
	tagExtraSamples     = 338
	tagSampleFormat     = 339
	tagJPEGTables       = 347
	tagNDPIMarker       = 65420
)

const (
	maxIFDs       = 512
	maxIFDEntries = 4096
	maxTagBytes   = 1 << 20 // ASCII / UNDEFINED values (descriptions, JPEG tables)
)

var errTruncated = errors.New("truncated or corrupt TIFF")

// tiffFile is the parsed structure of a TIFF or BigTIFF file.
type tiffFile struct {
	r      io.ReaderAt
	size   int64
	order  binary.ByteOrder
	big    bool
	ifds   []*ifd // main IFD chain
	loaded map[uint64]bool
	nIFD   int
}

// ifd holds the fields of one image file directory the reader needs.
type ifd struct {
	offset        uint64
	subfileType   uint32
	width, height int
	tileW, tileH  int
	rowsPerStrip  int
	bits          []uint16
	spp           int
	compression   int
	photometric   int
	planar        int
	predictor     int
	extraSamples  []uint16
	sampleFormat  int
	offsets       []uint64
	counts        []uint64
	jpegTables    []byte
	description   string
	make, model   string
	software      string
	datetime      string
	xres, yres    float64
	resUnit       int
	subIFDs       []uint64
	ndpi          bool
	subs          []*ifd
}

type entry struct {
	tag, typ uint16
	count    uint64
	raw      []byte // inline value field (4 or 8 bytes)
}

var typeSize = map[uint16]uint64{1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8}

func (t *tiffFile) readAt(p []byte, off uint64) error {
	if off > uint64(t.size) || uint64(len(p)) > uint64(t.size)-off {
		return errTruncated
	}
	n, err := t.r.ReadAt(p, int64(off))
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = errTruncated
	}
	return err
}

// parseTIFF reads the header and every IFD of the main chain plus SubIFDs.
func parseTIFF(r io.ReaderAt, size int64) (*tiffFile, error) {
	t := &tiffFile{r: r, size: size, loaded: map[uint64]bool{}}
	var hdr [16]byte
	if size < 8 {
		return nil, errTruncated
	}
	n := 16
	if size < 16 {
		n = 8
	}
	if err := t.readAt(hdr[:n], 0); err != nil {
		return nil, err
	}
	switch string(hdr[:2]) {
	case "II":
		t.order = binary.LittleEndian
	case "MM":
		t.order = binary.BigEndian
	default:
		return nil, fmt.Errorf("not a TIFF file")
	}
	var next uint64
	switch t.order.Uint16(hdr[2:]) {
	case 42:
		next = uint64(t.order.Uint32(hdr[4:]))
	case 43:
		if n < 16 || t.order.Uint16(hdr[4:]) != 8 || t.order.Uint16(hdr[6:]) != 0 {
			return nil, fmt.Errorf("bad BigTIFF header")
		}
		t.big = true
		next = t.order.Uint64(hdr[8:])
	default:
		return nil, fmt.Errorf("not a TIFF file")
	}
	for next != 0 {
		d, nxt, err := t.readIFD(next)
		if err != nil {
			return nil, fmt.Errorf("IFD %d at %d: %w", len(t.ifds), next, err)
		}
		t.ifds = append(t.ifds, d)
		next = nxt
	}
	if len(t.ifds) == 0 {
		return nil, fmt.Errorf("TIFF has no images")
	}
	for _, d := range t.ifds {
		for _, off := range d.subIFDs {
			s, _, err := t.readIFD(off)
			if err != nil {
				return nil, fmt.Errorf("SubIFD at %d: %w", off, err)
			}
			d.subs = append(d.subs, s)
		}
	}
	return t, nil
}

func (t *tiffFile) readIFD(off uint64) (*ifd, uint64, error) {
	if t.loaded[off] {
		return nil, 0, fmt.Errorf("IFD loop")
	}
	t.loaded[off] = true
	t.nIFD++
	if t.nIFD > maxIFDs {
		return nil, 0, fmt.Errorf("more than %d IFDs", maxIFDs)
	}
	countSize, entrySize, ptrSize := uint64(2), uint64(12), uint64(4)
	if t.big {
		countSize, entrySize, ptrSize = 8, 20, 8
	}
	var cb [8]byte
	if err := t.readAt(cb[:countSize], off); err != nil {
		return nil, 0, err
	}
	var n uint64
	if t.big {
		n = t.order.Uint64(cb[:])
	} else {
		n = uint64(t.order.Uint16(cb[:]))
	}
	if n == 0 || n > maxIFDEntries {
		return nil, 0, fmt.Errorf("bad IFD entry count %d", n)
	}
	buf := make([]byte, n*entrySize+ptrSize)
	if err := t.readAt(buf, off+countSize); err != nil {
		return nil, 0, err
	}
	d := &ifd{offset: off, spp: 1, compression: 1, planar: 1, predictor: 1, resUnit: 2}
	for i := uint64(0); i < n; i++ {
		b := buf[i*entrySize:]
		e := entry{tag: t.order.Uint16(b), typ: t.order.Uint16(b[2:])}
		if t.big {
			e.count = t.order.Uint64(b[4:])
			e.raw = b[12:20]
		} else {
			e.count = uint64(t.order.Uint32(b[4:]))
			e.raw = b[8:12]
		}
		if err := t.setField(d, e); err != nil {
			return nil, 0, fmt.Errorf("tag %d: %w", e.tag, err)
		}
	}
	var next uint64
	if t.big {
		next = t.order.Uint64(buf[n*entrySize:])
	} else {
		next = uint64(t.order.Uint32(buf[n*entrySize:]))
	}
	return d, next, nil
}
