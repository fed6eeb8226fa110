// Package apidocs serves the interactive API documentation (Stoplight
// Elements) from the binary itself: it works offline and under the app's
// Content-Security-Policy (no inline script, nothing from another origin).
//
// elements/ holds web-components.min.js and styles.min.css of
// @stoplight/elements 9.0.15 (the version huma v2 loads from a CDN; same
// SHA-384), gzipped. To update: `npm pack @stoplight/elements@VERSION`,
// `gzip -9 -n` the two files into elements/, copy the licence files, and
// change Version.
package apidocs

import (
	"compress/gzip"
	"embed"
	"html/template"
	"io"
	"net/http"
	"strings"
)

// Version is the vendored Stoplight Elements release; it names the asset
// paths, so browsers may cache them for good.
const Version = "9.0.15"

//go:embed elements/*.gz
var assets embed.FS

var page = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="referrer" content="no-referrer">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{.Title}}</title>
    <link rel="stylesheet" href="{{.Assets}}/styles.min.css">
    <script src="{{.Assets}}/web-components.min.js"></script>
  </head>
  <body style="height: 100vh;">
    <elements-api apiDescriptionUrl="{{.Spec}}" router="hash" layout="sidebar" tryItCredentialsPolicy="same-origin"></elements-api>
  </body>
</html>`))

// Mount serves the documentation page at path, describing the OpenAPI
// document at spec, and its assets below path.
func Mount(mux *http.ServeMux, path, spec, title string) {
	prefix := path + "/elements-" + Version
	mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		page.Execute(w, map[string]string{"Title": title, "Assets": prefix, "Spec": spec}) //nolint:errcheck
	})
	mux.HandleFunc("GET "+prefix+"/{file}", serveAsset)
}

var types = map[string]string{
	"web-components.min.js": "text/javascript; charset=utf-8",
	"styles.min.css":        "text/css; charset=utf-8",
}

// serveAsset sends a vendored file gzipped, or inflated to a client that
// does not take gzip.
func serveAsset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	ct, ok := types[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	f, err := assets.Open("elements/" + name + ".gz")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Vary", "Accept-Encoding")
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		io.Copy(w, f) //nolint:errcheck
		return
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		http.Error(w, "bad asset", http.StatusInternalServerError)
		return
	}
	io.Copy(w, zr) //nolint:errcheck
}
