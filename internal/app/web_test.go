package app

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
)

func TestSPAServesThePrecompressedCopyTheBrowserAccepts(t *testing.T) {
	ui := fstest.MapFS{
		"index.html":          {Data: []byte("<html></html>")},
		"assets/app.js":       {Data: []byte("plain")},
		"assets/app.js.br":    {Data: []byte("brotli")},
		"assets/app.js.gz":    {Data: []byte("gzip")},
		"assets/style.css":    {Data: []byte("css")},
		"assets/style.css.gz": {Data: []byte("css-gzip")},
	}
	h := spa(ui)
	cases := []struct {
		path, accept, body, encoding string
	}{
		{"/assets/app.js", "gzip, deflate, br, zstd", "brotli", "br"},
		{"/assets/app.js", "gzip", "gzip", "gzip"},
		{"/assets/app.js", "br;q=0, gzip;q=0.8", "gzip", "gzip"},
		{"/assets/app.js", "*", "brotli", "br"},
		{"/assets/app.js", "*;q=0, gzip", "gzip", "gzip"},
		{"/assets/app.js", "", "plain", ""},
		{"/assets/app.js", "identity", "plain", ""},
		{"/assets/app.js", "gzip;q=0", "plain", ""},
		{"/assets/style.css", "br, gzip", "css-gzip", "gzip"},
	}
	for _, c := range cases {
		req := httptest.NewRequest(http.MethodGet, c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		body, _ := io.ReadAll(rec.Body)
		if rec.Code != http.StatusOK || string(body) != c.body || rec.Header().Get("Content-Encoding") != c.encoding {
			t.Errorf("%s with Accept-Encoding %q: %d %q encoding %q, want %q encoding %q", c.path, c.accept, rec.Code, body, rec.Header().Get("Content-Encoding"), c.body, c.encoding)
		}
		if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%s: Vary %q", c.path, got)
		}
		if ct := rec.Header().Get("Content-Type"); c.path == "/assets/app.js" && ct != "text/javascript; charset=utf-8" {
			t.Errorf("%s with %q: Content-Type %q", c.path, c.accept, ct)
		}
	}

	// A range of the compressed copy is a range of its bytes.
	req := httptest.NewRequest(http.MethodGet, "/assets/app.js", nil)
	req.Header.Set("Accept-Encoding", "br")
	req.Header.Set("Range", "bytes=0-1")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusPartialContent || rec.Body.String() != "br" {
		t.Errorf("range: %d %q", rec.Code, rec.Body.String())
	}

	// Other paths are the index page, never compressed copies.
	req = httptest.NewRequest(http.MethodGet, "/case/manage", nil)
	req.Header.Set("Accept-Encoding", "br")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Body.String() != "<html></html>" || rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("index: %q encoding %q", rec.Body.String(), rec.Header().Get("Content-Encoding"))
	}
}
