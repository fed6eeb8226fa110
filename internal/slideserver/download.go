package slideserver

import (
	"net/http"
	"net/url"
	"os"
	"strings"
)

// download sends the original file (Range requests, If-Modified-Since).
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	e, ok := s.check(w, r)
	if !ok {
		return
	}
	f, err := os.Open(e.path)
	if err != nil {
		fail(w, r, http.StatusNotFound, "error.not_found")
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		fail(w, r, http.StatusInternalServerError, "slide.load_failed")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", "attachment; filename*=UTF-8''"+strings.ReplaceAll(url.QueryEscape(e.filename), "+", "%20"))
	h.Set("Cache-Control", "private, max-age=3600")
	http.ServeContent(w, r, "", st.ModTime(), f)
}
