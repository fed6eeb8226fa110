package slidegen

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// field is one TIFF tag to write.
type field struct {
	tag  uint16
	typ  uint16 // 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED, 16 LONG8
	u    []uint64
	b    []byte  // ASCII (NUL added) or UNDEFINED
	r    float64 // RATIONAL
	subs []int   // SubIFDs: indexes into the writer's IFD list
}

type ifdSpec struct {
	fields []field
	inMain bool // part of the main chain (false for SubIFDs)
}

// tiffWriter streams image data, then lays out all IFDs at the end.
type tiffWriter struct {
	w     io.WriterAt
	order binary.ByteOrder
	big   bool
	pos   int64
	ifds  []*ifdSpec
}

func newTIFFWriter(w io.WriterAt, big, bigEndian bool) (*tiffWriter, error) {
	t := &tiffWriter{w: w, order: binary.LittleEndian, big: big}
	if bigEndian {
		t.order = binary.BigEndian
	}
	hdr := make([]byte, 8)
	if big {
		hdr = make([]byte, 16)
	}
	if bigEndian {
		copy(hdr, "MM")
	} else {
		copy(hdr, "II")
	}
	if big {
		t.order.PutUint16(hdr[2:], 43)
		t.order.PutUint16(hdr[4:], 8)
	} else {
		t.order.PutUint16(hdr[2:], 42)
	}
	return t, t.write(hdr)
}

func (t *tiffWriter) write(p []byte) error {
	_, err := t.w.WriteAt(p, t.pos)
	t.pos += int64(len(p))
	return err
}

// data writes a blob (tile, strip, tables) and returns its offset.
func (t *tiffWriter) data(p []byte) (int64, error) {
	if t.pos%2 == 1 {
		if err := t.write([]byte{0}); err != nil {
			return 0, err
		}
	}
	off := t.pos
	return off, t.write(p)
}

func (t *tiffWriter) offsetType() uint16 {
	if t.big {
		return 16
	}
	return 4
}

func (t *tiffWriter) entrySizes() (count, entry, ptr, inline int) {
	if t.big {
		return 8, 20, 8, 8
	}
	return 2, 12, 4, 4
}

func (f field) payload(order binary.ByteOrder, big bool, ifdOff []int64) []byte {
	switch f.typ {
	case 2:
		return append(append([]byte{}, f.b...), 0)
	case 7:
		return f.b
	case 5:
		p := make([]byte, 8)
		order.PutUint32(p, uint32(math.Round(f.r*1000)))
		order.PutUint32(p[4:], 1000)
		return p
	}
	vals := f.u
	if f.subs != nil {
		vals = nil
		for _, i := range f.subs {
			vals = append(vals, uint64(ifdOff[i]))
		}
	}
	size := map[uint16]int{3: 2, 4: 4, 16: 8}[f.typ]
	p := make([]byte, size*len(vals))
	for i, v := range vals {
		switch size {
		case 2:
			order.PutUint16(p[2*i:], uint16(v))
		case 4:
			order.PutUint32(p[4*i:], uint32(v))
		case 8:
			order.PutUint64(p[8*i:], v)
		}
	}
	return p
}

func (f field) count() int {
	switch {
	case f.typ == 2:
		return len(f.b) + 1
	case f.typ == 7:
		return len(f.b)
	case f.typ == 5:
		return 1
	case f.subs != nil:
		return len(f.subs)
	}
	return len(f.u)
}

// finish writes every IFD, links the main chain and patches the header.
func (t *tiffWriter) finish() error {
	if t.pos%2 == 1 {
		if err := t.write([]byte{0}); err != nil {
			return err
		}
	}
	cs, es, ps, inline := t.entrySizes()
	// Pass 1: offsets of each IFD block (entries followed by its out-of-line values).
	offs := make([]int64, len(t.ifds))
	pos := t.pos
	for i, d := range t.ifds {
		offs[i] = pos
		size := int64(cs + es*len(d.fields) + ps)
		for _, f := range d.fields {
			if n := len(f.payload(t.order, t.big, make([]int64, len(t.ifds)))); n > inline {
				size += int64(n+1) &^ 1
			}
		}
		pos += size
	}
	var mainChain []int
	for i, d := range t.ifds {
		if d.inMain {
			mainChain = append(mainChain, i)
		}
	}
	next := map[int]int64{}
	for k, i := range mainChain {
		if k+1 < len(mainChain) {
			next[i] = offs[mainChain[k+1]]
		}
	}
	for i, d := range t.ifds {
		buf := make([]byte, cs+es*len(d.fields)+ps)
		ext := []byte{}
		extBase := offs[i] + int64(len(buf))
		if t.big {
			t.order.PutUint64(buf, uint64(len(d.fields)))
		} else {
			t.order.PutUint16(buf, uint16(len(d.fields)))
		}
		for k, f := range d.fields {
			e := buf[cs+es*k:]
			t.order.PutUint16(e, f.tag)
			typ := f.typ
			if f.subs != nil {
				typ = t.offsetType()
			}
			t.order.PutUint16(e[2:], typ)
			val := e[4+ps:]
			if t.big {
				t.order.PutUint64(e[4:], uint64(f.count()))
				val = e[12:]
			} else {
				t.order.PutUint32(e[4:], uint32(f.count()))
				val = e[8:]
			}
			p := f.payload(t.order, t.big, offs)
			if len(p) <= inline {
				copy(val, p)
				continue
			}
			off := extBase + int64(len(ext))
			if t.big {
				t.order.PutUint64(val, uint64(off))
			} else {
				t.order.PutUint32(val, uint32(off))
			}
			ext = append(ext, p...)
			if len(ext)%2 == 1 {
				ext = append(ext, 0)
			}
		}
		tail := buf[cs+es*len(d.fields):]
		if t.big {
			t.order.PutUint64(tail, uint64(next[i]))
		} else {
			t.order.PutUint32(tail, uint32(next[i]))
		}
		if t.pos != offs[i] {
			return fmt.Errorf("tiff layout mismatch at IFD %d", i)
		}
		if err := t.write(append(buf, ext...)); err != nil {
			return err
		}
	}
	if len(mainChain) == 0 {
		return fmt.Errorf("no images")
	}
	first := offs[mainChain[0]]
	p := make([]byte, ps)
	if t.big {
		t.order.PutUint64(p, uint64(first))
		_, err := t.w.WriteAt(p, 8)
		return err
	}
	if first > math.MaxUint32 {
		return fmt.Errorf("classic TIFF larger than 4 GB: use BigTIFF")
	}
	t.order.PutUint32(p, uint32(first))
	_, err := t.w.WriteAt(p, 4)
	return err
}
