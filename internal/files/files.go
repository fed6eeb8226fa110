// Package files stores uploaded files (attachments, images) in the data
// directory and serves them to those allowed to see them.
package files

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// MaxAttachment is the largest attachment (spec 2 §9: 200 M).
const MaxAttachment = 200 << 20

// File is a stored upload.
type File struct {
	ID          int64     `json:"id" db:"id"`
	Filename    string    `json:"filename" db:"filename"`
	Size        int64     `json:"size" db:"size"`
	SHA256      string    `json:"sha256" db:"sha256"`
	ContentType string    `json:"content_type" db:"content_type"`
	URL         string    `json:"url" db:"-"`
	OwnerID     int64     `json:"-" db:"owner_id"`
	HospitalID  *int64    `json:"-" db:"hospital_id"`
	Path        string    `json:"-" db:"path"`
	CreatedAt   time.Time `json:"created_at" db:"created_at"`
}

// CaseAccess answers whether the caller may see a case (for files attached to one).
type CaseAccess func(ctx context.Context, consultID int64) bool

// Service stores and serves files.
type Service struct {
	clock   clock.Clock
	db      *db.DB
	dir     string
	canSee  CaseAccess
	casesOf func(ctx context.Context, fileID int64) ([]int64, error)
	maxSize int64
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// New returns the service storing under dataDir/files.
func New(d *db.DB, dataDir string) *Service {
	return &Service{db: d, dir: filepath.Join(dataDir, "files"), maxSize: MaxAttachment}
}

// SetCaseAccess lets the consultation domain decide who sees attached files:
// casesOf lists the cases a file is attached to, canSee says whether the
// caller sees a case.
func (s *Service) SetCaseAccess(canSee CaseAccess, casesOf func(ctx context.Context, fileID int64) ([]int64, error)) {
	s.canSee, s.casesOf = canSee, casesOf
}

// Save streams r to disk under a random name, hashing as it goes, and
// records it. It refuses more than maxSize bytes without keeping them.
func (s *Service) Save(ctx context.Context, kind, filename, contentType string, r io.Reader) (*File, error) {
	f, full, err := s.write(ctx, filename, contentType, r)
	if err != nil {
		return nil, err
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error { return s.record(ctx, tx, kind, f) })
	if err != nil {
		os.Remove(full)
		return nil, err
	}
	return f, nil
}

// SaveIn stores r as Save does, recorded in the caller's transaction: the
// file on disk is removed when that transaction does not commit, so a
// refused write leaves nothing behind.
func (s *Service) SaveIn(ctx context.Context, tx *db.Tx, kind, filename, contentType string, r io.Reader) (*File, error) {
	f, full, err := s.write(ctx, filename, contentType, r)
	if err != nil {
		return nil, err
	}
	tx.OnRollback(func() { os.Remove(full) })
	return f, s.record(ctx, tx, kind, f)
}

// write streams r to disk under a random name, hashing as it goes.
func (s *Service) write(ctx context.Context, filename, contentType string, r io.Reader) (*File, string, error) {
	p := access.FromContext(ctx)
	filename = cleanName(filename)
	if filename == "" {
		return nil, "", apperr.New(apperr.Invalid, "error.validation").Field("file", "field.required")
	}
	now := s.clock.Now()
	rel := filepath.Join(now.Format("2006/01"), randomName()+strings.ToLower(filepath.Ext(filename)))
	full := filepath.Join(s.dir, rel)
	if err := os.MkdirAll(filepath.Dir(full), 0o750); err != nil {
		return nil, "", apperr.Wrap(err, "files dir")
	}
	out, err := os.OpenFile(full, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, "", apperr.Wrap(err, "create file")
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(r, s.maxSize+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil || n > s.maxSize {
		os.Remove(full)
		if n > s.maxSize {
			return nil, "", apperr.New(apperr.TooLarge, "file.too_large")
		}
		return nil, "", apperr.Wrap(err, "write file")
	}
	f := &File{Filename: filename, Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), ContentType: contentType, OwnerID: p.UserID, Path: rel, CreatedAt: now}
	if len(p.HospitalIDs) > 0 {
		h := p.HospitalIDs[0]
		f.HospitalID = &h
	}
	return f, full, nil
}

// record inserts a written file's row, audited.
func (s *Service) record(ctx context.Context, tx *db.Tx, kind string, f *File) error {
	var hospital any
	if f.HospitalID != nil {
		hospital = *f.HospitalID
	}
	var err error
	f.ID, err = db.InsertID(ctx, tx, tx.Builder().Insert("files").
		Columns("kind", "owner_id", "hospital_id", "filename", "path", "size", "sha256", "content_type", "created_at").
		Values(kind, f.OwnerID, hospital, f.Filename, f.Path, f.Size, f.SHA256, f.ContentType, f.CreatedAt))
	if err != nil {
		return apperr.Wrap(err, "record file")
	}
	f.URL = "/api/files/" + strconv.FormatInt(f.ID, 10)
	return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "file.upload", ObjectType: "file", ObjectID: f.ID,
		After: map[string]any{"filename": f.Filename, "size": f.Size, "sha256": f.SHA256}})
}

