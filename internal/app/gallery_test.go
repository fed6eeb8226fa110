package app_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/textproto"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

type galleryOut struct {
	Data struct {
		Editable bool `json:"editable"`
		Items    []struct {
			ID        int64            `json:"id"`
			Check     bool             `json:"check"`
			Edited    bool             `json:"edited"`
			Deletable bool             `json:"deletable"`
			Labels    []map[string]any `json:"labels"`
			Thumb     string           `json:"thumb"`
			Path      string           `json:"path"`
		} `json:"items"`
	} `json:"data"`
}

// galleryCase registers a case with two image attachments and a PDF, has it
// assigned to the expert and returns its id and the images' file ids.
func (e *env) galleryCase(f caseFixture, number string) (string, []int64) {
	e.t.Helper()
	site, alloc := e.login("site"), e.login("allocator")
	var ids []int64
	var atts []any
	for i, name := range []string{"gross.jpg", "micro.jpg"} {
		var u struct {
			Data struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.uploadAs(site, name, "image/jpeg", galleryJPEG(400+i*40, 300)), 200), &u)
		ids = append(ids, u.Data.ID)
		atts = append(atts, map[string]any{"file_id": u.Data.ID, "type": 6})
	}
	var pdf struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	e.decode(e.expect(e.uploadAs(site, "form.pdf", "application/pdf", []byte("%PDF-1.4\n")), 200), &pdf)
	atts = append(atts, map[string]any{"file_id": pdf.Data.ID, "type": 2})
	body := registration(f, number, e.slide(f.hospital, "site"))
	body["attachments"] = atts
	var c caseOut
	e.decode(e.expect(e.do("POST", "/api/consultation", site, body), 200), &c)
	id := itoa(c.Data.ID)
	e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
	e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
	e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}), 200)
	return id, ids
}

func label(id int, tool string, pts ...float64) map[string]any {
	return map[string]any{"id": id, "tool": tool, "points": pts, "strokeStyle": "#027AFF", "fillStyle": "", "lineWidth": 2,
		"description": "note", "fontSize": 14, "angle": 0}
}

