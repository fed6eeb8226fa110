// Package slideserver shows whole-slide images to those allowed to see
// them. An authenticated, scope-checked call (GET /api/slides/{id}/viewer)
// grants the slide to the caller's session and returns URLs that carry the
// signed grant; the Deep Zoom, IIIF, thumbnail, label and download handlers
// behind them are plain net/http (OpenSeadragon sends no custom headers),
// check the grant (grants.go) and serve from tiles.Service with strong
// ETags and immutable caching.
package slideserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/i18n"
	"telepath/internal/slide/tiles"
	"telepath/internal/upload"
)

// entry is what the tile handlers need of a slide.
type entry struct {
	path     string // absolute; "" when the slide is not (or no longer) uploaded
	viewable bool
	filename string
	at       time.Time
	mark     string // a share's watermark, drawn into every image served ("" for a session's grant)
}

// Server issues signed URLs and serves what they address.
type Server struct {
	db       *db.DB
	up       *upload.Service
	tiles    *tiles.Service
	canSee   upload.CaseAccess
	sessions Sessions
	now      func() time.Time

	lookup func(ctx context.Context, id int64) (entry, error)
	mu     sync.RWMutex
	cache  map[int64]entry

	grants grantCache
	keys   keyCache
	shares ShareCheck
	marks  markCache
	// imageMu lets one image attachment be stamped at a time (StampImage).
	imageMu sync.Mutex

	annotationsSaved func(ctx context.Context, consultID, slideID int64)
}

// New creates the server; canSee answers whether the caller may see a
// case, sessions whether a session still lives.
func New(ctx context.Context, d *db.DB, up *upload.Service, ts *tiles.Service, canSee upload.CaseAccess, sessions Sessions) (*Server, error) {
	ring, err := loadKeys(ctx, d)
	if err != nil {
		return nil, err
	}
	s := &Server{db: d, up: up, tiles: ts, canSee: canSee, sessions: sessions, now: clock.Clock{}.Now, cache: map[int64]entry{}}
	s.keys.add(ring)
	s.lookup = func(ctx context.Context, id int64) (entry, error) {
		sl, err := up.Load(ctx, id)
		if err != nil {
			return entry{}, err
		}
		e := entry{filename: sl.Filename}
		if sl.Status == upload.StatusUploaded {
			e.path, e.viewable = up.FullPath(sl), sl.Viewable == 1
		}
		return e, nil
	}
	return s, nil
}

// cacheTTL bounds how long a removed slide may still be served by a
// process that did not remove it.
const cacheTTL = 30 * time.Second

func (s *Server) slidePath(ctx context.Context, id int64) (entry, bool) {
	now := s.now()
	s.mu.RLock()
	e, ok := s.cache[id]
	s.mu.RUnlock()
	if ok && now.Sub(e.at) < cacheTTL {
		return e, e.path != ""
	}
	e, err := s.lookup(ctx, id)
	if err != nil {
		if apperr.CodeOf(err) != apperr.NotFound {
			return entry{}, false
		}
		e = entry{}
	}
	e.at = now
	s.mu.Lock()
	if len(s.cache) > 100000 {
		clear(s.cache)
	}
	s.cache[id] = e
	s.mu.Unlock()
	return e, e.path != ""
}

// Invalidate drops the cached path of a slide (after removal).
func (s *Server) Invalidate(id int64) {
	s.mu.Lock()
	delete(s.cache, id)
	s.mu.Unlock()
}

// Viewer is what a viewer needs to show a slide.
type Viewer struct {
	ID           int64     `json:"id"`
	Filename     string    `json:"filename"`
	Format       string    `json:"format"`
	Width        int64     `json:"width" doc:"Full-resolution pixels"`
	Height       int64     `json:"height"`
	Levels       int       `json:"levels" doc:"Pyramid levels stored in the file"`
	MaxLevel     int       `json:"max_level" doc:"Highest Deep Zoom level (full resolution)"`
	TileSize     int       `json:"tile_size" doc:"Deep Zoom tile size, overlap 0"`
	MPP          float64   `json:"mpp" doc:"Microns per pixel at full resolution, 0 when unknown"`
	Objective    float64   `json:"objective"`
	DZIURL       string    `json:"dzi_url" doc:"Deep Zoom descriptor; tiles are at …/slide_files/{level}/{col}_{row}.jpeg"`
	IIIFURL      string    `json:"iiif_url" doc:"IIIF Image API 3.0 info.json"`
	ThumbnailURL string    `json:"thumbnail_url" doc:"Whole slide, at most 512 px (…?max=N, up to 2048)"`
	LabelURL     string    `json:"label_url" doc:"Label image, empty when the file has none"`
	MacroURL     string    `json:"macro_url" doc:"Macro (overview) image, empty when the file has none"`
	DownloadURL  string    `json:"download_url" doc:"The original file (Range requests supported)"`
	ExpiresAt    time.Time `json:"expires_at" doc:"The URLs answer 403 after this unless renewed (POST /api/slides/{id}/grant); they also stop when the session ends or the slide leaves the caller's scope"`
}

