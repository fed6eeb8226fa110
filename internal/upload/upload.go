// Package upload receives whole-slide images with the tus resumable upload
// protocol, checks them (server-side SHA-256 against the browser's, format,
// pyramid) in a small background worker pool, and keeps the slides table:
// the upload lists of /dss/uploading and /dss/uploaded, a slide's
// properties, edits and removal, and the data directory's free space.
package upload

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/files"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
	"telepath/internal/slide/tiles"
)

// Slide statuses (spec 2 §3: -1 means removed and is hidden).
const (
	StatusRemoved    = -1
	StatusUploading  = 0
	StatusUploaded   = 1
	StatusProcessing = 2
	StatusFailed     = 3
)

// SlideFile is one uploaded whole-slide image file.
type SlideFile struct {
	ID                int64             `json:"id" db:"id"`
	ConsultID         *int64            `json:"consult_id" db:"consult_id" doc:"The case it is attached to, null when unattached"`
	OwnerID           int64             `json:"owner_id" db:"owner_id"`
	HospitalID        *int64            `json:"hospital_id" db:"hospital_id"`
	Filename          string            `json:"filename" db:"filename"`
	Filesize          int64             `json:"filesize" db:"filesize"`
	SHA256            string            `json:"sha256" db:"sha256" doc:"Computed by the server once uploaded"`
	Status            int               `json:"status" db:"status" doc:"0 uploading, 1 uploaded, 2 processing (checksum, format), 3 failed"`
	Progress          int               `json:"progress" db:"progress" doc:"Percent uploaded"`
	Format            string            `json:"format" db:"format" doc:"svs, tiff, bigtiff, dicom; kfb, sdpc, ndpi, mrxs, unknown are not viewable"`
	Viewable          int               `json:"viewable" db:"viewable"`
	Error             string            `json:"error_key" db:"error" doc:"Message key of the reason it failed or is not viewable"`
	ErrorMessage      string            `json:"error" db:"-" doc:"The reason, in the caller's language"`
	Width             int64             `json:"width" db:"width"`
	Height            int64             `json:"height" db:"height"`
	MPP               float64           `json:"mpp" db:"mpp" doc:"Microns per pixel at full resolution, 0 when unknown"`
	Objective         float64           `json:"objective" db:"objective"`
	Levels            int               `json:"levels" db:"levels" doc:"Pyramid levels stored in the file"`
	Associated        string            `json:"associated" db:"associated" doc:"Comma-separated associated images: label, macro, thumbnail"`
	Ranse             string            `json:"ranse" db:"ranse" doc:"Stain, HE by default"`
	SpecimenName      string            `json:"specimen_name" db:"specimen_name"`
	ParaffinBlockName string            `json:"paraffin_block_name" db:"paraffin_block_name"`
	Sort              int               `json:"sort" db:"sort"`
	UploadID          string            `json:"upload_id" db:"upload_id" doc:"The tus upload id (/api/uploads/{upload_id})"`
	UploadConsultID   *int64            `json:"upload_consult_id" db:"upload_consult_id" doc:"The case named in the upload's consult_id metadata"`
	Properties        map[string]string `json:"properties,omitempty" db:"-"`
	PropertiesJSON    string            `json:"-" db:"properties"`
	Path              string            `json:"-" db:"path"`
	FilePath          string            `json:"-" db:"file_path"` // a slide stored as a file (demo data): under dataDir/files
	ClientSHA256      string            `json:"-" db:"client_sha256"`
	CreatedAt         time.Time         `json:"created_at" db:"created_at"`
	UpdatedAt         time.Time         `json:"updated_at" db:"updated_at"`
}

var slideColumns = []string{"s.id", "s.consult_id", "s.owner_id", "s.hospital_id", "s.filename", "s.filesize", "s.sha256", "s.status",
	"s.progress", "s.format", "s.viewable", "s.error", "s.width", "s.height", "s.mpp", "s.objective", "s.levels", "s.associated",
	"s.ranse", "s.specimen_name", "s.paraffin_block_name", "s.sort", "s.upload_id", "s.upload_consult_id", "s.properties",
	"s.path", "s.client_sha256", "s.created_at", "s.updated_at",
	"COALESCE((SELECT f.path FROM files f WHERE f.id = s.file_id), '') AS file_path"}

// localize fills ErrorMessage from the error key and the format.
func (sl *SlideFile) localize(lang i18n.Lang) {
	if sl.Error != "" {
		sl.ErrorMessage = i18n.T(lang, sl.Error, map[string]any{"format": formatName(sl.Format)})
	}
}

// HasAssociated reports whether the file holds the associated image name.
func (sl *SlideFile) HasAssociated(name string) bool {
	return slices.Contains(splitComma(sl.Associated), name)
}

// CaseAccess answers whether the caller may see a case.
type CaseAccess func(ctx context.Context, consultID int64) bool

// Options configures the Service. Zero values take the defaults.
type Options struct {
	DataDir      string
	MaxSize      int64   // largest upload; default 10 GB
	MinFreeBytes int64   // refuse an upload that would leave less free; default 5 GB
	MinFreeRatio float64 // ... or less than this share of the disk; default 0.05
	Workers      int     // background checks at once; default 2
}