func TestGallery(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id, files := e.galleryCase(f, "BL2026-00951")
		expert, expert2, site, site2 := e.login("expert"), e.login("expert2"), e.login("site"), e.login("site2")
		g := "/api/consultation/resources/" + id + "/gallery"
		img := func(fid int64) string { return "/api/gallery/" + id + "/" + itoa(fid) }

		t.Run("ListAndThumbnail", func(t *testing.T) {
			var out galleryOut
			e.decode(e.expect(e.do("GET", g, expert, nil), 200), &out)
			if !out.Data.Editable || len(out.Data.Items) != 2 || out.Data.Items[0].ID != files[0] || out.Data.Items[0].Deletable {
				t.Fatalf("expert's gallery: %+v", out.Data)
			}
			r := e.expect(e.do("GET", out.Data.Items[1].Thumb, expert, nil), 200)
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(r.Body))
			if err != nil || max(cfg.Width, cfg.Height) != 320 {
				t.Fatalf("thumbnail %dx%d %v", cfg.Width, cfg.Height, err)
			}
			e.decode(e.expect(e.do("GET", g, site, nil), 200), &out)
			if out.Data.Editable {
				t.Fatal("the site edits a submitted case's gallery")
			}
		})
		t.Run("Scope", func(t *testing.T) {
			e.expect(e.do("GET", g, site2, nil), 404)
			e.expect(e.do("GET", img(files[0])+"/image", site2, nil), 404)
			e.expect(e.do("GET", "/api/gallery/attachment/"+itoa(files[0]), site2, nil), 404)
			e.expect(e.do("PUT", img(files[0])+"/labels", expert2, map[string]any{"labels": []any{}}), 404)
			e.expect(e.do("GET", "/api/gallery/attachment/"+itoa(files[0]), expert, nil), 200)
		})
		t.Run("ReadOnly", func(t *testing.T) {
			before := e.count("gallery_images", "1=1")
			if r := e.do("PUT", img(files[0])+"/labels", site, map[string]any{"labels": []any{label(2, "line", 1, 1, 5, 5)}}); r.Status != 409 && r.Status != 403 {
				t.Fatalf("site labels a submitted case: %d %s", r.Status, r)
			}
			if r := e.do("DELETE", img(files[0]), expert, nil); r.Status != 403 {
				t.Fatalf("expert deletes the site's image: %d %s", r.Status, r)
			}
			if n := e.count("gallery_images", "1=1"); n != before {
				t.Fatal("a refused write left rows")
			}
		})
		t.Run("BadLabels", func(t *testing.T) {
			for name, l := range map[string]map[string]any{
				"tool":    label(2, "pentagon", 1, 1, 5, 5),
				"outside": label(2, "rect", 1, 1, 401, 5),
				"points":  label(2, "line", 1, 1, 5),
				"colour":  func() map[string]any { m := label(2, "rect", 1, 1, 5, 5); m["fillStyle"] = "#000000"; return m }(),
				"id":      label(1, "rect", 1, 1, 5, 5),
			} {
				r := e.do("PUT", img(files[0])+"/labels", expert, map[string]any{"labels": []any{l}})
				if r.Status != 422 && r.Status != 400 {
					t.Errorf("%s: %d %s", name, r.Status, r)
				}
			}
			many := []any{}
			for i := range 201 {
				many = append(many, label(i+2, "line", 1, 1, 5, 5))
			}
			if r := e.do("PUT", img(files[0])+"/labels", expert, map[string]any{"labels": many}); r.Status != 422 && r.Status != 400 {
				t.Errorf("201 labels: %d", r.Status)
			}
			r := e.do("PUT", img(files[0])+"/labels", expert, map[string]any{"labels": []any{label(2, "rect", 1, 1, 401, 5)}}, "Accept-Language", "zh-CN")
			if !strings.Contains(r.String(), "超出了图片范围") {
				t.Errorf("zh-CN message: %s", r)
			}
			if n := e.count("gallery_images", "1=1"); n != 0 {
				t.Fatal("bad labels were written")
			}
		})
		t.Run("LabelsArrangeAndReport", func(t *testing.T) {
			ls := []any{label(2, "rect", 10, 10, 100, 80), label(3, "arrow", 20, 200, 150, 120), label(4, "font", 30, 30), label(5, "curve", 5, 5, 20, 30, 40, 35)}
			e.expect(e.do("PUT", img(files[0])+"/labels", expert, map[string]any{"labels": ls}), 200)
			e.expect(e.do("PUT", g, expert, map[string]any{"items": []any{map[string]any{"id": files[1], "check": true}}}), 422)
			e.expect(e.do("PUT", g, expert, map[string]any{"items": []any{map[string]any{"id": files[1], "check": false}, map[string]any{"id": 999999, "check": false}}}), 422)
			e.expect(e.do("PUT", g, expert, map[string]any{"items": []any{map[string]any{"id": files[1], "check": false}, map[string]any{"id": files[0], "check": true}}}), 200)
			var out galleryOut
			e.decode(e.expect(e.do("GET", g, expert, nil), 200), &out)
			if out.Data.Items[0].ID != files[1] || !out.Data.Items[1].Check || len(out.Data.Items[1].Labels) != 4 {
				t.Fatalf("after arrange: %+v", out.Data.Items)
			}
			if e.count("audit_logs", "action LIKE '%shots_update%'") == 0 {
				t.Error("gallery writes are not audited")
			}
		})
		t.Run("RotateAndCrop", func(t *testing.T) {
			e.expect(e.do("POST", "/api/rotate_image", expert, map[string]any{"consult_id": c64(id), "id": files[0], "angle": 0, "crop": map[string]any{"x": 300, "y": 0, "w": 200, "h": 100}}), 422)
			e.expect(e.do("POST", "/api/rotate_image", site2, map[string]any{"consult_id": c64(id), "id": files[0], "angle": 90}), 404)
			e.expect(e.do("POST", "/api/rotate_image", expert2, map[string]any{"consult_id": c64(id), "id": files[0], "angle": 90}), 404)
			var it struct {
				Data struct {
					Edited bool             `json:"edited"`
					Labels []map[string]any `json:"labels"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("POST", "/api/rotate_image", expert, map[string]any{"consult_id": c64(id), "id": files[0], "angle": 90, "crop": map[string]any{"x": 0, "y": 0, "w": 300, "h": 200}}), 200), &it)
			if !it.Data.Edited || len(it.Data.Labels) != 0 {
				t.Fatalf("after crop: %+v", it.Data)
			}
			r := e.expect(e.do("GET", img(files[0])+"/image", expert, nil), 200)
			m, _, err := image.DecodeConfig(bytes.NewReader(r.Body))
			if err != nil || m.Width != 300 || m.Height != 200 {
				t.Fatalf("cropped %dx%d %v", m.Width, m.Height, err)
			}
			e.decode(e.expect(e.do("POST", img(files[0])+"/restore", expert, nil), 200), &it)
			if it.Data.Edited {
				t.Fatal("restore kept the edit")
			}
		})
		t.Run("RefusedEditsLeaveNoFile", func(t *testing.T) {
			stored := func() (onDisk, rows int) {
				filepath.WalkDir(filepath.Join(e.app.Config.DataDir, "files"), func(p string, d os.DirEntry, err error) error {
					if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".thumb.jpg") {
						onDisk++
					}
					return nil
				})
				return onDisk, e.count("files", "1=1")
			}
			disk, rows := stored()
			rotate := func(token string, body map[string]any) resp {
				return e.do("POST", "/api/rotate_image", token, body)
			}
			crop := func(x, y, w, h float64) map[string]any {
				return map[string]any{"consult_id": c64(id), "id": files[0], "angle": 0, "crop": map[string]any{"x": x, "y": y, "w": w, "h": h}}
			}
			for name, c := range map[string]struct {
				r    resp
				want []int
			}{
				"crop outside":         {rotate(expert, crop(300, 0, 200, 100)), []int{422}},
				"crop of nothing":      {rotate(expert, crop(10, 10, 0, 5)), []int{422}},
				"crop below the image": {rotate(expert, crop(0, 250, 100, 100)), []int{422}},
				"site, submitted case": {rotate(site, map[string]any{"consult_id": c64(id), "id": files[0], "angle": 90}), []int{403, 409}},
				"another expert":       {rotate(expert2, map[string]any{"consult_id": c64(id), "id": files[0], "angle": 90}), []int{404}},
				"another hospital":     {rotate(site2, crop(0, 0, 10, 10)), []int{404}},
				"angle not whole":      {rotate(expert, map[string]any{"consult_id": c64(id), "id": files[0], "angle": 1.5}), []int{422}},
			} {
				if !slices.Contains(c.want, c.r.Status) {
					t.Errorf("%s: %d %s", name, c.r.Status, c.r)
				}
			}
			if d, r := stored(); d != disk || r != rows {
				t.Fatalf("refused edits left files: %d → %d on disk, %d → %d rows", disk, d, rows, r)
			}
			// Allowed, the edited file is kept and recorded once.
			e.expect(rotate(expert, map[string]any{"consult_id": c64(id), "id": files[0], "angle": 90}), 200)
			if d, r := stored(); d != disk+1 || r != rows+1 {
				t.Fatalf("a rotation: %d → %d on disk, %d → %d rows", disk, d, rows, r)
			}
			e.expect(e.do("POST", img(files[0])+"/restore", expert, nil), 200)
		})
		t.Run("ThumbnailsCached", func(t *testing.T) {
			var out galleryOut
			thumbOf := func() string {
				e.decode(e.expect(e.do("GET", g, expert, nil), 200), &out)
				for _, it := range out.Data.Items {
					if it.ID == files[0] {
						return it.Thumb
					}
				}
				t.Fatal("no such image")
				return ""
			}
			thumb := thumbOf()
			first := e.expect(e.do("GET", thumb, expert, nil), 200)
			etag := first.Header.Get("ETag")
			if etag == "" || !strings.Contains(first.Header.Get("Cache-Control"), "immutable") {
				t.Fatalf("thumbnail headers: %v", first.Header)
			}
			// Kept beside the file and served from there: a changed copy on disk is what comes back.
			var path string
			if err := e.app.DB.Get(&path, e.app.DB.Rebind("SELECT path FROM files WHERE id = ?"), files[0]); err != nil {
				t.Fatal(err)
			}
			kept := filepath.Join(e.app.Config.DataDir, "files", path) + ".thumb.jpg"
			marker := galleryJPEG(7, 5)
			if err := os.WriteFile(kept, marker, 0o600); err != nil {
				t.Fatal(err)
			}
			if again := e.expect(e.do("GET", thumb, expert, nil), 200); !bytes.Equal(again.Body, marker) {
				t.Fatal("the thumbnail was made again instead of being read from disk")
			}
			if r := e.do("GET", thumb, expert, nil, "If-None-Match", etag); r.Status != 304 || len(r.Body) != 0 {
				t.Fatalf("If-None-Match: %d (%d bytes)", r.Status, len(r.Body))
			}
			// An old version's address is not kept by the browser.
			if r := e.expect(e.do("GET", img(files[0])+"/image?thumb=true&v=999999", expert, nil), 200); !strings.Contains(r.Header.Get("Cache-Control"), "no-cache") {
				t.Fatalf("old version cached: %v", r.Header)
			}
			// Rotated, the image has a new version and a new thumbnail: 320 × 240 becomes 240 × 320.
			e.expect(e.do("POST", "/api/rotate_image", expert, map[string]any{"consult_id": c64(id), "id": files[0], "angle": 90}), 200)
			rotated := thumbOf()
			if rotated == thumb {
				t.Fatal("the thumbnail address did not change with the image")
			}
			r := e.expect(e.do("GET", rotated, expert, nil), 200)
			if cfg, err := jpeg.DecodeConfig(bytes.NewReader(r.Body)); err != nil || cfg.Width != 240 || cfg.Height != 320 || r.Header.Get("ETag") == etag {
				t.Fatalf("rotated thumbnail %dx%d %v %v", cfg.Width, cfg.Height, err, r.Header)
			}
			// Restored, the original's kept thumbnail is back.
			e.expect(e.do("POST", img(files[0])+"/restore", expert, nil), 200)
			if r := e.expect(e.do("GET", thumb, expert, nil), 200); !bytes.Equal(r.Body, marker) {
				t.Fatal("restore did not give the original's thumbnail back")
			}
			// The files domain's own thumbnail: the caller's upload, or a file of a case they see.
			ft := "/api/files/" + itoa(files[1]) + "/thumb"
			if r := e.expect(e.do("GET", ft, site, nil), 200); !strings.Contains(r.Header.Get("Cache-Control"), "immutable") || r.Header.Get("ETag") == "" {
				t.Fatalf("file thumbnail headers: %v", r.Header)
			}
			e.expect(e.do("GET", ft, expert, nil), 200)
			e.expect(e.do("GET", ft, site2, nil), 404)
			e.expect(e.do("GET", ft, expert2, nil), 404)
		})
		t.Run("OversizedImage", func(t *testing.T) {
			var path string
			if err := e.app.DB.Get(&path, e.app.DB.Rebind("SELECT path FROM files WHERE id = ?"), files[1]); err != nil {
				t.Fatal(err)
			}
			full := filepath.Join(e.app.Config.DataDir, "files", path)
			if err := os.Truncate(full, 200<<20); err != nil { // sparse: nothing written
				t.Fatal(err)
			}
			if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE files SET size = ? WHERE id = ?"), 200<<20, files[1]); err != nil {
				t.Fatal(err)
			}
			r := e.do("POST", "/api/rotate_image", expert, map[string]any{"consult_id": c64(id), "id": files[1], "angle": 90})
			if r.Status != 413 || !strings.Contains(r.String(), "MB") {
				t.Fatalf("200 MB image: %d %s", r.Status, r)
			}
		})
		t.Run("SaveCopy", func(t *testing.T) {
			stored := func() (onDisk, rows int) {
				filepath.WalkDir(filepath.Join(e.app.Config.DataDir, "files"), func(p string, d os.DirEntry, err error) error {
					if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".thumb.jpg") {
						onDisk++
					}
					return nil
				})
				return onDisk, e.count("files", "1=1")
			}
			star := `[{"id":2,"tool":"star","points":[50,50,60,60],"strokeStyle":"#027AFF","fillStyle":"","lineWidth":2,"fontSize":14,"angle":0,"description":""}]`
			disk, rows := stored()
			// Refused, before or inside the change's transaction: no file stays.
			for name, c := range map[string]struct {
				r    resp
				want []int
			}{
				"not a JPEG":           {e.saveCopy(expert, img(files[0]), "copy.png", galleryPNG(20, 20), ""), []int{422}},
				"label outside":        {e.saveCopy(expert, img(files[0]), "copy.jpg", galleryJPEG(40, 40), star), []int{422}},
				"labels not JSON":      {e.saveCopy(expert, img(files[0]), "copy.jpg", galleryJPEG(200, 100), "[{"), []int{422}},
				"no file":              {e.saveCopy(expert, img(files[0]), "", nil, ""), []int{422}},
				"site, submitted case": {e.saveCopy(site, img(files[0]), "copy.jpg", galleryJPEG(200, 100), ""), []int{403, 409}},
				"another expert":       {e.saveCopy(expert2, img(files[0]), "copy.jpg", galleryJPEG(200, 100), ""), []int{404}},
				"another hospital":     {e.saveCopy(site2, img(files[0]), "copy.jpg", galleryJPEG(200, 100), ""), []int{404}},
				"not in the gallery":   {e.saveCopy(expert, img(999999), "copy.jpg", galleryJPEG(200, 100), ""), []int{404}},
			} {
				if !slices.Contains(c.want, c.r.Status) {
					t.Errorf("%s: %d %s", name, c.r.Status, c.r)
				}
			}
			if d, r := stored(); d != disk || r != rows {
				t.Fatalf("refused copies left files: %d → %d on disk, %d → %d rows", disk, d, rows, r)
			}
			r := e.saveCopy(expert, img(files[0]), "copy.jpg", galleryJPEG(200, 100), "[{", "user-language", "en-US")
			if !strings.Contains(r.String(), "labels") {
				t.Errorf("en-US: %s", r)
			}
			// Saved, the copy is stored and recorded once, a new image of the case with its labels.
			var u struct {
				Data struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.saveCopy(expert, img(files[0]), "copy.jpg", galleryJPEG(200, 100), star), 200), &u)
			if d, r := stored(); d != disk+1 || r != rows+1 {
				t.Fatalf("a copy: %d → %d on disk, %d → %d rows", disk, d, rows, r)
			}
			var out galleryOut
			e.decode(e.expect(e.do("GET", g, expert, nil), 200), &out)
			last := out.Data.Items[len(out.Data.Items)-1]
			if len(out.Data.Items) != 3 || last.ID != u.Data.ID || !last.Deletable || len(last.Labels) != 1 {
				t.Fatalf("after copy: %+v", out.Data.Items)
			}
			e.expect(e.do("DELETE", img(u.Data.ID), expert, nil), 200)
		})
	})
}

func c64(s string) int64 {
	var n int64
	for _, c := range s {
		n = n*10 + int64(c-'0')
	}
	return n
}

func galleryJPEG(w, h int) []byte {
	var b bytes.Buffer
	jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)), nil)
	return b.Bytes()
}

// saveCopy posts a processed copy (multipart: file and labels) to an image
// of the gallery; headers are name, value pairs.
func (e *env) saveCopy(token, imagePath, name string, body []byte, labels string, headers ...string) resp {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if name != "" {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="file"; filename="`+name+`"`)
		h.Set("Content-Type", "image/jpeg")
		pw, _ := w.CreatePart(h)
		pw.Write(body)
	}
	if labels != "" {
		w.WriteField("labels", labels)
	}
	w.Close()
	return e.do("POST", imagePath+"/copy", token, buf.Bytes(), append([]string{"Content-Type", w.FormDataContentType()}, headers...)...)
}

func galleryPNG(w, h int) []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h)))
	return b.Bytes()
}
