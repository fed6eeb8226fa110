package upload

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tus/tusd/v2/pkg/filelocker"
	"github.com/tus/tusd/v2/pkg/filestore"
	tusd "github.com/tus/tusd/v2/pkg/handler"
	expslog "golang.org/x/exp/slog"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/i18n"
)

// BasePath is where the tus endpoint is mounted.
const BasePath = "/api/uploads/"

type langKey struct{}

func langOf(ctx context.Context) i18n.Lang {
	if l, ok := ctx.Value(langKey{}).(i18n.Lang); ok {
		return l
	}
	return i18n.ZH
}

// Authenticated resolves the bearer token of every request as the API
// does (401 without a valid session) and puts the principal and the
// user-language in the request context. OPTIONS passes untouched.
func Authenticated(auth httpx.Authenticator, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lang := i18n.Parse(r.Header.Get("user-language"))
		ctx := context.WithValue(r.Context(), langKey{}, lang)
		if r.Method == http.MethodOptions {
			next.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		h := r.Header.Get("Authorization")
		token := ""
		if len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
			token = strings.TrimSpace(h[7:])
		}
		meta := access.Meta{IP: httpx.ClientIP(r), UserAgent: r.UserAgent(), RequestID: r.Header.Get("X-Request-Id")}
		ctx = access.WithMeta(ctx, meta)
		if token == "" {
			writeJSONError(w, http.StatusUnauthorized, i18n.T(lang, "error.unauthorized", nil))
			return
		}
		p, err := auth.Authenticate(ctx, token, meta)
		if err != nil {
			e := httpx.Localize(ctx, lang, err) // 401, or 423 for a locked screen
			writeJSONError(w, e.GetStatus(), e.Message)
			return
		}
		next.ServeHTTP(w, r.WithContext(access.WithPrincipal(ctx, p)))
	})
}

func writeJSONError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]string{"message": msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Tus-Resumable", "1.0.0")
	w.WriteHeader(status)
	w.Write(b) //nolint:errcheck
}

// tusError is a refusal with a localized JSON body {"message": …}.
func tusError(ctx context.Context, status int, key string, args map[string]any) error {
	msg := i18n.T(langOf(ctx), key, args)
	b, _ := json.Marshal(map[string]string{"message": msg})
	e := tusd.NewError(key, msg, status)
	e.HTTPResponse.Body = string(b)
	e.HTTPResponse.Header = tusd.HTTPHeader{"Content-Type": "application/json"}
	return e
}

