package shots

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"telepath/internal/platform/apperr"
)

func TestCheckShot(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	if ct, err := checkShot(buf.Bytes()); err != nil || ct != "image/png" {
		t.Fatalf("a PNG: %q, %v", ct, err)
	}
	for name, b := range map[string][]byte{
		"empty":     nil,
		"not image": []byte("GIF89a, or anything else"),
		"too large": make([]byte, MaxShotBytes+1),
	} {
		if _, err := checkShot(b); !apperr.Is(err, "error.validation") {
			t.Errorf("%s: %v, want a validation error", name, err)
		}
	}
}
