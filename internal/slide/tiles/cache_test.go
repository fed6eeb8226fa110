package tiles

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "tiles-test") }

func TestMemCacheBound(t *testing.T) {
	c := newMemCache(64 << 10)
	for i := range 1000 {
		c.put(fmt.Sprint("k", i), make([]byte, 1000))
		if n := c.bytes(); n > 64<<10 {
			t.Fatalf("cache holds %d bytes", n)
		}
	}
	if _, ok := c.get("k999"); !ok {
		t.Error("newest item evicted")
	}
	if _, ok := c.get("k0"); ok {
		t.Error("oldest item kept")
	}
}

func TestDiskCacheBound(t *testing.T) {
	dir := t.TempDir()
	c, err := openDiskCache(dir, 20000)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		c.put(fmt.Sprint("k", i), make([]byte, 1000))
	}
	if total := dirBytes(t, dir); total > 20000 || c.size != total {
		t.Errorf("disk cache holds %d bytes (accounted %d)", total, c.size)
	}
	if b, ok := c.get("k99"); !ok || len(b) != 1000 {
		t.Error("newest item missing")
	}
	if _, ok := c.get("k0"); ok {
		t.Error("oldest item kept")
	}
	// A new cache adopts the files and trims to its smaller limit.
	c2, err := openDiskCache(dir, 5000)
	if err != nil {
		t.Fatal(err)
	}
	if total := dirBytes(t, dir); total > 5000 || c2.size != total || total == 0 {
		t.Errorf("reopened cache holds %d bytes (accounted %d)", total, c2.size)
	}
}

func dirBytes(t *testing.T, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, _ := d.Info()
			n += info.Size()
		}
		return nil
	})
	return n
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range []string{fixtureDir, benchDir} {
		if d != "" {
			os.RemoveAll(d)
		}
	}
	os.Exit(code)
}
