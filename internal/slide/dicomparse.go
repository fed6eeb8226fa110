package slide

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A minimal DICOM reader: it walks the data set of one instance, hands
// the small values it is asked for to a visitor, and records where the
// pixel data starts, so frames can later be read with pread. It never
// loads pixel data or large values into memory.

const (
	tagItem          = 0xFFFEE000
	tagItemDelim     = 0xFFFEE00D
	tagSeqDelim      = 0xFFFEE0DD
	tagPixelData     = 0x7FE00010
	tagTransferSyn   = 0x00020010
	undefinedLength  = 0xFFFFFFFF
	maxDICOMDepth    = 8
	maxDICOMValue    = 64 << 10 // larger non-pixel values are skipped
	maxDICOMElements = 1 << 24  // elements visited in one instance, sequences included
)

var errDICOM = errors.New("corrupt DICOM file")

// dcmVisitor receives element values. path lists the enclosing sequence
// tags; item is called at the start of each sequence item.
type dcmVisitor struct {
	want  func(path []uint32, tag uint32) bool
	value func(path []uint32, tag uint32, val []byte)
	item  func(path []uint32)
}

type dcmParser struct {
	r        *bufio.Reader
	pos      int64
	end      int64
	explicit bool
	v        dcmVisitor
	elements int
	path     []uint32
	// Pixel data, when found at the top level.
	pixelPos    int64 // offset of its value
	pixelLen    uint32
	pixelFound  bool
	transferSyn string
}

// implicitSQ lists the sequences the reader descends into when the
// transfer syntax has no VRs.
var implicitSQ = map[uint32]bool{0x52009229: true, 0x52009230: true, 0x00289110: true, 0x0048021A: true, 0x00480105: true}

func (p *dcmParser) read(b []byte) error {
	if int64(len(b)) > p.end-p.pos {
		return errDICOM
	}
	n, err := io.ReadFull(p.r, b)
	p.pos += int64(n)
	if err != nil {
		return errDICOM
	}
	return nil
}

func (p *dcmParser) skip(n int64) error {
	if n < 0 || n > p.end-p.pos {
		return errDICOM
	}
	for n > 0 {
		k := int(min(n, 1<<30))
		d, err := p.r.Discard(k)
		p.pos += int64(d)
		n -= int64(d)
		if err != nil {
			return errDICOM
		}
	}
	return nil
}

// header reads one element header.
func (p *dcmParser) header(explicit bool) (tag uint32, vr string, length uint32, err error) {
	var b [8]byte
	if err = p.read(b[:]); err != nil {
		return
	}
	tag = uint32(binary.LittleEndian.Uint16(b[0:]))<<16 | uint32(binary.LittleEndian.Uint16(b[2:]))
	if tag>>16 == 0xFFFE || !explicit {
		return tag, "", binary.LittleEndian.Uint32(b[4:]), nil
	}
	vr = string(b[4:6])
	switch vr {
	case "OB", "OD", "OF", "OL", "OV", "OW", "SQ", "UC", "UR", "UT", "UN", "SV", "UV":
		var l [4]byte
		if err = p.read(l[:]); err != nil {
			return
		}
		return tag, vr, binary.LittleEndian.Uint32(l[:]), nil
	}
	return tag, vr, uint32(binary.LittleEndian.Uint16(b[6:])), nil
}

// dataset parses elements until end (a byte offset) or an item delimiter.
func (p *dcmParser) dataset(end int64, top bool) error {
	for p.pos < end {
		if p.elements++; p.elements > maxDICOMElements {
			return fmt.Errorf("%w: too many elements", errDICOM)
		}
		explicit := p.explicit
		if top && p.inMeta() {
			explicit = true
		}
		tag, vr, length, err := p.header(explicit)
		if err != nil {
			return err
		}
		if tag == tagItemDelim {
			return nil
		}
		if top && tag>>16 != 2 && p.transferSyn == "" {
			return fmt.Errorf("%w: no transfer syntax", errDICOM)
		}
		if tag == tagPixelData && top {
			p.pixelFound, p.pixelPos, p.pixelLen = true, p.pos, length
			return nil
		}
		if vr == "SQ" || (vr == "" && (implicitSQ[tag] || length == undefinedLength)) || (vr == "UN" && length == undefinedLength) {
			if err := p.sequence(tag, length); err != nil {
				return err
			}
			continue
		}
		if length == undefinedLength {
			return fmt.Errorf("%w: undefined length for %08X", errDICOM, tag)
		}
		if length <= maxDICOMValue && (tag == tagTransferSyn || p.v.want(p.path, tag)) {
			val := make([]byte, length)
			if err := p.read(val); err != nil {
				return err
			}
			if tag == tagTransferSyn {
				p.transferSyn = trimDICOM(val)
				p.explicit = p.transferSyn != "1.2.840.10008.1.2"
			}
			p.v.value(p.path, tag, val)
			continue
		}
		if err := p.skip(int64(length)); err != nil {
			return err
		}
	}
	return nil
}

// inMeta reports whether the next element is in the file meta group,
// which is always explicit VR little endian.
func (p *dcmParser) inMeta() bool {
	if p.transferSyn == "" {
		return true
	}
	b, err := p.r.Peek(2)
	return err == nil && binary.LittleEndian.Uint16(b) == 2
}

func (p *dcmParser) sequence(tag uint32, length uint32) error {
	if len(p.path) >= maxDICOMDepth {
		return fmt.Errorf("%w: sequences nested too deep", errDICOM)
	}
	end := p.end
	if length != undefinedLength {
		if int64(length) > p.end-p.pos {
			return errDICOM
		}
		end = p.pos + int64(length)
	}
	p.path = append(p.path, tag)
	defer func() { p.path = p.path[:len(p.path)-1] }()
	for p.pos < end {
		if p.elements++; p.elements > maxDICOMElements {
			return fmt.Errorf("%w: too many elements", errDICOM)
		}
		itag, _, ilen, err := p.header(false)
		if err != nil {
			return err
		}
		switch itag {
		case tagSeqDelim:
			return nil
		case tagItem:
		default:
			return fmt.Errorf("%w: expected item, got %08X", errDICOM, itag)
		}
		if p.v.item != nil {
			p.v.item(p.path)
		}
		iend := end
		if ilen != undefinedLength {
			if int64(ilen) > end-p.pos {
				return errDICOM
			}
			iend = p.pos + int64(ilen)
		}
		if err := p.dataset(iend, false); err != nil {
			return err
		}
	}
	return nil
}

// trimDICOM strips the padding of a string value.
func trimDICOM(b []byte) string {
	for len(b) > 0 && (b[len(b)-1] == 0 || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	return string(b)
}

// parseDICOM walks one instance file.
func parseDICOM(r io.ReaderAt, size int64, v dcmVisitor) (*dcmParser, error) {
	var pre [132]byte
	if size < 132 {
		return nil, errDICOM
	}
	if _, err := r.ReadAt(pre[:], 0); err != nil || string(pre[128:]) != "DICM" {
		return nil, fmt.Errorf("%w: no DICM prefix", errDICOM)
	}
	p := &dcmParser{r: bufio.NewReaderSize(io.NewSectionReader(r, 132, size-132), 64<<10), pos: 132, end: size, explicit: true, v: v}
	if err := p.dataset(size, true); err != nil {
		return nil, err
	}
	return p, nil
}