// Service receives and checks slides.
type Service struct {
	clock  clock.Clock
	db     *db.DB
	opt    Options
	tiles  *tiles.Service
	canSee CaseAccess
	log    *slog.Logger
	// warnBelow is the administrator's low disk space threshold in bytes.
	warnBelow func(context.Context) int64
	// thumbs counts the thumbnails kept beside each hospital's files.
	thumbs func(context.Context) (map[int64]files.Usage, error)

	queue  chan int64
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// UseWarnBelow sets where the low disk space threshold is read from.
func (s *Service) UseWarnBelow(f func(context.Context) int64) { s.warnBelow = f }

// New creates the service. Call Start to run the background checks and
// Close to stop them.
func New(d *db.DB, ts *tiles.Service, canSee CaseAccess, log *slog.Logger, o Options) *Service {
	if o.MaxSize <= 0 {
		o.MaxSize = 10 << 30
	}
	if o.MinFreeBytes == 0 {
		o.MinFreeBytes = 5 << 30
	}
	if o.MinFreeRatio == 0 {
		o.MinFreeRatio = 0.05
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{db: d, opt: o, tiles: ts, canSee: canSee, log: log,
		warnBelow: func(context.Context) int64 { return 0 }, queue: make(chan int64, 4096), ctx: ctx, cancel: cancel}
}

func (s *Service) uploadDir() string { return filepath.Join(s.opt.DataDir, "uploads") }
func (s *Service) slideDir() string  { return filepath.Join(s.opt.DataDir, "slides") }

// FullPath is the path of a slide's stored file, "" when it has none.
func (s *Service) FullPath(sl *SlideFile) string {
	switch {
	case sl.Path != "":
		return filepath.Join(s.slideDir(), sl.Path)
	case sl.FilePath != "":
		return filepath.Join(s.opt.DataDir, "files", sl.FilePath)
	}
	return ""
}

// load reads one slide, removed ones included.
func (s *Service) load(ctx context.Context, q db.Querier, id int64) (*SlideFile, error) {
	var sl SlideFile
	err := db.Get(ctx, q, &sl, s.db.Builder().Select(slideColumns...).From("slides s").Where("s.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load slide")
	}
	return &sl, nil
}

// Visible reports whether the caller may see sl: an administrator; anyone
// who may see its case; for an unattached slide, its uploader and the
// users of its hospital.
func Visible(ctx context.Context, sl *SlideFile, canSee CaseAccess) bool {
	p := access.FromContext(ctx)
	if p == nil || sl.Status == StatusRemoved {
		return false
	}
	if p.IsAdmin() {
		return true
	}
	if sl.ConsultID != nil {
		return canSee != nil && canSee(ctx, *sl.ConsultID)
	}
	return sl.OwnerID == p.UserID || (sl.HospitalID != nil && slices.Contains(p.HospitalIDs, *sl.HospitalID))
}

// Get returns a slide the caller may see (404 otherwise), with its
// properties and its localized error.
func (s *Service) Get(ctx context.Context, lang i18n.Lang, id int64) (*SlideFile, error) {
	sl, err := s.load(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if !Visible(ctx, sl, s.canSee) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	sl.localize(lang)
	sl.Properties = map[string]string{}
	json.Unmarshal([]byte(sl.PropertiesJSON), &sl.Properties) //nolint:errcheck
	return sl, nil
}

// ownHospital reports whether the caller belongs to the slide's hospital
// (or administers everything): they may edit and remove it.
func ownHospital(ctx context.Context, sl *SlideFile) bool {
	p := access.FromContext(ctx)
	if p.IsAdmin() {
		return true
	}
	if sl.HospitalID != nil {
		return slices.Contains(p.HospitalIDs, *sl.HospitalID)
	}
	return sl.OwnerID == p.UserID
}

// hospitalScope limits a slide query to the caller's hospitals.
func hospitalScope(ctx context.Context) sq.Sqlizer {
	p := access.FromContext(ctx)
	if p.IsAdmin() {
		return sq.Expr("1=1")
	}
	if len(p.HospitalIDs) == 0 {
		return sq.Eq{"s.owner_id": p.UserID}
	}
	return sq.Or{sq.Eq{"s.hospital_id": p.HospitalIDs}, sq.Eq{"s.owner_id": p.UserID}}
}

func splitComma(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != ',' {
			i++
		}
		if i > 0 {
			out = append(out, s[:i])
		}
		if i == len(s) {
			break
		}
		s = s[i+1:]
	}
	return out
}

func formatName(f string) string {
	switch f {
	case "", "unknown":
		return "?"
	}
	b := []byte(f)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

// Load returns slide id whatever its status, without asking whether the
// caller may see it (see Visible).
func (s *Service) Load(ctx context.Context, id int64) (*SlideFile, error) {
	sl, err := s.load(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	json.Unmarshal([]byte(sl.PropertiesJSON), &sl.Properties) //nolint:errcheck
	return sl, nil
}

// Localize fills the slide's error message in lang.
func (sl *SlideFile) Localize(lang i18n.Lang) { sl.localize(lang) }
