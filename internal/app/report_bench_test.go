package app_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"strconv"
	"syscall"
	"testing"
	"time"

	"telepath/internal/platform/db"
)

// shotImage is a w×h JPEG that looks vaguely like stained tissue, as a
// capture from the slide viewer would be.
func shotImage(b *testing.B, w, h int, seed float64) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := math.Sin(float64(x)/37+seed)*math.Cos(float64(y)/23-seed) + math.Sin(float64(x*y)/9000)
			img.Set(x, y, color.RGBA{uint8(200 + 40*v), uint8(120 + 50*v), uint8(170 + 30*v), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkReportPreview serves GET /api/diagnosis/report/preview/{id} to
// the site for a published case with four images captured from its slides
// (1600×1200), through the whole server: scope checks, the case, the
// template in use, the images from the file store, rendering. Not a test.
func BenchmarkReportPreview(b *testing.B) {
	e := newEnvTB(b, db.SQLite, nil)
	f := e.fixture()
	id := e.submittedCase(f, "BL2026-00901", f.expert)
	expert, site := e.login("expert"), e.login("site")
	d := "/api/diagnosis/" + id
	e.expect(e.do("POST", d+"/lock", expert, nil), 200)
	e.expect(e.do("POST", d+"/save", expert, map[string]any{"microscopic": "镜下见腺体增生排列紊乱，间质炎细胞浸润。", "opinion": "（胃窦）慢性萎缩性胃炎伴肠化。", "remark": "建议复查。"}), 200)
	for i := range 4 {
		e.expect(e.saveShot(id, expert, shotImage(b, 1600, 1200, float64(i)), "caption", "HE ×"+strconv.Itoa(100*(i+1))), 200)
	}
	e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
	url := "/api/diagnosis/report/preview/" + id
	var size int
	b.ResetTimer()
	start, cpu0 := time.Now(), processCPU()
	for b.Loop() {
		r := e.do("GET", url, site, nil)
		if r.Status != 200 {
			b.Fatalf("preview: %d %s", r.Status, r)
		}
		size = len(r.Body)
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/pdf")
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/pdf")
	b.ReportMetric(float64(size)/1024, "KiB/pdf")
}

// processCPU is the process's user and system CPU time so far: on a shared
// machine it measures the work where wall time measures the neighbours too.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
