package tiles

import (
	"errors"
	"testing"
)

// FuzzParseIIIF checks that any request either parses into a bounded,
// non-empty output inside the image or fails as a bad request.
func FuzzParseIIIF(f *testing.F) {
	f.Add("full", "max", "0", "default", "jpg")
	f.Add("pct:10,20,30,40", "!100,100", "!90", "gray", "png")
	f.Add("0,0,256,256", "^512,", "270", "color", "jpg")
	f.Fuzz(func(t *testing.T, region, size, rotation, quality, format string) {
		const W, H, M = 40000, 30000, 4096
		q, err := parseIIIF(region, size, rotation, quality, format, W, H, M)
		if err != nil {
			if !errors.Is(err, ErrBadRequest) {
				t.Fatalf("error %v is not a bad request", err)
			}
			return
		}
		if q.x < 0 || q.y < 0 || q.w <= 0 || q.h <= 0 || q.x+q.w > W || q.y+q.h > H {
			t.Fatalf("region %+v outside the image", q)
		}
		if q.ow <= 0 || q.oh <= 0 || q.ow > M || q.oh > M {
			t.Fatalf("output %dx%d out of bounds", q.ow, q.oh)
		}
	})
}