// Handler returns the tus endpoint (creation, HEAD, PATCH, termination)
// to mount at BasePath behind Authenticated.
func (s *Service) Handler() (http.Handler, error) {
	if err := os.MkdirAll(s.uploadDir(), 0o750); err != nil {
		return nil, err
	}
	composer := tusd.NewStoreComposer()
	fs := filestore.New(s.uploadDir())
	fs.UseIn(composer)
	composer.UseCore(privateStore{fs})
	filelocker.New(s.uploadDir()).UseIn(composer)
	h, err := tusd.NewHandler(tusd.Config{
		BasePath:                   BasePath,
		StoreComposer:              composer,
		MaxSize:                    s.opt.MaxSize,
		DisableDownload:            true,
		Cors:                       &tusd.CorsConfig{Disable: true}, // the app is same-origin
		NotifyUploadProgress:       true,
		UploadProgressInterval:     2 * time.Second,
		RespectForwardedHeaders:    true, // httpx.Wrap drops them unless a trusted proxy sent them
		Logger:                     expslog.New(expslog.NewTextHandler(os.Stderr, &expslog.HandlerOptions{Level: expslog.LevelError})),
		PreUploadCreateCallback:    s.preCreate,
		PreFinishResponseCallback:  s.finished,
		PreUploadTerminateCallback: s.terminate,
	})
	if err != nil {
		return nil, err
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			select {
			case <-s.ctx.Done():
				return
			case ev := <-h.UploadProgress:
				if ev.Upload.Size > 0 {
					pct := int(ev.Upload.Offset * 100 / ev.Upload.Size)
					db.Exec(s.ctx, s.db, s.db.Builder().Update("slides").Set("progress", min(pct, 99)). //nolint:errcheck
																Where("upload_id = ? AND status = ?", ev.Upload.ID, StatusUploading))
				}
			}
		}
	}()
	routed := http.StripPrefix(strings.TrimSuffix(BasePath, "/"), h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost || r.Method == http.MethodOptions {
			routed.ServeHTTP(w, r)
			return
		}
		// Only the uploader may resume an upload; an administrator may also
		// inspect or cancel it, but never write into it.
		id := path.Base(r.URL.Path)
		var row struct {
			OwnerID  int64 `db:"owner_id"`
			Status   int   `db:"status"`
			Filesize int64 `db:"filesize"`
		}
		err := db.Get(r.Context(), s.db, &row, s.db.Builder().Select("owner_id", "status", "filesize").From("slides").
			Where("upload_id = ?", id).OrderBy("id DESC").Limit(1))
		p := access.FromContext(r.Context())
		if err != nil || (row.OwnerID != p.UserID && !p.IsAdmin()) || row.Status == StatusRemoved {
			writeJSONError(w, http.StatusNotFound, i18n.T(langOf(r.Context()), "error.not_found", nil))
			return
		}
		if row.OwnerID != p.UserID && r.Method == http.MethodPatch {
			writeJSONError(w, http.StatusForbidden, i18n.T(langOf(r.Context()), "error.forbidden", nil))
			return
		}
		if row.Status != StatusUploading {
			// Finished: tell a resuming client it is complete.
			if r.Method == http.MethodHead {
				w.Header().Set("Tus-Resumable", "1.0.0")
				w.Header().Set("Cache-Control", "no-store")
				w.Header().Set("Upload-Offset", strconv.FormatInt(row.Filesize, 10))
				w.Header().Set("Upload-Length", strconv.FormatInt(row.Filesize, 10))
				w.WriteHeader(http.StatusOK)
				return
			}
			writeJSONError(w, http.StatusConflict, i18n.T(langOf(r.Context()), "slide.upload_finished", nil))
			return
		}
		routed.ServeHTTP(w, r)
	}), nil
}

// privateStore is tus's file store creating an upload's data and info
// files readable by their owner only (tus makes them 0664).
type privateStore struct{ filestore.FileStore }

func (p privateStore) NewUpload(ctx context.Context, info tusd.FileInfo) (tusd.Upload, error) {
	up, err := p.FileStore.NewUpload(ctx, info)
	if err != nil {
		return nil, err
	}
	fi, err := up.GetInfo(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range []string{fi.Storage["Path"], fi.Storage["InfoPath"]} {
		if err := os.Chmod(f, 0o600); err != nil {
			return nil, err
		}
	}
	return up, nil
}

// preCreate checks a new upload (who, size, disk space, metadata) and
// records it as an uploading slide under an id of our own.
func (s *Service) preCreate(hook tusd.HookEvent) (tusd.HTTPResponse, tusd.FileInfoChanges, error) {
	ctx := hook.Context
	p := access.FromContext(ctx)
	var none tusd.FileInfoChanges
	if p == nil {
		return tusd.HTTPResponse{}, none, tusError(ctx, http.StatusUnauthorized, "error.unauthorized", nil)
	}
	if len(p.HospitalIDs) == 0 && !p.IsAdmin() {
		return tusd.HTTPResponse{}, none, tusError(ctx, http.StatusForbidden, "slide.no_hospital", nil)
	}
	up := hook.Upload
	md := up.MetaData
	name := cleanName(md["filename"])
	if name == "" {
		name = cleanName(md["name"])
	}
	if name == "" {
		return tusd.HTTPResponse{}, none, tusError(ctx, http.StatusBadRequest, "slide.filename_required", nil)
	}
	if up.SizeIsDeferred || up.IsPartial || up.IsFinal {
		return tusd.HTTPResponse{}, none, tusError(ctx, http.StatusBadRequest, "slide.length_required", nil)
	}
	if up.Size > s.opt.MaxSize {
		return tusd.HTTPResponse{}, none, tusError(ctx, http.StatusRequestEntityTooLarge, "slide.too_large", map[string]any{"max": gb(s.opt.MaxSize)})
	}
	if d, err := s.DiskSpace(); err == nil && d.Free-up.Size < d.MinFree {
		return tusd.HTTPResponse{}, none, tusError(ctx, http.StatusInsufficientStorage, "slide.low_disk", map[string]any{"free": gb(d.Free)})
	}
	sum := strings.ToLower(strings.TrimSpace(md["sha256"]))
	if sum != "" {
		if b, err := hex.DecodeString(sum); err != nil || len(b) != 32 {
			return tusd.HTTPResponse{}, none, tusError(ctx, http.StatusBadRequest, "slide.bad_sha256", nil)
		}
	}
	var consult any
	if c := strings.TrimSpace(md["consult_id"]); c != "" && c != "0" {
		id, err := strconv.ParseInt(c, 10, 64)
		if err != nil || id <= 0 || s.canSee == nil || !s.canSee(ctx, id) {
			return tusd.HTTPResponse{}, none, tusError(ctx, http.StatusNotFound, "error.not_found", nil)
		}
		consult = id
	}
	var hospital any
	if len(p.HospitalIDs) > 0 {
		hospital = p.HospitalIDs[0]
	}
	id := randomName()
	now := s.clock.Now()
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.reserve(ctx, tx, up.Size); err != nil {
			return err
		}
		sid, err := db.InsertID(ctx, tx, tx.Builder().Insert("slides").
			Columns("owner_id", "hospital_id", "filename", "filesize", "client_sha256", "status", "upload_id", "upload_consult_id", "source_ip", "created_at", "updated_at").
			Values(p.UserID, hospital, name, up.Size, sum, StatusUploading, id, consult, access.MetaFrom(ctx).IP, now, now))
		if err != nil {
			return apperr.Wrap(err, "record upload")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "slide.upload_start", ObjectType: "slide", ObjectID: sid,
			After: map[string]any{"filename": name, "size": up.Size, "upload_id": id}})
	})
	var refused tusd.Error
	if errors.As(err, &refused) {
		return tusd.HTTPResponse{}, none, refused
	}
	if err != nil {
		return tusd.HTTPResponse{}, none, tusError(ctx, http.StatusInternalServerError, "error.internal", nil)
	}
	return tusd.HTTPResponse{}, tusd.FileInfoChanges{ID: id}, nil
}