// Attachable implements consultation.FileResolver: the caller's own
// uploads, or their hospital's (whether another case uses them is the
// consultation domain's to say).
func (s *Service) Attachable(ctx context.Context, hospitalID int64, ids []int64) (map[int64]bool, error) {
	p := access.FromContext(ctx)
	var ok []int64
	err := db.Select(ctx, s.db, &ok, s.db.Builder().Select("f.id").From("files f").Where(sq.Eq{"f.id": ids}).
		Where(sq.Or{sq.Eq{"f.owner_id": p.UserID}, sq.Eq{"f.hospital_id": hospitalID}}))
	out := map[int64]bool{}
	for _, id := range ok {
		out[id] = true
	}
	return out, apperr.Wrap(err, "check files")
}

// open returns a file the caller may read: their own upload, or one
// attached to a case they may see.
func (s *Service) open(ctx context.Context, id int64) (*File, error) {
	var f File
	err := db.Get(ctx, s.db, &f, s.db.Builder().Select("id", "filename", "size", "sha256", "content_type", "owner_id", "hospital_id", "path", "created_at").
		From("files").Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load file")
	}
	var consults []int64
	if s.casesOf != nil {
		if consults, err = s.casesOf(ctx, id); err != nil {
			return nil, err
		}
	}
	if len(consults) > 0 {
		access.ReadCase(ctx, consults[0])
	}
	p := access.FromContext(ctx)
	if f.OwnerID == p.UserID || p.IsAdmin() {
		return &f, nil
	}
	for _, c := range consults {
		if s.canSee != nil && s.canSee(ctx, c) {
			access.ReadCase(ctx, c)
			return &f, nil
		}
	}
	return nil, apperr.New(apperr.NotFound, "error.not_found")
}

// inlineTypes are the stored types a browser may show in place: images it
// decodes as pictures, PDF and plain text. SVG is left out: it runs scripts.
var inlineTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true, "image/bmp": true,
	"application/pdf": true, "text/plain": true,
}

// servedAs is the Content-Type a stored file is sent with, and whether it
// may be shown inline. The uploader's type is the browser's claim: every
// other type is downloaded, never rendered as a page of this site.
func servedAs(stored string) (string, bool) {
	mt, params, err := mime.ParseMediaType(stored)
	if err != nil || !inlineTypes[mt] {
		return "application/octet-stream", false
	}
	if mt == "text/plain" {
		cs := strings.ToLower(params["charset"])
		if cs == "" || strings.Trim(cs, "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			cs = "utf-8"
		}
		return "text/plain; charset=" + cs, true
	}
	return mt, true
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

func randomName() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func urlEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + strings.ToUpper(hex.EncodeToString([]byte{c})))
		}
	}
	return b.String()
}

// Bytes reads a stored file of at most max bytes, for a domain that has
// checked the caller's access itself (case screenshots in a report).
func (s *Service) Bytes(ctx context.Context, id, max int64) ([]byte, string, error) {
	var f File
	err := db.Get(ctx, s.db, &f, s.db.Builder().Select("id", "filename", "size", "sha256", "content_type", "owner_id", "hospital_id", "path", "created_at").
		From("files").Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, "", apperr.Wrap(err, "load file")
	}
	if f.Size > max {
		return nil, "", apperr.New(apperr.TooLarge, "file.too_large")
	}
	b, err := os.ReadFile(filepath.Join(s.dir, f.Path))
	return b, f.ContentType, apperr.Wrap(err, "read file")
}

// Local returns a stored file's record and its path on disk, for a domain
// that has checked the caller's access itself (a case's gallery). Nothing
// is read: the caller checks the size before opening it.
func (s *Service) Local(ctx context.Context, id int64) (*File, string, error) {
	var f File
	err := db.Get(ctx, s.db, &f, s.db.Builder().Select("id", "filename", "size", "sha256", "content_type", "owner_id", "hospital_id", "path", "created_at").
		From("files").Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, "", apperr.Wrap(err, "load file")
	}
	return &f, filepath.Join(s.dir, f.Path), nil
}
