package app

import (
	"encoding/json"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"telepath/internal/platform/i18n"
)

// spa serves the built web app: files as they are (hashed assets cached for
// a year), every other path the index page so the client router decides.
func spa(ui fs.FS) http.Handler {
	files := http.FileServerFS(ui)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" {
			if f, err := fs.Stat(ui, name); err == nil && !f.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
					if serveEncoded(w, r, ui, name) {
						return
					}
				}
				files.ServeHTTP(w, r)
				return
			}
		}
		index, err := fs.ReadFile(ui, "index.html")
		if err != nil {
			http.Error(w, "web app not built: run make build", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(index)
	})
}

// precompressed are the copies the web build makes of each asset
// (web/vite.config.ts), best first.
var precompressed = []struct{ encoding, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// serveEncoded sends the precompressed copy of an asset the client accepts;
// false when there is none.
func serveEncoded(w http.ResponseWriter, r *http.Request, ui fs.FS, name string) bool {
	w.Header().Set("Vary", "Accept-Encoding")
	for _, p := range precompressed {
		if !acceptsEncoding(r.Header.Get("Accept-Encoding"), p.encoding) {
			continue
		}
		f, err := ui.Open(name + p.ext)
		if err != nil {
			continue
		}
		defer f.Close()
		info, err := f.Stat()
		content, seekable := f.(io.ReadSeeker)
		if err != nil || !seekable {
			return false
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
		w.Header().Set("Content-Encoding", p.encoding)
		http.ServeContent(w, r, name, info.ModTime(), content)
		return true
	}
	return false
}

// acceptsEncoding reports whether an Accept-Encoding header allows the
// encoding: named, or by *, and not with q=0.
func acceptsEncoding(header, encoding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		token, params, _ := strings.Cut(part, ";")
		token = strings.TrimSpace(token)
		allowed := !zeroQuality(params)
		if token == encoding {
			return allowed
		}
		if token == "*" {
			star = allowed
		}
	}
	return star
}

func zeroQuality(params string) bool {
	q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
	if !ok {
		return false
	}
	v, err := strconv.ParseFloat(q, 64)
	return err == nil && v == 0
}

// apiNotFound answers unknown /api paths in the API's error shape.
func apiNotFound() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		msg := i18n.T(i18n.Parse(r.Header.Get("user-language")), "error.route_not_found", nil)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]string{"message": msg})
	})
}
