package app_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/signintech/gopdf"

	"telepath/internal/slide/slidegen"
)

// photo is a w×h image of smooth pink "tissue", as a gross photo is.
func photo(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(200 + x%40), uint8(150 + y%50), 170, 255})
		}
	}
	return img
}

func encodeJPEG(t *testing.T, img image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodePNG(t *testing.T, img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngBomb is a valid PNG header that claims w×h pixels, with no pixels.
func pngBomb(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr, w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk := func(kind string, data []byte) []byte {
		out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		out = append(out, kind...)
		out = append(out, data...)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(kind), data...)))
	}
	b := []byte("\x89PNG\r\n\x1a\n")
	b = append(b, chunk("IHDR", ihdr)...)
	return append(b, chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})...)
}

// diff is the mean absolute difference of two images' red channel (0–255).
func diff(a, b image.Image) float64 {
	var sum float64
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, _, _, _ := a.At(x, y).RGBA()
			r2, _, _, _ := b.At(x, y).RGBA()
			sum += max(float64(r1>>8)-float64(r2>>8), float64(r2>>8)-float64(r1>>8))
		}
	}
	return sum / float64(r.Dx()*r.Dy())
}

// fileDigest is the SHA-256 of a stored file as it is on disk.
func (e *env) fileDigest(t *testing.T, id int64) [32]byte {
	var path string
	if err := e.app.DB.Get(&path, e.app.DB.Rebind("SELECT path FROM files WHERE id = ?"), id); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(e.app.Config.DataDir, "files", path))
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// A share's image attachments carry its watermark in their pixels (the
// stored file untouched); a malformed image and one whose header claims
// too many pixels are refused in both languages; other files are sent as
// stored.
func TestShareImageAttachments(t *testing.T) {
	eachDB(t, trustProxy, func(t *testing.T, e *env) {
		site := e.login("site")
		jpg, pngb := encodeJPEG(t, photo(900, 700)), encodePNG(t, photo(640, 480))
		files := map[string][]byte{
			"王芳-大体.jpg": jpg, "截图.png": pngb, "broken.jpg": append([]byte{0xff, 0xd8, 0xff, 0xe0}, make([]byte, 64)...),
			"bomb.png": pngBomb(60000, 60000), "notes.txt": []byte("plain notes"),
		}
		order := []string{"王芳-大体.jpg", "截图.png", "broken.jpg", "bomb.png", "notes.txt"}
		ids := make([]int64, len(order))
		for i, name := range order {
			var f struct {
				Data struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.upload(site, name, files[name]), 200), &f)
			ids[i] = f.Data.ID
		}
		before := make([][32]byte, len(ids))
		for i, id := range ids {
			before[i] = e.fileDigest(t, id)
		}
		slide := e.grantedCase(genSlide(t, slidegen.Options{Width: 300, Height: 200, Seed: 3}), ids...)
		var cid int64
		e.app.DB.Get(&cid, e.app.DB.Rebind("SELECT consult_id FROM slides WHERE id = ?"), slide)
		s := e.share(e.login("expert"), map[string]any{"consult_id": cid, "expiry_days": 7, "with_attachments": true, "deidentify": true})
		var v viewOut
		e.decode(e.expect(e.openShare(s.Data.Token, "", "10.0.0.3"), 200), &v)
		if len(v.Data.Attachments) != len(order) {
			t.Fatalf("attachments: %+v", v.Data.Attachments)
		}
		get := func(i int, lang string) resp {
			return e.do("GET", v.Data.Attachments[i].URL, "", nil, "user-language", lang)
		}

		t.Run("JPEG", func(t *testing.T) {
			r := e.expect(get(0, "en-US"), 200)
			if cd := r.Header.Get("Content-Disposition"); !strings.HasSuffix(cd, "attachment-1.jpg") {
				t.Errorf("sent as %s", cd)
			}
			got, err := jpeg.Decode(bytes.NewReader(r.Body))
			orig, _ := jpeg.Decode(bytes.NewReader(jpg))
			if err != nil || got.Bounds() != orig.Bounds() {
				t.Fatalf("stamped JPEG: %v", err)
			}
			if d := diff(orig, got); d < 0.5 {
				t.Errorf("no watermark drawn in (mean difference %.2f)", d)
			}
		})
		t.Run("PNG", func(t *testing.T) {
			r := e.expect(get(1, "en-US"), 200)
			got, err := png.Decode(bytes.NewReader(r.Body))
			orig, _ := png.Decode(bytes.NewReader(pngb))
			if err != nil || got.Bounds() != orig.Bounds() {
				t.Fatalf("stamped PNG: %v", err)
			}
			if d := diff(orig, got); d < 0.5 {
				t.Errorf("no watermark drawn in (mean difference %.2f)", d)
			}
		})
		t.Run("ErrMalformed", func(t *testing.T) {
			if m := message(e.expect(get(2, "en-US"), 400)); !strings.Contains(m, "not a readable image") {
				t.Errorf("en: %q", m)
			}
			if m := message(e.expect(get(2, "zh-CN"), 400)); !strings.Contains(m, "不是可读取的图片") {
				t.Errorf("zh: %q", m)
			}
		})
		t.Run("ErrTooManyPixels", func(t *testing.T) {
			if m := message(e.expect(get(3, "en-US"), 413)); !strings.Contains(m, "million pixels") {
				t.Errorf("en: %q", m)
			}
			if m := message(e.expect(get(3, "zh-CN"), 413)); !strings.Contains(m, "百万像素") {
				t.Errorf("zh: %q", m)
			}
		})
		t.Run("OtherFiles", func(t *testing.T) {
			if r := e.expect(get(4, "en-US"), 200); string(r.Body) != "plain notes" {
				t.Errorf("text file: %q", r.Body)
			}
		})
		for i, id := range ids {
			if e.fileDigest(t, id) != before[i] {
				t.Errorf("%s changed on disk", order[i])
			}
		}
		var visits int
		e.app.DB.Get(&visits, e.app.DB.Rebind("SELECT visits FROM shares WHERE id = ?"), s.Data.ID)
		if want := 1 + 3; visits != want { // opened, then the JPEG, the PNG and the text file; refusals are no visits
			t.Errorf("visits: %d, want %d", visits, want)
		}
	})
}