type viewRecord struct {
	SlideID       int64     `json:"slide_id" db:"slide_id"`
	FirstViewedAt time.Time `json:"first_viewed_at" db:"first_viewed_at"`
	LastViewedAt  time.Time `json:"last_viewed_at" db:"last_viewed_at"`
	ViewCount     int       `json:"view_count" db:"view_count"`
}

// visible loads a slide the caller may see (404 otherwise).
func (s *Server) visible(ctx context.Context, id int64) (*upload.SlideFile, error) {
	sl, err := s.up.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if sl.ConsultID != nil {
		access.ReadCase(ctx, *sl.ConsultID) // for the audit record of a read
	}
	if !upload.Visible(ctx, sl, s.canSee) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	return sl, nil
}

// DownloadURL returns a signed URL of a slide's original file, also for
// slides that cannot be displayed.
func (s *Server) DownloadURL(ctx context.Context, id int64) (*Download, error) {
	sl, err := s.visible(ctx, id)
	if err != nil {
		return nil, err
	}
	if sl.Status != upload.StatusUploaded || s.up.FullPath(sl) == "" {
		return nil, apperr.New(apperr.Conflict, "slide.not_uploaded")
	}
	g, err := s.grant(ctx, id)
	if err != nil {
		return nil, err
	}
	return &Download{URL: g.URL + "/download", Filename: sl.Filename, Filesize: sl.Filesize, SHA256: sl.SHA256, ExpiresAt: g.ExpiresAt}, nil
}

// RenewGrant extends the caller's grant of a slide they may see.
func (s *Server) RenewGrant(ctx context.Context, id int64) (*Grant, error) {
	if _, err := s.visible(ctx, id); err != nil {
		return nil, err
	}
	return s.grant(ctx, id)
}

// Viewer checks that the caller may see slide id and that it can be shown,
// and returns its signed URLs.
func (s *Server) Viewer(ctx context.Context, id int64) (*Viewer, error) {
	sl, err := s.visible(ctx, id)
	if err != nil {
		return nil, err
	}
	switch {
	case sl.Status == upload.StatusUploading || sl.Status == upload.StatusProcessing:
		return nil, apperr.New(apperr.Conflict, "slide.not_uploaded")
	case sl.Viewable != 1 || sl.Status != upload.StatusUploaded:
		key := sl.Error
		if key == "" {
			key = "slide.load_failed"
		}
		return nil, apperr.New(apperr.Conflict, key).With("format", strings.ToUpper(orUnknown(sl.Format)))
	}
	g, err := s.grant(ctx, id)
	if err != nil {
		return nil, err
	}
	v, err := s.viewerOf(sl, g.URL, g.IIIFURL)
	if err != nil {
		return nil, err
	}
	v.ExpiresAt = g.ExpiresAt
	return v, nil
}

// viewerOf is the viewer of a viewable slide whose URLs start with base
// (Deep Zoom) and iiif.
func (s *Server) viewerOf(sl *upload.SlideFile, base, iiif string) (*Viewer, error) {
	src, release, err := s.tiles.Acquire(s.up.FullPath(sl))
	if err != nil {
		return nil, apperr.New(apperr.Conflict, "slide.load_failed")
	}
	defer release()
	v := &Viewer{ID: sl.ID, Filename: sl.Filename, Format: sl.Format, Width: sl.Width, Height: sl.Height, Levels: sl.Levels,
		MaxLevel: src.MaxLevel(), TileSize: src.TileSize(), MPP: sl.MPP, Objective: sl.Objective,
		DZIURL: base + "/slide.dzi", IIIFURL: iiif + "/info.json", ThumbnailURL: base + "/thumbnail.jpg",
		DownloadURL: base + "/download"}
	// From the file itself: slides recorded by other means (demo data)
	// may lack these columns.
	lv := src.Slide.Levels()
	v.Width, v.Height, v.Levels = int64(lv[0].Width), int64(lv[0].Height), len(lv)
	for _, name := range src.Slide.AssociatedImages() {
		switch name {
		case "label":
			v.LabelURL = base + "/label.jpg"
		case "macro":
			v.MacroURL = base + "/macro.jpg"
		}
	}
	return v, nil
}

// Download is a signed link to a slide's original file.
type Download struct {
	URL       string    `json:"url" doc:"GET it without headers; Range requests supported"`
	Filename  string    `json:"filename"`
	Filesize  int64     `json:"filesize"`
	SHA256    string    `json:"sha256"`
	ExpiresAt time.Time `json:"expires_at"`
}

