package slideserver

import (
	"bytes"
	"strconv"
	"testing"
)

// The cache gives back what it was given, drops the least recently used
// first and never holds more bytes than its bound.
func TestStampCache(t *testing.T) {
	c := stampCache{max: 10 << 10}
	page := func(n int) []byte { return bytes.Repeat([]byte{byte(n)}, 1000) }
	for i := range 5 {
		c.put(stampKey("t"+strconv.Itoa(i), testMark, 256), page(i), "s"+strconv.Itoa(i))
	}
	if b, tag, ok := c.get(stampKey("t0", testMark, 256)); !ok || tag != "s0" || !bytes.Equal(b, page(0)) {
		t.Fatalf("t0: %v %q", ok, tag)
	}
	if _, _, ok := c.get(stampKey("t0", "other text", 256)); ok {
		t.Fatal("another text's stamp given back")
	}
	for i := 5; i < 20; i++ { // t0 was used last of the first five: it stays longest
		c.put(stampKey("t"+strconv.Itoa(i), testMark, 256), page(i), "s"+strconv.Itoa(i))
		if c.bytes > c.max {
			t.Fatalf("%d bytes held, bound %d", c.bytes, c.max)
		}
	}
	if _, _, ok := c.get(stampKey("t1", testMark, 256)); ok {
		t.Error("t1, least recently used, still held")
	}
	if _, _, ok := c.get(stampKey("t19", testMark, 256)); !ok {
		t.Error("t19, the newest, dropped")
	}
	c.put("big", make([]byte, 2<<10), "x") // over an eighth of the bound
	if _, _, ok := c.get("big"); ok {
		t.Error("an image over an eighth of the bound is kept")
	}
}

// A stamped tile is drawn once: the second request gets the same bytes.
func TestStampCached(t *testing.T) {
	var c markCache
	src := tissue(t, 256, 256)
	a, tagA, err := c.stamp(src, `"t1"`, testMark, 256)
	if err != nil {
		t.Fatal(err)
	}
	b, tagB, _ := c.stamp(src, `"t1"`, testMark, 256)
	if &a[0] != &b[0] || tagA != tagB {
		t.Error("stamped again")
	}
	if d, _, _ := c.stamp(src, `"t1"`, "another mark", 256); bytes.Equal(d, a) {
		t.Error("another text gave the same image")
	}
}
