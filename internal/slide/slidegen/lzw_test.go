package slidegen

import (
	"bytes"
	"io"
	"math/rand"
	"testing"

	"golang.org/x/image/tiff/lzw"
)

func TestLZWRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 2, 255, 256, 257, 510, 511, 1000, 5000, 100000} {
		for _, alphabet := range []int{2, 16, 256} {
			p := make([]byte, n)
			for i := range p {
				p[i] = byte(r.Intn(alphabet))
			}
			zr := lzw.NewReader(bytes.NewReader(lzwEncode(p)), lzw.MSB, 8)
			got, err := io.ReadAll(zr)
			if err != nil {
				t.Fatalf("n=%d alphabet=%d: %v", n, alphabet, err)
			}
			if !bytes.Equal(got, p) {
				t.Fatalf("n=%d alphabet=%d: round trip differs", n, alphabet)
			}
		}
	}
}
