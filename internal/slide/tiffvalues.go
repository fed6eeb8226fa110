package slide

import (
	"fmt"
	"math"
)

// value returns the bytes of an entry's value, inline or at its offset.
func (t *tiffFile) value(e entry, limit uint64) ([]byte, error) {
	return t.valuePrefix(e, limit, e.count)
}

// valuePrefix returns the bytes of the first n items of an entry's value.
func (t *tiffFile) valuePrefix(e entry, limit, n uint64) ([]byte, error) {
	sz, ok := typeSize[e.typ]
	if !ok {
		return nil, nil // unknown type: ignore the tag
	}
	if e.count > math.MaxUint64/sz {
		return nil, fmt.Errorf("bad value count %d", e.count)
	}
	n = min(n, e.count)
	if n > limit/sz {
		return nil, fmt.Errorf("value too large (%d items)", e.count)
	}
	total := n * sz
	if e.count*sz <= uint64(len(e.raw)) {
		return e.raw[:total], nil
	}
	var off uint64
	if t.big {
		off = t.order.Uint64(e.raw)
	} else {
		off = uint64(t.order.Uint32(e.raw))
	}
	if off > uint64(t.size) || total > uint64(t.size)-off {
		return nil, errTruncated // checked before allocating
	}
	p := make([]byte, total)
	if err := t.readAt(p, off); err != nil {
		return nil, err
	}
	return p, nil
}

// uints decodes an integer-typed entry into uint64s.
func (t *tiffFile) uints(e entry, maxCount uint64) ([]uint64, error) {
	if e.count > maxCount {
		return nil, fmt.Errorf("too many values (%d)", e.count)
	}
	b, err := t.value(e, maxCount*8)
	if err != nil {
		return nil, err
	}
	out := make([]uint64, e.count)
	for i := range out {
		switch e.typ {
		case 1, 6, 7:
			out[i] = uint64(b[i])
		case 3, 8:
			out[i] = uint64(t.order.Uint16(b[2*i:]))
		case 4, 9, 13:
			out[i] = uint64(t.order.Uint32(b[4*i:]))
		case 16, 17, 18:
			out[i] = t.order.Uint64(b[8*i:])
		default:
			return nil, fmt.Errorf("type %d is not an integer", e.typ)
		}
	}
	return out, nil
}

func (t *tiffFile) uint1(e entry) (uint64, error) {
	if e.count == 0 {
		return 0, fmt.Errorf("empty value")
	}
	b, err := t.valuePrefix(e, 8, 1)
	if err != nil {
		return 0, err
	}
	switch e.typ {
	case 1, 6, 7:
		return uint64(b[0]), nil
	case 3, 8:
		return uint64(t.order.Uint16(b)), nil
	case 4, 9, 13:
		return uint64(t.order.Uint32(b)), nil
	case 16, 17, 18:
		return t.order.Uint64(b), nil
	}
	return 0, fmt.Errorf("type %d is not an integer", e.typ)
}

func (t *tiffFile) rational(e entry) (float64, error) {
	if e.count == 0 {
		return 0, nil
	}
	b, err := t.valuePrefix(e, 8, 1)
	if err != nil || b == nil {
		return 0, err
	}
	switch e.typ {
	case 5, 10:
		num, den := t.order.Uint32(b), t.order.Uint32(b[4:])
		if den == 0 {
			return 0, nil
		}
		if e.typ == 10 {
			return float64(int32(num)) / float64(int32(den)), nil
		}
		return float64(num) / float64(den), nil
	case 11:
		return float64(math.Float32frombits(t.order.Uint32(b))), nil
	case 12:
		return math.Float64frombits(t.order.Uint64(b)), nil
	case 3, 4:
		v, err := t.uint1(e)
		return float64(v), err
	}
	return 0, nil
}

func (t *tiffFile) ascii(e entry) (string, error) {
	b, err := t.value(e, maxTagBytes)
	if err != nil {
		return "", err
	}
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return string(b), nil
}

func (t *tiffFile) intField(e entry, limit uint64) (int, error) {
	v, err := t.uint1(e)
	if err != nil {
		return 0, err
	}
	if v > limit {
		return 0, fmt.Errorf("value %d out of range", v)
	}
	return int(v), nil
}

func (t *tiffFile) setField(d *ifd, e entry) error {
	var err error
	switch e.tag {
	case tagNewSubfileType:
		var v uint64
		v, err = t.uint1(e)
		d.subfileType = uint32(v)
	case tagImageWidth:
		d.width, err = t.intField(e, maxDimension)
	case tagImageLength:
		d.height, err = t.intField(e, maxDimension)
	case tagTileWidth:
		d.tileW, err = t.intField(e, maxTileDimension)
	case tagTileLength:
		d.tileH, err = t.intField(e, maxTileDimension)
	case tagRowsPerStrip:
		var v uint64
		v, err = t.uint1(e)
		d.rowsPerStrip = int(min(v, maxDimension))
	case tagBitsPerSample:
		var v []uint64
		v, err = t.uints(e, 16)
		d.bits = d.bits[:0]
		for _, x := range v {
			d.bits = append(d.bits, uint16(min(x, 64)))
		}
	case tagSamplesPerPixel:
		d.spp, err = t.intField(e, 16)
	case tagCompression:
		d.compression, err = t.intField(e, 65535)
	case tagPhotometric:
		d.photometric, err = t.intField(e, 65535)
	case tagPlanarConfig:
		d.planar, err = t.intField(e, 65535)
	case tagPredictor:
		d.predictor, err = t.intField(e, 65535)
	case tagSampleFormat:
		d.sampleFormat, err = t.intField(e, 65535)
	case tagResolutionUnit:
		d.resUnit, err = t.intField(e, 65535)
	case tagExtraSamples:
		var v []uint64
		v, err = t.uints(e, 16)
		for _, x := range v {
			d.extraSamples = append(d.extraSamples, uint16(min(x, 3)))
		}
	case tagStripOffsets, tagTileOffsets:
		d.offsets, err = t.uints(e, maxChunks)
	case tagStripByteCounts, tagTileByteCounts:
		d.counts, err = t.uints(e, maxChunks)
	case tagSubIFDs:
		d.subIFDs, err = t.uints(e, 64)
	case tagJPEGTables:
		d.jpegTables, err = t.value(e, maxTagBytes)
	case tagImageDescription:
		d.description, err = t.ascii(e)
	case tagMake:
		d.make, err = t.ascii(e)
	case tagModel:
		d.model, err = t.ascii(e)
	case tagSoftware:
		d.software, err = t.ascii(e)
	case tagDateTime:
		d.datetime, err = t.ascii(e)
	case tagXResolution:
		d.xres, err = t.rational(e)
	case tagYResolution:
		d.yres, err = t.rational(e)
	case tagNDPIMarker:
		d.ndpi = true
	}
	return err
}