// reserve refuses an upload of size bytes when the free space, less what
// is promised to the uploads in progress, would fall below the threshold.
// The upload's row, once inserted in the same transaction, is its
// reservation; finishing, cancelling or expiring it releases it. Checks
// and inserts are serialised (SQLite writes one at a time; PostgreSQL
// takes a transaction lock), so concurrent uploads cannot all be promised
// the same space.
func (s *Service) reserve(ctx context.Context, tx *db.Tx, size int64) error {
	d, err := s.DiskSpace()
	if err != nil {
		return nil // the space is unknown: as before, nothing is refused
	}
	if tx.Dialect == db.Postgres {
		if _, err := tx.ExecContext(ctx, tx.Rebind("SELECT pg_advisory_xact_lock(?)"), uploadSpaceLock); err != nil {
			return apperr.Wrap(err, "lock upload space")
		}
	}
	promised, err := s.promised(ctx, tx)
	if err != nil {
		return err
	}
	if d.Free-promised-size < d.MinFree {
		return tusError(ctx, http.StatusInsufficientStorage, "slide.low_disk_reserved", map[string]any{"free": gb(d.Free), "reserved": gb(promised)})
	}
	return nil
}

// uploadSpaceLock is the PostgreSQL advisory lock of upload reservations.
const uploadSpaceLock = 0x7e1e9a7

// promised is the space the uploads in progress may still fill: their
// declared sizes less what has arrived.
func (s *Service) promised(ctx context.Context, q db.Querier) (int64, error) {
	var rows []struct {
		UploadID string `db:"upload_id"`
		Filesize int64  `db:"filesize"`
	}
	if err := db.Select(ctx, q, &rows, s.db.Builder().Select("upload_id", "filesize").From("slides").Where("status = ?", StatusUploading)); err != nil {
		return 0, apperr.Wrap(err, "uploads in progress")
	}
	var n int64
	for _, r := range rows {
		got := int64(0)
		if !strings.ContainsAny(r.UploadID, "/\\.") && r.UploadID != "" {
			got = max(fileSize(filepath.Join(s.uploadDir(), r.UploadID)), 0)
		}
		n += max(r.Filesize-got, 0)
	}
	return n, nil
}