// NotViewed counts the slides of a case that userID has not opened yet
// (diagnosis not_view_count; "unviewed slides prompt before sign").
func NotViewed(ctx context.Context, d *db.DB, consultID, userID int64) (int, error) {
	return upload.NotOpened(ctx, d, consultID, userID)
}

// RecordView stores the caller's first (and latest) view of a slide.
func (s *Server) RecordView(ctx context.Context, id int64) (viewRecord, error) {
	if _, err := s.visible(ctx, id); err != nil {
		return viewRecord{}, err
	}
	p := access.FromContext(ctx)
	now := s.now().UTC()
	if err := upload.RecordView(ctx, s.db, id, p.UserID, now); err != nil {
		return viewRecord{}, err
	}
	v, err := upload.LoadView(ctx, s.db, id, p.UserID)
	return viewRecord(v), err
}

func orUnknown(f string) string {
	if f == "" || f == "unknown" {
		return "?"
	}
	return f
}

// UseClock sets the clock the server reads the time from.
func (s *Server) UseClock(c clock.Clock) { s.now = c.Now }

// Mount registers the signed-URL handlers on mux.
func (s *Server) Mount(mux *http.ServeMux) {
	const sp = "/api/slides/{id}/g/{grant}/"
	const ip = "/api/iiif/{id}/g/{grant}/"
	mux.HandleFunc("GET "+sp+"slide.dzi", s.signed(s.dzi))
	mux.HandleFunc("GET "+sp+"slide_files/{level}/{tile}", s.signed(s.tile))
	mux.HandleFunc("GET "+sp+"thumbnail.jpg", s.signed(s.thumbnail))
	mux.HandleFunc("GET "+sp+"label.jpg", s.signed(s.associated("label")))
	mux.HandleFunc("GET "+sp+"macro.jpg", s.signed(s.associated("macro")))
	mux.HandleFunc("GET "+sp+"download", s.download)
	mux.HandleFunc("GET "+ip+"info.json", s.signed(s.infoJSON))
	mux.HandleFunc("GET "+ip+"{region}/{size}/{rotation}/{file}", s.signed(s.iiif))
}

// handler serves one request for an opened slide.
type handler func(w http.ResponseWriter, r *http.Request, e entry, src *tiles.Source)

// signed checks the signature and expiry, finds the slide and opens it.
func (s *Server) signed(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		e, ok := s.check(w, r)
		if !ok {
			return
		}
		if !e.viewable {
			fail(w, r, http.StatusNotFound, "error.not_found")
			return
		}
		src, release, err := s.tiles.Acquire(e.path)
		if err != nil {
			fail(w, r, http.StatusInternalServerError, "slide.load_failed")
			return
		}
		defer release()
		h(w, r, e, src)
	}
}

// check verifies the grant and finds the slide's file.
func (s *Server) check(w http.ResponseWriter, r *http.Request) (entry, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		fail(w, r, http.StatusNotFound, "error.not_found")
		return entry{}, false
	}
	tok := r.PathValue("grant")
	mark := ""
	if isShareGrant(tok) {
		// A share's visitors see watermarked images only (shares.go).
		g, ok := s.shareGranted(r.Context(), id, tok)
		if !ok || !sharedPart(r.URL.Path, g.Label) {
			fail(w, r, http.StatusForbidden, "slide.link_expired")
			return entry{}, false
		}
		mark = g.Watermark[requestLang(r)]
	} else if !s.granted(r.Context(), id, tok) {
		fail(w, r, http.StatusForbidden, "slide.link_expired")
		return entry{}, false
	}
	e, ok := s.slidePath(r.Context(), id)
	if !ok {
		fail(w, r, http.StatusNotFound, "error.not_found")
	}
	e.mark = mark
	return e, ok
}

// sharedPart reports whether a share grant may open path: the Deep Zoom
// descriptor and tiles, the thumbnail, and the label when label; never the
// macro image, the original file or IIIF (whose outputs are not stamped).
func sharedPart(path string, label bool) bool {
	switch {
	case strings.HasPrefix(path, "/api/iiif/"):
		return false
	case strings.HasSuffix(path, "/slide.dzi"), strings.Contains(path, "/slide_files/"), strings.HasSuffix(path, "/thumbnail.jpg"):
		return true
	case strings.HasSuffix(path, "/label.jpg"):
		return label
	}
	return false
}

// requestLang is the language of a request: the app's user-language
// header, else the browser's (image requests carry only Accept-Language).
func requestLang(r *http.Request) i18n.Lang {
	if l := r.Header.Get("user-language"); l != "" {
		return i18n.Parse(l)
	}
	return i18n.Parse(r.Header.Get("Accept-Language"))
}

func fail(w http.ResponseWriter, r *http.Request, status int, key string) {
	msg := i18n.T(i18n.Parse(r.Header.Get("user-language")), key, nil)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintf(w, "{\"message\":%q}", msg)
}

