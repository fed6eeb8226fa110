package slideserver

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"testing"

	"telepath/internal/platform/apperr"
)

// An image file is stamped in its pixels and keeps its size; its bytes are
// left alone; a header claiming too many pixels is refused before any
// pixel is decoded, a malformed image as unreadable.
func TestStampImage(t *testing.T) {
	var s Server
	src := tissue(t, 700, 500)
	keep := bytes.Clone(src)
	out, format, err := s.StampImage(src, testMark)
	if err != nil || format != "jpeg" {
		t.Fatalf("%v %s", err, format)
	}
	if !bytes.Equal(src, keep) {
		t.Fatal("the original bytes changed")
	}
	orig, _, _ := image.Decode(bytes.NewReader(src))
	got, _, err := image.Decode(bytes.NewReader(out))
	if err != nil || got.Bounds() != orig.Bounds() {
		t.Fatalf("stamped: %v", err)
	}
	var buf bytes.Buffer
	png.Encode(&buf, orig) //nolint:errcheck
	if _, format, err := s.StampImage(buf.Bytes(), testMark); err != nil || format != "png" {
		t.Fatalf("png: %v %s", err, format)
	}
	// The PNG's signature and header, claiming 65536×65536 pixels.
	bomb := append(bytes.Clone(buf.Bytes()[:16]), 0, 1, 0, 0, 0, 1, 0, 0, 8, 6, 0, 0, 0)
	bomb = binary.BigEndian.AppendUint32(bomb, crc32.ChecksumIEEE(bomb[12:]))
	if _, _, err := s.StampImage(bomb, testMark); apperr.CodeOf(err) != apperr.TooLarge {
		t.Errorf("bomb: %v", err)
	}
	if _, _, err := s.StampImage(src[:200], testMark); apperr.CodeOf(err) != apperr.Invalid {
		t.Errorf("truncated: %v", err)
	}
	if _, _, err := s.StampImage([]byte("not an image at all"), testMark); apperr.CodeOf(err) != apperr.Invalid {
		t.Errorf("text: %v", err)
	}
}
