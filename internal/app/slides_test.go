package app_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"image/jpeg"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"telepath/internal/slide/slidegen"
	"telepath/internal/slideserver"
)

// tus sends one tus request and returns the response.
func (e *env) tus(method, url, token string, body []byte, headers ...string) resp {
	e.t.Helper()
	if !strings.HasPrefix(url, "http") {
		url = e.srv.URL + url
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Tus-Resumable", "1.0.0")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if method == http.MethodPatch {
		req.Header.Set("Content-Type", "application/offset+octet-stream")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{Status: res.StatusCode, Body: b, Header: res.Header}
}

func tusMeta(kv ...string) string {
	var parts []string
	for i := 0; i+1 < len(kv); i += 2 {
		parts = append(parts, kv[i]+" "+base64.StdEncoding.EncodeToString([]byte(kv[i+1])))
	}
	return strings.Join(parts, ",")
}

// createUpload starts a tus upload of size bytes and returns its URL.
func (e *env) createUpload(token string, size int, meta ...string) string {
	e.t.Helper()
	r := e.tus("POST", "/api/uploads/", token, nil, "Upload-Length", strconv.Itoa(size), "Upload-Metadata", tusMeta(meta...))
	if r.Status != http.StatusCreated {
		e.t.Fatalf("create upload: %d %s", r.Status, r.Body)
	}
	loc := r.Header.Get("Location")
	if loc == "" {
		e.t.Fatal("no Location")
	}
	return loc
}

// uploadAll sends data in one PATCH and returns the new slide's id.
func (e *env) uploadAll(token, name string, data []byte, meta ...string) int64 {
	e.t.Helper()
	loc := e.createUpload(token, len(data), append([]string{"filename", name}, meta...)...)
	r := e.tus("PATCH", loc, token, data, "Upload-Offset", "0")
	if r.Status != http.StatusNoContent {
		e.t.Fatalf("patch: %d %s", r.Status, r.Body)
	}
	id, err := strconv.ParseInt(r.Header.Get("Slide-Id"), 10, 64)
	if err != nil {
		e.t.Fatalf("no Slide-Id: %v", r.Header)
	}
	return id
}

type slideOut struct {
	ID        int64             `json:"id"`
	Status    int               `json:"status"`
	Progress  int               `json:"progress"`
	Format    string            `json:"format"`
	Viewable  int               `json:"viewable"`
	Error     string            `json:"error"`
	ErrorKey  string            `json:"error_key"`
	SHA256    string            `json:"sha256"`
	Filesize  int64             `json:"filesize"`
	Width     int64             `json:"width"`
	Height    int64             `json:"height"`
	MPP       float64           `json:"mpp"`
	Levels    int               `json:"levels"`
	Ranse     string            `json:"ranse"`
	Props     map[string]string `json:"properties"`
	ConsultID *int64            `json:"consult_id"`
}

// waitSlide polls a slide until its background checks are done.
func (e *env) waitSlide(token string, id int64) slideOut {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var out struct{ Data slideOut }
		e.decode(e.expect(e.do("GET", "/api/slides/"+strconv.FormatInt(id, 10), token, nil, "user-language", "en-US"), 200), &out)
		if out.Data.Status != 0 && out.Data.Status != 2 {
			return out.Data
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("slide %d still processing: %+v", id, out.Data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type viewerOut struct {
	DZIURL       string    `json:"dzi_url"`
	IIIFURL      string    `json:"iiif_url"`
	ThumbnailURL string    `json:"thumbnail_url"`
	LabelURL     string    `json:"label_url"`
	DownloadURL  string    `json:"download_url"`
	Width        int64     `json:"width"`
	Height       int64     `json:"height"`
	TileSize     int       `json:"tile_size"`
	MaxLevel     int       `json:"max_level"`
	MPP          float64   `json:"mpp"`
	ExpiresAt    time.Time `json:"expires_at"`
}

func genSlide(t *testing.T, o slidegen.Options) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.tif")
	if err := slidegen.WriteTIFF(p, o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestSlideUploadAndTiles(t *testing.T) {
	data := genSlide(t, slidegen.Options{Width: 1500, Height: 1100, Seed: 3, MinLevelSize: 200})
	eachDB(t, nil, func(t *testing.T, e *env) {
		site, site2 := e.login("site"), e.login("site2")

		// A resumable upload in two parts: the first PATCH breaks off,
		// HEAD tells where to resume, the second PATCH sends the rest.
		loc := e.createUpload(site, len(data), "filename", "HE-1.tif", "sha256", sha(data))
		half := len(data) / 2
		e.expect(e.tus("PATCH", loc, site, data[:half], "Upload-Offset", "0"), 204)
		if r := e.tus("PATCH", loc, site2, data[half:], "Upload-Offset", strconv.Itoa(half)); r.Status != 404 {
			t.Fatalf("another user resumed the upload: %d", r.Status)
		}
		h := e.expect(e.tus("HEAD", loc, site, nil), 200)
		off, _ := strconv.Atoi(h.Header.Get("Upload-Offset"))
		if off != half {
			t.Fatalf("offset %d, want %d", off, half)
		}
		// the slide is listed as uploading meanwhile
		var list struct {
			Data []slideOut
		}
		e.decode(e.expect(e.do("GET", "/api/slides/uploads?tab=uploading", site, nil), 200), &list)
		if len(list.Data) != 1 || list.Data[0].Status != 0 {
			t.Fatalf("uploading tab: %+v", list.Data)
		}
		r := e.expect(e.tus("PATCH", loc, site, data[off:], "Upload-Offset", strconv.Itoa(off)), 204)
		id, _ := strconv.ParseInt(r.Header.Get("Slide-Id"), 10, 64)
		sl := e.waitSlide(site, id)
		if sl.Status != 1 || sl.Viewable != 1 || sl.SHA256 != sha(data) || sl.Filesize != int64(len(data)) ||
			sl.Width != 1500 || sl.Height != 1100 || sl.Format != "tiff" || sl.Levels < 2 || sl.MPP == 0 {
			t.Fatalf("slide: %+v", sl)
		}
		// a finished upload answers HEAD as complete; more data is refused
		h = e.expect(e.tus("HEAD", loc, site, nil), 200)
		if h.Header.Get("Upload-Offset") != strconv.Itoa(len(data)) {
			t.Fatalf("HEAD after completion: %v", h.Header)
		}
		e.decode(e.expect(e.do("GET", "/api/slides/uploads?tab=uploaded", site, nil), 200), &list)
		if len(list.Data) != 1 || list.Data[0].ID != id {
			t.Fatalf("uploaded tab: %+v", list.Data)
		}
		e.decode(e.expect(e.do("GET", "/api/slides/uploads", site2, nil), 200), &list)
		if len(list.Data) != 0 {
			t.Fatalf("site2 sees site's uploads: %+v", list.Data)
		}

		// The viewer call signs the URLs.
		sid := strconv.FormatInt(id, 10)
		var v struct{ Data viewerOut }
		e.decode(e.expect(e.do("GET", "/api/slides/"+sid+"/viewer", site, nil), 200), &v)
		if v.Data.Width != 1500 || v.Data.TileSize != 256 || !strings.HasPrefix(v.Data.DZIURL, "/api/slides/"+sid+"/g/") ||
			v.Data.ExpiresAt.Before(time.Now().Add(5*time.Minute)) || v.Data.ExpiresAt.After(time.Now().Add(slideserver.GrantTTL)) {
			t.Fatalf("viewer: %+v", v.Data)
		}
		dzi := e.expect(e.do("GET", v.Data.DZIURL, "", nil), 200)
		var desc struct {
			TileSize int `xml:"TileSize,attr"`
			Size     struct {
				Width  int `xml:"Width,attr"`
				Height int `xml:"Height,attr"`
			}
		}
		if err := xml.Unmarshal(dzi.Body, &desc); err != nil || desc.Size.Width != 1500 || desc.Size.Height != 1100 {
			t.Fatalf("dzi %v: %s", err, dzi.Body)
		}
		files := strings.TrimSuffix(v.Data.DZIURL, ".dzi") + "_files/"
		max := v.Data.MaxLevel
		// an inner tile and the cropped edge tile of the full-resolution level
		for _, tc := range []struct {
			url  string
			w, h int
		}{
			{files + strconv.Itoa(max) + "/0_0.jpeg", 256, 256},
			{files + strconv.Itoa(max) + "/5_4.jpeg", 1500 - 5*256, 1100 - 4*256},
			{files + "0/0_0.jpeg", 1, 1},
		} {
			r := e.expect(e.do("GET", tc.url, "", nil), 200)
			img, err := jpeg.Decode(bytes.NewReader(r.Body))
			if err != nil || r.Header.Get("Content-Type") != "image/jpeg" {
				t.Fatalf("%s: %v %v", tc.url, err, r.Header)
			}
			if b := img.Bounds(); b.Dx() != tc.w || b.Dy() != tc.h {
				t.Fatalf("%s: %v, want %dx%d", tc.url, b, tc.w, tc.h)
			}
			if !strings.Contains(r.Header.Get("Cache-Control"), "immutable") || r.Header.Get("Etag") == "" {
				t.Fatalf("%s: headers %v", tc.url, r.Header)
			}
			e.expect(e.do("GET", tc.url, "", nil, "If-None-Match", r.Header.Get("Etag")), 304)
		}
		e.expect(e.do("GET", files+strconv.Itoa(max)+"/99_0.jpeg", "", nil), 404)
		th := e.expect(e.do("GET", v.Data.ThumbnailURL, "", nil), 200)
		if _, err := jpeg.Decode(bytes.NewReader(th.Body)); err != nil {
			t.Fatal("thumbnail:", err)
		}
		info := e.expect(e.do("GET", v.Data.IIIFURL, "", nil), 200)
		if !strings.Contains(string(info.Body), `"width":1500`) {
			t.Fatalf("info.json: %s", info.Body)
		}
		iiifTile := strings.TrimSuffix(v.Data.IIIFURL, "info.json") + "0,0,256,256/256,/0/default.jpg"
		e.expect(e.do("GET", iiifTile, "", nil), 200)
		dl := e.expect(e.do("GET", v.Data.DownloadURL, "", nil, "Range", "bytes=0-99"), 206)
		if !bytes.Equal(dl.Body, data[:100]) {
			t.Fatal("download range differs")
		}

		// Tampered and foreign URLs.
		tile := files + strconv.Itoa(max) + "/0_0.jpeg"
		grant := strings.Split(tile, "/")[5] // "", api, slides, id, g, grant, ...
		keyID, rest, _ := strings.Cut(grant, ".")
		session, mac, _ := strings.Cut(rest, ".")
		bad := []byte(mac)
		bad[len(bad)-1] ^= 1
		if bad[len(bad)-1] == mac[len(mac)-1] {
			bad[len(bad)-1] = 'A'
		}
		for _, g := range []string{
			keyID + "." + session + "." + string(bad),
			keyID + "." + session + "1." + mac,
			keyID + "9." + session + "." + mac,
			"x",
		} {
			e.expect(e.do("GET", strings.Replace(tile, "/"+grant+"/", "/"+g+"/", 1), "", nil), 403)
		}
		// site2 may not see site's unattached slide, nor reuse its signature for another slide
		e.expect(e.do("GET", "/api/slides/"+sid+"/viewer", site2, nil), 404)
		e.expect(e.do("GET", "/api/slides/"+sid, site2, nil), 404)
		e.expect(e.do("POST", "/api/slides/"+sid+"/view", site2, nil), 404)
		e.expect(e.do("GET", strings.Replace(tile, "/slides/"+sid+"/", "/slides/"+strconv.FormatInt(id+1, 10)+"/", 1), "", nil), 403)
		e.expect(e.do("GET", "/api/slides/999999/viewer", site, nil), 404)

		// The view is recorded once per user.
		e.expect(e.do("POST", "/api/slides/"+sid+"/view", site, nil), 200)
		e.expect(e.do("POST", "/api/slides/"+sid+"/view", site, nil), 200)
		if n := e.count("slide_views", "slide_id = ? AND view_count = 2", id); n != 1 {
			t.Fatalf("views: %d", n)
		}

		// Edit, then delete (the file goes, the tiles stop).
		var ed struct{ Data slideOut }
		e.decode(e.expect(e.do("POST", "/api/slides/"+sid, site, map[string]any{"ranse": "PAS", "sort": 3}), 200), &ed)
		if ed.Data.Ranse != "PAS" {
			t.Fatalf("edit: %+v", ed.Data)
		}
		e.expect(e.do("POST", "/api/slides/"+sid, site2, map[string]any{"ranse": "X"}), 404)
		e.expect(e.do("DELETE", "/api/slides/"+sid, site2, nil), 404)
		e.expect(e.do("DELETE", "/api/slides/"+sid, site, nil), 200)
		e.expect(e.do("GET", "/api/slides/"+sid, site, nil), 404)
		if n := e.count("slides", "id = ? AND status = -1", id); n != 1 {
			t.Fatal("not marked removed")
		}
	})
}

func TestSlideUploadChecks(t *testing.T) {
	data := genSlide(t, slidegen.Options{Width: 600, Height: 400, Seed: 5})
	eachDB(t, nil, func(t *testing.T, e *env) {
		site := e.login("site")
		// A checksum that does not match fails the upload.
		wrong := sha([]byte("other"))
		id := e.uploadAll(site, "bad.tif", data, "sha256", wrong)
		sl := e.waitSlide(site, id)
		if sl.Status != 3 || sl.ErrorKey != "slide.checksum_mismatch" || sl.Viewable != 0 || sl.SHA256 != sha(data) {
			t.Fatalf("mismatch: %+v", sl)
		}
		var list struct{ Data []slideOut }
		e.decode(e.expect(e.do("GET", "/api/slides/uploads?tab=failed", site, nil), 200), &list)
		if len(list.Data) != 1 || list.Data[0].ID != id || list.Data[0].Error == "" {
			t.Fatalf("failed tab: %+v", list.Data)
		}
		var counts struct{ Data map[string]int }
		e.decode(e.expect(e.do("GET", "/api/slides/uploads/count", site, nil), 200), &counts)
		if counts.Data["failed"] != 1 || counts.Data["all"] != 1 {
			t.Fatalf("counts: %v", counts.Data)
		}

		// An unsupported format (KFB) is kept and shown as not viewable, with the reason.
		kfb := append([]byte("KFB\x00\x01"), bytes.Repeat([]byte{7}, 5000)...)
		id = e.uploadAll(site, "case-7.kfb", kfb)
		sl = e.waitSlide(site, id)
		if sl.Status != 1 || sl.Viewable != 0 || sl.Format != "kfb" || sl.ErrorKey != "slide.unsupported" || !strings.Contains(sl.Error, "KFB") {
			t.Fatalf("kfb: %+v", sl)
		}
		r := e.expect(e.do("GET", "/api/slides/"+strconv.FormatInt(id, 10)+"/viewer", site, nil, "user-language", "en-US"), 409)
		if !strings.Contains(message(r), "KFB") {
			t.Fatalf("viewer reason: %s", r.Body)
		}
		if n := e.count("slides", "id = ? AND path <> ''", id); n != 1 {
			t.Fatal("kfb file not kept")
		}
		// ... and can still be downloaded as it was uploaded.
		var dl struct {
			Data struct {
				URL string `json:"url"`
			}
		}
		e.decode(e.expect(e.do("GET", "/api/slides/"+strconv.FormatInt(id, 10)+"/download", site, nil), 200), &dl)
		if got := e.expect(e.do("GET", dl.Data.URL, "", nil), 200); !bytes.Equal(got.Body, kfb) {
			t.Fatal("kfb download differs")
		}

		// A truncated pyramid is corrupt.
		id = e.uploadAll(site, "cut.tif", data[:len(data)*2/3])
		sl = e.waitSlide(site, id)
		if sl.Viewable != 0 || sl.ErrorKey != "slide.corrupt" {
			t.Fatalf("truncated: %+v", sl)
		}

		// Refusals: no session, no file name, a malformed checksum.
		e.expect(e.tus("POST", "/api/uploads/", "", nil, "Upload-Length", "10"), 401)
		e.expect(e.tus("POST", "/api/uploads/", site, nil, "Upload-Length", "10"), 400)
		e.expect(e.tus("POST", "/api/uploads/", site, nil, "Upload-Length", "10", "Upload-Metadata", tusMeta("filename", "a.svs", "sha256", "xyz")), 400)
		// Canceling an upload removes it.
		loc := e.createUpload(site, 100, "filename", "gone.svs")
		e.expect(e.tus("DELETE", loc, site, nil), 204)
		if n := e.count("slides", "filename = 'gone.svs' AND status = -1"); n != 1 {
			t.Fatal("canceled upload not removed")
		}

		// Free space.
		var fs struct {
			Data struct {
				Total, Free int64
				MinFree     int64 `json:"min_free"`
				Warn        bool
			}
		}
		e.decode(e.expect(e.do("GET", "/api/free_space", site, nil), 200), &fs)
		if fs.Data.Total <= 0 || fs.Data.Free <= 0 || fs.Data.Free > fs.Data.Total {
			t.Fatalf("free space: %+v", fs.Data)
		}
	})
}

func TestSlideAttachedToCase(t *testing.T) {
	data := genSlide(t, slidegen.Options{Width: 600, Height: 400, Seed: 9})
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		site, site2, admin := e.login("site"), e.login("site2"), e.login("admin")
		id := e.uploadAll(site, "HE-2.tif", data)
		if sl := e.waitSlide(site, id); sl.Viewable != 1 {
			t.Fatalf("slide: %+v", sl)
		}
		var c struct {
			Data struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("POST", "/api/consultation", site, registration(f, "BL2026-09001", id)), 200), &c)
		sid := strconv.FormatInt(id, 10)
		var sl struct{ Data slideOut }
		e.decode(e.expect(e.do("GET", "/api/slides/"+sid, site, nil), 200), &sl)
		if sl.Data.ConsultID == nil || *sl.Data.ConsultID != c.Data.ID {
			t.Fatalf("not attached: %+v", sl.Data)
		}
		// who may see the case may view the slide; another hospital may not
		e.expect(e.do("GET", "/api/slides/"+sid+"/viewer", site, nil), 200)
		e.expect(e.do("GET", "/api/slides/"+sid+"/viewer", admin, nil), 200)
		e.expect(e.do("GET", "/api/slides/"+sid+"/viewer", site2, nil), 404)
		// unviewed slides of the case, per user
		uid := func(name string) int64 {
			var id int64
			if err := e.app.DB.Get(&id, e.app.DB.Rebind("SELECT id FROM users WHERE username = ?"), name); err != nil {
				t.Fatal(err)
			}
			return id
		}
		if n, err := slideserver.NotViewed(context.Background(), e.app.DB, c.Data.ID, uid("site")); err != nil || n != 1 {
			t.Fatalf("not viewed before: %d %v", n, err)
		}
		e.expect(e.do("POST", "/api/slides/"+sid+"/view", site, nil), 200)
		if n, _ := slideserver.NotViewed(context.Background(), e.app.DB, c.Data.ID, uid("site")); n != 0 {
			t.Fatalf("not viewed after: %d", n)
		}
		if n, _ := slideserver.NotViewed(context.Background(), e.app.DB, c.Data.ID, uid("admin")); n != 1 {
			t.Fatalf("admin not viewed: %d", n)
		}
		// a slide of a case cannot be deleted
		r := e.expect(e.do("DELETE", "/api/slides/"+sid, site, nil, "user-language", "en-US"), 409)
		if !strings.Contains(message(r), "case") {
			t.Fatalf("delete attached: %s", r.Body)
		}
	})
}