func tileFail(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, tiles.ErrNotFound):
		fail(w, r, http.StatusNotFound, "error.not_found")
	case errors.Is(err, tiles.ErrBadRequest):
		fail(w, r, http.StatusBadRequest, "slide.bad_tile_request")
	case errors.Is(err, tiles.ErrTooCostly):
		fail(w, r, http.StatusUnprocessableEntity, "slide.too_costly")
	default:
		fail(w, r, http.StatusInternalServerError, "slide.load_failed")
	}
}

var (
	hdrJPEG      = []string{"image/jpeg"}
	hdrImmutable = []string{"private, max-age=31536000, immutable"}
)

// send writes an immutable response with a strong ETag (304 when it matches).
func send(w http.ResponseWriter, r *http.Request, b []byte, ct []string, tag string) {
	h := w.Header()
	h["Etag"] = []string{tag}
	h["Cache-Control"] = hdrImmutable
	if inm := r.Header["If-None-Match"]; len(inm) > 0 && etagMatch(inm, tag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h["Content-Type"] = ct
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	if r.Method != http.MethodHead {
		w.Write(b) //nolint:errcheck
	}
}

func etagMatch(values []string, tag string) bool {
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			if p := strings.TrimSpace(part); p == tag || p == "*" {
				return true
			}
		}
	}
	return false
}

func (s *Server) dzi(w http.ResponseWriter, r *http.Request, e entry, src *tiles.Source) {
	send(w, r, s.tiles.DZI(src), []string{"application/xml"}, `"dzi-`+strconv.Itoa(len(src.ID))+strconv.FormatUint(hashString(src.ID), 36)+`"`)
}

func (s *Server) tile(w http.ResponseWriter, r *http.Request, e entry, src *tiles.Source) {
	L, err1 := strconv.Atoi(r.PathValue("level"))
	name, ok := strings.CutSuffix(r.PathValue("tile"), ".jpeg")
	if !ok {
		name, ok = strings.CutSuffix(r.PathValue("tile"), ".jpg")
	}
	c, rr, ok2 := strings.Cut(name, "_")
	col, err2 := strconv.Atoi(c)
	row, err3 := strconv.Atoi(rr)
	if err1 != nil || err2 != nil || err3 != nil || !ok || !ok2 {
		fail(w, r, http.StatusNotFound, "error.not_found")
		return
	}
	b, tag, err := s.tiles.Tile(r.Context(), src, L, col, row)
	if err == nil && e.mark != "" {
		b, tag, err = s.marks.stamp(b, tag, e.mark, src.TileSize())
	}
	if err != nil {
		tileFail(w, r, err)
		return
	}
	send(w, r, b, hdrJPEG, tag)
}

func (s *Server) thumbnail(w http.ResponseWriter, r *http.Request, e entry, src *tiles.Source) {
	size := 512
	if m := r.URL.Query().Get("max"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 16 || n > 2048 {
			fail(w, r, http.StatusBadRequest, "slide.bad_tile_request")
			return
		}
		size = n
	}
	b, tag, err := s.tiles.Thumbnail(r.Context(), src, size)
	if err == nil && e.mark != "" {
		b, tag, err = s.marks.stamp(b, tag, e.mark, src.TileSize())
	}
	if err != nil {
		tileFail(w, r, err)
		return
	}
	send(w, r, b, hdrJPEG, tag)
}

func (s *Server) associated(name string) handler {
	return func(w http.ResponseWriter, r *http.Request, e entry, src *tiles.Source) {
		b, tag, err := s.tiles.Associated(r.Context(), src, name, 2048)
		if err == nil && e.mark != "" {
			b, tag, err = s.marks.stamp(b, tag, e.mark, src.TileSize())
		}
		if err != nil {
			tileFail(w, r, err)
			return
		}
		send(w, r, b, hdrJPEG, tag)
	}
}

func (s *Server) infoJSON(w http.ResponseWriter, r *http.Request, e entry, src *tiles.Source) {
	base := strings.TrimSuffix(r.URL.Path, "/info.json")
	b := s.tiles.InfoJSON(src, httpx.Scheme(r)+"://"+r.Host+base)
	h := w.Header()
	h.Set("Content-Type", "application/ld+json")
	h.Set("Cache-Control", "private, max-age=3600")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b) //nolint:errcheck
}

func (s *Server) iiif(w http.ResponseWriter, r *http.Request, e entry, src *tiles.Source) {
	quality, format, _ := strings.Cut(r.PathValue("file"), ".")
	b, ct, tag, err := s.tiles.IIIF(r.Context(), src, r.PathValue("region"), r.PathValue("size"), r.PathValue("rotation"), quality, format)
	if err != nil {
		tileFail(w, r, err)
		return
	}
	send(w, r, b, []string{ct}, tag)
}

func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