// finished moves a complete upload under slides/YYYY/MM and queues its
// checks (checksum, format, pyramid, thumbnail).
func (s *Service) finished(hook tusd.HookEvent) (tusd.HTTPResponse, error) {
	ctx := hook.Context
	var sl SlideFile
	err := db.Get(ctx, s.db, &sl, s.db.Builder().Select(slideColumns...).From("slides s").
		Where("s.upload_id = ? AND s.status = ?", hook.Upload.ID, StatusUploading))
	if err != nil {
		return tusd.HTTPResponse{}, tusError(ctx, http.StatusNotFound, "error.not_found", nil)
	}
	if err := s.complete(ctx, &sl, hook.Upload.Size, hook.Upload.Storage["Path"], hook.Upload.Storage["InfoPath"], ""); err != nil {
		s.log.Error("slide upload: finish", "slide", sl.ID, "err", err)
		return tusd.HTTPResponse{}, tusError(ctx, http.StatusInternalServerError, "error.internal", nil)
	}
	return tusd.HTTPResponse{Header: tusd.HTTPHeader{"Slide-Id": strconv.FormatInt(sl.ID, 10)}}, nil
}

// storedPath is where a slide's finished upload is kept, under the slide
// directory: named after its upload so that a move the database never
// learnt of (the process died in between) can be found again.
func storedPath(sl *SlideFile) string {
	return filepath.Join(sl.CreatedAt.UTC().Format("2006/01"), sl.UploadID+extOf(sl.Filename))
}

// complete moves a finished upload's file (src) to its stored path,
// records it as uploaded and queues its check. The tus bookkeeping (info)
// is removed only after the commit: when recording fails, the file goes
// back and the upload stays as it was, finished on disk, for repair at the
// next start. note is the audit message.
func (s *Service) complete(ctx context.Context, sl *SlideFile, size int64, src, info, note string) error {
	rel := storedPath(sl)
	full := filepath.Join(s.slideDir(), rel)
	if err := os.MkdirAll(filepath.Dir(full), 0o750); err != nil {
		return err
	}
	if src != full {
		if err := os.Rename(src, full); err != nil {
			return err
		}
	}
	if err := os.Chmod(full, 0o600); err != nil {
		return err
	}
	now := s.clock.Now()
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("slides").Set("path", rel).Set("status", StatusProcessing).
			Set("progress", 100).Set("filesize", size).Set("updated_at", now).Where("id = ? AND status = ?", sl.ID, StatusUploading)); err != nil {
			return apperr.Wrap(err, "finish upload")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "slide.upload", ObjectType: "slide", ObjectID: sl.ID, UserID: sl.OwnerID,
			After: map[string]any{"filename": sl.Filename, "size": size}, Message: note})
	})
	if err != nil {
		if src != full {
			os.Rename(full, src) //nolint:errcheck // the upload stays where tus keeps it
		}
		return err
	}
	if info != "" {
		os.Remove(info)
	}
	s.enqueue(sl.ID)
	return nil
}

// terminate marks a canceled upload removed.
func (s *Service) terminate(hook tusd.HookEvent) (tusd.HTTPResponse, error) {
	ctx := hook.Context
	_, err := db.Exec(ctx, s.db, s.db.Builder().Update("slides").Set("status", StatusRemoved).Set("updated_at", s.clock.Now()).
		Where("upload_id = ? AND status = ?", hook.Upload.ID, StatusUploading))
	if err != nil {
		return tusd.HTTPResponse{}, tusError(ctx, http.StatusInternalServerError, "error.internal", nil)
	}
	return tusd.HTTPResponse{}, nil
}

func gb(n int64) string { return fmt.Sprintf("%.1f GB", float64(n)/(1<<30)) }

func randomName() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// extOf is the lower-case extension of name when it is a plain one.
func extOf(name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	if len(ext) < 2 || len(ext) > 9 {
		return ""
	}
	for _, c := range ext[1:] {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	return ext
}

func cleanName(name string) string {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(r rune) rune {
		if r < 32 || r == 127 {
			return -1
		}
		return r
	}, name)
	if name == "." || name == "/" {
		return ""
	}
	if r := []rune(name); len(r) > 200 {
		name = string(r[len(r)-200:])
	}
	return name
}
