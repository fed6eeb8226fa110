package app_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"telepath/internal/app"
	"telepath/internal/platform/db/dbtest"
	"telepath/internal/platform/memprobe"
	"telepath/internal/slide/slidegen"
)

func hostileBytes(t testing.TB, h slidegen.Hostile) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "h.tif")
	if err := slidegen.WriteHostile(p, h); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru) //nolint:errcheck
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// get fetches url without failing the test (safe in other goroutines).
func get(url string) (int, error) {
	res, err := http.Get(url)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body) //nolint:errcheck
	return res.StatusCode, nil
}

// The crafted files of the security test (issue 18): a slide without a
// usable pyramid is refused with its reason; one in absurd tiles is shown.
// While they are uploaded and 64 clients request them, the whole server's
// heap stays bounded. Not parallel, so that the figure is this test's own.
func TestHostileSlidesUnderLoad(t *testing.T) {
	files := []struct {
		name    string
		h       slidegen.Hostile
		refused bool
	}{
		{"tile-bomb.tif", slidegen.TileBomb, true},
		{"deflate-bomb.tif", slidegen.DeflateBomb, true},
		{"pyramid-gap.tif", slidegen.PyramidGap, true},
		{"wide-tiles.tif", slidegen.WideTiles, false},
	}
	data := make([][]byte, len(files))
	for i, f := range files {
		data[i] = hostileBytes(t, f.h)
	}
	for _, dialect := range dbtest.Dialects() {
		t.Run(string(dialect), func(t *testing.T) {
			e := newEnv(t, dialect, nil)
			site := e.login("site")
			probe := memprobe.Start(0)
			ids := make([]int64, len(files))
			for i, f := range files {
				data := data[i]
				cpu := cpuTime()
				ids[i] = e.uploadAll(site, f.name, data)
				sl := e.waitSlide(site, ids[i])
				t.Logf("%s (%d bytes): upload and check took %v of CPU", f.name, len(data), (cpuTime() - cpu).Round(time.Millisecond))
				if f.refused {
					if sl.Status != 1 || sl.Viewable != 0 || sl.ErrorKey != "slide.no_pyramid" || !strings.Contains(sl.Error, "pyramid") {
						t.Fatalf("%s: %+v", f.name, sl)
					}
					r := e.expect(e.do("GET", "/api/slides/"+strconv.FormatInt(ids[i], 10)+"/viewer", site, nil, "user-language", "zh-CN"), 409)
					if !strings.Contains(message(r), "金字塔") {
						t.Fatalf("%s: viewer says %s", f.name, r.Body)
					}
				} else if sl.Status != 1 || sl.Viewable != 1 {
					t.Fatalf("%s: %+v", f.name, sl)
				}
			}
			// 64 clients each open every slide and request the thumbnail,
			// a low-resolution tile and a full-resolution tile of the
			// viewable one (each in a 48 MB chunk).
			var v struct{ Data viewerOut }
			e.decode(e.expect(e.do("GET", "/api/slides/"+strconv.FormatInt(ids[3], 10)+"/viewer", site, nil), 200), &v)
			files0 := e.srv.URL + strings.TrimSuffix(v.Data.DZIURL, ".dzi") + "_files/"
			_, _, cols, rows := gridOf(v.Data.Width, v.Data.Height, v.Data.TileSize)
			var wg sync.WaitGroup
			var mu sync.Mutex
			statuses := map[int]int{}
			cpu := cpuTime()
			for c := range 64 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					mine := []string{e.srv.URL + v.Data.ThumbnailURL, files0 + "8/0_0.jpeg"}
					n := c * 7 // a different full-resolution tile each
					mine = append(mine, fmt.Sprintf("%s%d/%d_%d.jpeg", files0, v.Data.MaxLevel, n%cols, (n/cols)%rows))
					for _, id := range ids[:3] {
						req, _ := http.NewRequest("GET", e.srv.URL+"/api/slides/"+strconv.FormatInt(id, 10)+"/viewer", nil)
						req.Header.Set("Authorization", "Bearer "+site)
						if res, err := http.DefaultClient.Do(req); err == nil {
							io.Copy(io.Discard, res.Body) //nolint:errcheck
							res.Body.Close()
							mu.Lock()
							statuses[res.StatusCode]++
							mu.Unlock()
						}
					}
					for _, u := range mine {
						code, err := get(u)
						if err != nil {
							code = -1
						}
						mu.Lock()
						statuses[code]++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			peak := probe.Stop()
			t.Logf("64 clients: %v of CPU; responses %v; peak heap in use %.0f MB, peak memory from the OS %.0f MB",
				(cpuTime() - cpu).Round(time.Millisecond), statuses, memprobe.MB(peak.HeapInuse), memprobe.MB(peak.Sys))
			if statuses[200] != 64*3 || statuses[409] != 64*3 || len(statuses) != 2 {
				t.Fatalf("responses: %v", statuses)
			}
			if peak.HeapInuse > 500<<20 {
				t.Fatalf("peak heap in use %.0f MB", memprobe.MB(peak.HeapInuse))
			}
		})
	}
}

// gridOf is the full-resolution Deep Zoom grid of a slide.
func gridOf(w, h int64, ts int) (int, int, int, int) {
	return int(w), int(h), int((w + int64(ts) - 1) / int64(ts)), int((h + int64(ts) - 1) / int64(ts))
}

// restart closes the server (with a hang detector) and starts it again on
// the same data directory and database.
func (e *env) restart(t *testing.T) *env {
	t.Helper()
	e.srv.Close()
	closed := make(chan struct{})
	go func() { e.app.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop: a background check ignores cancellation")
	}
	a, err := app.New(context.Background(), e.app.Config, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(func() { srv.Close(); a.Close() })
	return &env{t: t, app: a, srv: srv, pubKey: e.pubKey}
}

// A check cut short by a stop is retried at the next start, a bounded
// number of times; then the slide is failed with its reason. Stopping does
// not wait for a long check to finish.
func TestSlideCheckInterrupted(t *testing.T) {
	// 16 megapixels stored at full resolution only: allowed, but its
	// thumbnail decodes all 256 tiles, which takes a while.
	slow := hostileBytes(t, slidegen.Hostile{Width: 4096, Height: 4096, TileWidth: 256, TileHeight: 256, Compression: "jpeg"})
	small := genSlide(t, slidegen.Options{Width: 600, Height: 400, Seed: 4})
	eachDB(t, nil, func(t *testing.T, e *env) {
		site := e.login("site")
		id := e.uploadAll(site, "slow.tif", slow)
		for deadline := time.Now().Add(30 * time.Second); e.countAttempts(id) == 0; time.Sleep(2 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the check did not start")
			}
		}
		e = e.restart(t)
		sl := e.waitSlide(site, id)
		if sl.Status != 1 || sl.Viewable != 1 || e.countAttempts(id) != 2 {
			t.Fatalf("after a restart: %+v, %d attempts", sl, e.countAttempts(id))
		}

		// A slide whose check was started three times without finishing
		// (the process died each time) is failed at the next start.
		id2 := e.uploadAll(site, "stuck.tif", small)
		e.waitSlide(site, id2)
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE slides SET status = 2, check_attempts = 3 WHERE id = ?"), id2); err != nil {
			t.Fatal(err)
		}
		e = e.restart(t)
		sl = e.waitSlide(site, id2)
		var got struct{ Data slideOut }
		e.decode(e.expect(e.do("GET", "/api/slides/"+strconv.FormatInt(id2, 10), site, nil, "user-language", "en-US"), 200), &got)
		if sl.Status != 3 || sl.ErrorKey != "slide.check_failed" || !strings.Contains(got.Data.Error, "interrupted") {
			t.Fatalf("after three interrupted checks: %+v", sl)
		}
	})
}

func (e *env) countAttempts(id int64) int {
	e.t.Helper()
	var n int
	if err := e.app.DB.Get(&n, e.app.DB.Rebind("SELECT check_attempts FROM slides WHERE id = ?"), id); err != nil {
		e.t.Fatal(err)
	}
	return n
}
