package slide

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

func (in *dcmInstance) nativeFrames(pos int64, length uint32, bits, planar string) error {
	if atoiDICOM(bits) != 8 || atoiDICOM(planar) != 0 {
		return unsupported("dicom", "native pixel data other than 8-bit interleaved")
	}
	if in.photometric != "RGB" && in.photometric != "MONOCHROME2" || in.spp != 3 && in.spp != 1 {
		return unsupported("dicom", "native photometric "+in.photometric)
	}
	fs := int64(in.tileW) * int64(in.tileH) * int64(in.spp)
	if length == undefinedLength || fs*int64(in.frames) > int64(length) || pos+int64(length) > in.size {
		return fmt.Errorf("%w: pixel data too short", errDICOM)
	}
	for i := range in.frames {
		in.frameOff = append(in.frameOff, pos+int64(i)*fs)
		in.frameLen = append(in.frameLen, fs)
	}
	return nil
}

// scanFragments reads the item headers of encapsulated pixel data and maps
// fragments to frames (by the basic offset table, or one per frame).
func (in *dcmInstance) scanFragments(r io.ReaderAt, pos int64, length uint32) error {
	if length != undefinedLength {
		return fmt.Errorf("%w: encapsulated pixel data with defined length", errDICOM)
	}
	var hdr [8]byte
	var bot []uint32
	var fragOff, fragLen []int64
	first := true
	var base int64
	for {
		if pos+8 > in.size {
			return fmt.Errorf("%w: truncated pixel data", errDICOM)
		}
		if _, err := r.ReadAt(hdr[:], pos); err != nil {
			return fmt.Errorf("%w: %v", errDICOM, err)
		}
		tag := uint32(binary.LittleEndian.Uint16(hdr[0:]))<<16 | uint32(binary.LittleEndian.Uint16(hdr[2:]))
		n := int64(binary.LittleEndian.Uint32(hdr[4:]))
		if tag == tagSeqDelim {
			break
		}
		if tag != tagItem || n > in.size-pos-8 {
			return fmt.Errorf("%w: bad pixel data item", errDICOM)
		}
		if first {
			first = false
			base = pos + 8 + n
			if n%4 != 0 || n/4 > int64(maxChunks) {
				return fmt.Errorf("%w: bad offset table", errDICOM)
			}
			buf := make([]byte, n)
			if _, err := r.ReadAt(buf, pos+8); err != nil {
				return fmt.Errorf("%w: %v", errDICOM, err)
			}
			for i := 0; i < len(buf); i += 4 {
				bot = append(bot, binary.LittleEndian.Uint32(buf[i:]))
			}
		} else {
			if len(fragOff) >= 4*maxChunks {
				return fmt.Errorf("%w: too many fragments", errDICOM)
			}
			fragOff = append(fragOff, pos)
			fragLen = append(fragLen, n)
		}
		pos += 8 + n
	}
	switch {
	case len(fragOff) == in.frames:
		for i := range fragOff {
			in.frameOff = append(in.frameOff, fragOff[i]+8)
			in.frameLen = append(in.frameLen, fragLen[i])
		}
	case len(bot) == in.frames || in.frames == 1:
		if in.frames == 1 {
			bot = []uint32{0}
		}
		in.frameFrags = make([][]int64, in.frames)
		k := 0
		for i := range in.frames {
			start := base + int64(bot[i])
			end := int64(math.MaxInt64)
			if i+1 < in.frames {
				end = base + int64(bot[i+1])
			}
			for k < len(fragOff) && fragOff[k] < start {
				k++
			}
			for k < len(fragOff) && fragOff[k] < end {
				in.frameFrags[i] = append(in.frameFrags[i], fragOff[k]+8, fragLen[k])
				k++
			}
		}
	default:
		return fmt.Errorf("%w: %d fragments for %d frames", errDICOM, len(fragOff), in.frames)
	}
	return nil
}

// frame appends frame i to dst behind len(prefix)-2 bytes of room (for the
// caller's JPEG prefix); ok is false if the frame is empty.
func (in *dcmInstance) frame(dst []byte, i int, prefix []byte) (out []byte, ok bool, err error) {
	p := max(len(prefix)-2, 0)
	start := len(dst)
	if in.frameFrags != nil {
		var total int64
		for k := 1; k < len(in.frameFrags[i]); k += 2 {
			total += in.frameFrags[i][k]
		}
		if total == 0 {
			return dst, false, nil
		}
		if total > maxChunkBytes {
			return dst, false, fmt.Errorf("frame %d too large", i)
		}
		out = grow(dst, p+int(total))
		at := start + p
		for k := 0; k+1 < len(in.frameFrags[i]); k += 2 {
			n := int(in.frameFrags[i][k+1])
			if _, err := in.r.ReadAt(out[at:at+n], in.frameFrags[i][k]); err != nil {
				return dst, false, fmt.Errorf("read frame %d: %w", i, err)
			}
			at += n
		}
		return out, true, nil
	}
	n := in.frameLen[i]
	if n == 0 {
		return dst, false, nil
	}
	if n > maxChunkBytes {
		return dst, false, fmt.Errorf("frame %d too large", i)
	}
	out = grow(dst, p+int(n))
	if _, err := in.r.ReadAt(out[start+p:], in.frameOff[i]); err != nil {
		return dst, false, fmt.Errorf("read frame %d: %w", i, err)
	}
	return out, true, nil
}