// A de-identified share's annotations hold none of the patient's name, ID
// number or phone in their descriptions; an identified share's keep them.
func TestShareAnnotationsRedacted(t *testing.T) {
	eachDB(t, trustProxy, func(t *testing.T, e *env) {
		slide := e.grantedCase(genSlide(t, slidegen.Options{Width: 300, Height: 200, Seed: 4}))
		var cid int64
		e.app.DB.Get(&cid, e.app.DB.Rebind("SELECT consult_id FROM slides WHERE id = ?"), slide)
		expert := e.login("expert")
		const said = "王芳（王 芳）电话 138 0013 8000，身份证11010519491231002x：溃疡边缘"
		e.expect(e.do("PUT", "/api/slides/"+itoa(slide)+"/annotations", expert, map[string]any{"labels": []any{
			map[string]any{"id": 1, "tool": "text", "points": []any{map[string]any{"x": 10, "y": 10}}, "color": "#ff0000", "lineWidth": 2, "description": said},
		}}), 200)
		read := func(deidentify bool, lang string) string {
			s := e.share(expert, map[string]any{"consult_id": cid, "expiry_days": 1, "with_annotations": true, "deidentify": deidentify})
			var v viewOut
			e.decode(e.expect(e.openShare(s.Data.Token, "", "10.0.0.4"), 200), &v)
			var sets struct {
				Data []struct {
					Labels []struct {
						Description string `json:"description"`
					} `json:"labels"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", v.Data.Slides[0].AnnotationsURL, "", nil, "user-language", lang), 200), &sets)
			if len(sets.Data) != 1 || len(sets.Data[0].Labels) != 1 {
				t.Fatalf("sets: %+v", sets.Data)
			}
			return sets.Data[0].Labels[0].Description
		}
		if got, want := read(true, "zh-CN"), "[已隐去]（[已隐去]）电话 [已隐去]，身份证[已隐去]：溃疡边缘"; got != want {
			t.Errorf("de-identified: %q, want %q", got, want)
		}
		if got := read(true, "en-US"); strings.Contains(got, "王") || !strings.Contains(got, "[hidden]") {
			t.Errorf("de-identified, English: %q", got)
		}
		if got := read(false, "zh-CN"); got != said {
			t.Errorf("identified: %q", got)
		}
	})
}

// letterPDF is a PDF of an A4 portrait and an A4 landscape page, each
// saying its number, as a hospital's system would have written it.
func letterPDF(t *testing.T) []byte {
	gp := &gopdf.GoPdf{}
	gp.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4, Unit: gopdf.UnitPT})
	if err := gp.AddTTFFont("dejavu", "../report/fonts/DejaVuSans.ttf"); err != nil {
		t.Fatal(err)
	}
	for i, size := range []*gopdf.Rect{gopdf.PageSizeA4, gopdf.PageSizeA4Landscape} {
		gp.AddPageWithOption(gopdf.PageOption{PageSize: size})
		_ = gp.SetFont("dejavu", "", 14)
		gp.SetXY(60, 60)
		if err := gp.Cell(nil, "Outside consultation letter page "+itoa(int64(i+1))); err != nil {
			t.Fatal(err)
		}
	}
	b, err := gp.GetBytesPdfReturnErr()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pdfPages runs pdfinfo and pdftotext on a PDF: its "Page n size" lines
// and each page's text in drawing order without white space.
func pdfPages(t *testing.T, pdf []byte) (sizes []string, texts []string) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext and pdfinfo (poppler-utils) not installed")
	}
	f := filepath.Join(t.TempDir(), "a.pdf")
	if err := os.WriteFile(f, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := exec.Command("pdfinfo", "-f", "1", "-l", "1000", f).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	for _, l := range strings.Split(string(info), "\n") {
		if strings.HasPrefix(l, "Page") && strings.Contains(l, "size:") {
			sizes = append(sizes, strings.Join(strings.Fields(l), " "))
		}
	}
	for n := range sizes {
		p := itoa(int64(n + 1))
		out, err := exec.Command("pdftotext", "-raw", "-enc", "UTF-8", "-f", p, "-l", p, f, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext: %v", err)
		}
		texts = append(texts, strings.Join(strings.Fields(string(out)), ""))
	}
	return sizes, texts
}

// A share's PDF attachments come as copies with its watermark over every
// page, pages and sizes kept, on identified and de-identified shares
// alike (the stored file untouched); a malformed, a truncated and a too
// large PDF are refused in both languages and are no visits.
func TestSharePDFAttachments(t *testing.T) {
	eachDB(t, trustProxy, func(t *testing.T, e *env) {
		site := e.login("site")
		letter := letterPDF(t)
		files := map[string][]byte{
			"会诊函.pdf": letter, "broken.pdf": []byte("%PDF-1.4\nthis is not a PDF body"), "truncated.pdf": letter[:len(letter)/2],
			"scan.pdf": append([]byte("%PDF-1.4\n"), make([]byte, 32<<20)...), // over the 32 MB stamped
		}
		order := []string{"会诊函.pdf", "broken.pdf", "truncated.pdf", "scan.pdf"}
		ids := make([]int64, len(order))
		for i, name := range order {
			var f struct {
				Data struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.upload(site, name, files[name]), 200), &f)
			ids[i] = f.Data.ID
		}
		before := e.fileDigest(t, ids[0])
		wantSizes, _ := pdfPages(t, letter)
		if len(wantSizes) != 2 {
			t.Fatalf("the letter's pages: %v", wantSizes)
		}
		slide := e.grantedCase(genSlide(t, slidegen.Options{Width: 300, Height: 200, Seed: 5}), ids...)
		var cid int64
		e.app.DB.Get(&cid, e.app.DB.Rebind("SELECT consult_id FROM slides WHERE id = ?"), slide)
		expert := e.login("expert")
		for _, deidentify := range []bool{false, true} {
			s := e.share(expert, map[string]any{"consult_id": cid, "expiry_days": 7, "with_attachments": true, "deidentify": deidentify})
			var v viewOut
			e.decode(e.expect(e.openShare(s.Data.Token, "", "10.0.0.5"), 200), &v)
			if len(v.Data.Attachments) != len(order) || v.Data.Watermark == "" {
				t.Fatalf("attachments %+v, watermark %q", v.Data.Attachments, v.Data.Watermark)
			}
			get := func(i int, lang string) resp {
				return e.do("GET", v.Data.Attachments[i].URL, "", nil, "user-language", lang)
			}
			r := e.expect(get(0, "en-US"), 200)
			name := map[bool]string{false: "会诊函.pdf", true: "attachment-1.pdf"}[deidentify]
			if cd := r.Header.Get("Content-Disposition"); !strings.Contains(cd, url.PathEscape(name)) && !strings.Contains(cd, name) {
				t.Errorf("de-identified %v: sent as %s", deidentify, cd)
			}
			sizes, texts := pdfPages(t, r.Body)
			if !slices.Equal(sizes, wantSizes) {
				t.Errorf("de-identified %v: pages %v, want %v", deidentify, sizes, wantSizes)
			}
			mark := strings.Join(strings.Fields(v.Data.Watermark), "")
			for n, text := range texts {
				if !strings.Contains(text, "Outsideconsultationletterpage"+itoa(int64(n+1))) || !strings.Contains(text, mark) {
					t.Errorf("de-identified %v: page %d lacks its content or %q: %s", deidentify, n+1, mark, text)
				}
			}
			for i := 1; i < 3; i++ {
				if m := message(e.expect(get(i, "en-US"), 400)); !strings.Contains(m, "not a readable PDF") {
					t.Errorf("%s, en: %q", order[i], m)
				}
				if m := message(e.expect(get(i, "zh-CN"), 400)); !strings.Contains(m, "不是可读取的 PDF") {
					t.Errorf("%s, zh: %q", order[i], m)
				}
			}
			if m := message(e.expect(get(3, "en-US"), 413)); !strings.Contains(m, "larger than 32 MB") {
				t.Errorf("scan.pdf, en: %q", m)
			}
			if m := message(e.expect(get(3, "zh-CN"), 413)); !strings.Contains(m, "大于 32 MB") {
				t.Errorf("scan.pdf, zh: %q", m)
			}
			var visits int
			e.app.DB.Get(&visits, e.app.DB.Rebind("SELECT visits FROM shares WHERE id = ?"), s.Data.ID)
			if visits != 2 { // opened, then the letter; refusals are no visits
				t.Errorf("de-identified %v: visits %d, want 2", deidentify, visits)
			}
		}
		if e.fileDigest(t, ids[0]) != before {
			t.Error("the letter changed on disk")
		}
	})
}
