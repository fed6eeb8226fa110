package shots

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // decoders for the screenshots' check
	_ "image/png"
	"io"
	"mime/multipart"
	"slices"
	"strings"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/files"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/report"
)

// Files stores the screenshots' image files.
type Files interface {
	Save(ctx context.Context, kind, filename, contentType string, r io.Reader) (*files.File, error)
	Bytes(ctx context.Context, id, max int64) ([]byte, string, error)
}

// Limits of a screenshot saved to a case.
const (
	MaxShotBytes = 5 << 20
	maxShotPx    = 10000
	maxShots     = 50
)

// Shot is an image captured from a slide and saved to the case (spec 2 §7
// save_shots); the selected ones are printed in the report.
type Shot struct {
	ID            int64     `json:"id" db:"id"`
	ConsultID     int64     `json:"consult_id" db:"consult_id"`
	SlideID       *int64    `json:"slide_id" db:"slide_id"`
	Caption       string    `json:"caption" db:"caption"`
	Selected      bool      `json:"selected" db:"selected" doc:"Printed in the report"`
	CreatedBy     int64     `json:"created_by" db:"created_by"`
	CreatedByName string    `json:"created_by_name" db:"created_by_name"`
	CreatedAt     time.Time `json:"created_at" db:"created_at"`
	FileID        int64     `json:"-" db:"file_id"`
	URL           string    `json:"url" db:"-" doc:"The image (same authorization as the case)"`
}

// checkShot validates an uploaded screenshot and returns its content type.
func checkShot(b []byte) (string, error) {
	if len(b) == 0 {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("file", "field.required")
	}
	if len(b) > MaxShotBytes {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("file", "shot.too_large", "max", MaxShotBytes>>20)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || (format != "jpeg" && format != "png") {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("file", "shot.bad_type")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxShotPx || cfg.Height > maxShotPx {
		return "", apperr.New(apperr.Invalid, "error.validation").Field("file", "shot.bad_size", "max", maxShotPx)
	}
	return "image/" + format, nil
}

// SaveShot stores an image captured from one of the case's slides.
func (s *Service) SaveShot(ctx context.Context, id int64, img []byte, slideID int64, caption string) (*Shot, error) {
	caption = strings.TrimSpace(caption)
	if len([]rune(caption)) > 200 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("caption", "field.too_long", "max", 200)
	}
	ct, err := checkShot(img)
	if err != nil {
		return nil, err
	}
	d, err := s.cases.Detail(ctx, id)
	if err != nil {
		return nil, err
	}
	// Refuse before storing the file: the same check as the transition below.
	if !slices.Contains(d.Actions, consultation.ActSaveShots) {
		return nil, s.cases.Apply(ctx, id, consultation.ActSaveShots, "", func(*db.Tx, *consultation.Row, consultation.State) (consultation.Change, error) {
			return consultation.Change{}, apperr.New(apperr.Conflict, "error.forbidden")
		})
	}
	var slide any
	if slideID != 0 {
		if !slices.ContainsFunc(d.Slides, func(sl consultation.Slide) bool { return sl.ID == slideID }) {
			return nil, apperr.New(apperr.Invalid, "error.validation").Field("slide_id", "shot.slide_unknown")
		}
		slide = slideID
	}
	ext := map[string]string{"image/jpeg": ".jpg", "image/png": ".png"}[ct]
	f, err := s.files.Save(ctx, "shot", fmt.Sprintf("%s-%d%s", d.ConsultNo, s.now().Unix(), ext), ct, bytes.NewReader(img))
	if err != nil {
		return nil, err
	}
	var shotID int64
	err = s.cases.Apply(ctx, id, consultation.ActSaveShots, caption, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		var n int
		if err := db.Get(ctx, tx, &n, tx.Builder().Select("COUNT(*)").From("case_shots").Where("consult_id = ? AND deleted_at IS NULL", id)); err != nil {
			return consultation.Change{}, apperr.Wrap(err, "count shots")
		}
		if n >= maxShots {
			return consultation.Change{}, apperr.New(apperr.Conflict, "shot.too_many").With("max", maxShots)
		}
		var err error
		shotID, err = db.InsertID(ctx, tx, tx.Builder().Insert("case_shots").
			Columns("consult_id", "file_id", "slide_id", "caption", "selected", "created_by", "created_at").
			Values(id, f.ID, slide, caption, flag(n < report.MaxImages), access.FromContext(ctx).UserID, s.now()))
		return consultation.Change{}, apperr.Wrap(err, "insert shot")
	})
	if err != nil {
		return nil, err
	}
	return s.shot(ctx, id, shotID)
}

func (s *Service) shotsQuery(q db.Querier, id int64) func(ctx context.Context, where string, args ...any) ([]Shot, error) {
	return func(ctx context.Context, where string, args ...any) ([]Shot, error) {
		out := []Shot{}
		err := db.Select(ctx, q, &out, s.db.Builder().Select("s.id", "s.consult_id", "s.slide_id", "s.caption", "s.selected", "s.created_by",
			"u.name AS created_by_name", "s.created_at", "s.file_id").From("case_shots s").Join("users u ON u.id = s.created_by").
			Where("s.consult_id = ? AND s.deleted_at IS NULL", id).Where(where, args...).OrderBy("s.id"))
		for i := range out {
			out[i].URL = fmt.Sprintf("/api/diagnosis/%d/shots/%d/image", id, out[i].ID)
		}
		return out, apperr.Wrap(err, "load shots")
	}
}

// Shots lists the screenshots of a case the caller may see.
func (s *Service) Shots(ctx context.Context, id int64) ([]Shot, error) {
	if _, err := s.cases.Case(ctx, id); err != nil {
		return nil, err
	}
	return s.shotsQuery(s.db, id)(ctx, "1=1")
}

func (s *Service) shot(ctx context.Context, id, shotID int64) (*Shot, error) {
	l, err := s.shotsQuery(s.db, id)(ctx, "s.id = ?", shotID)
	if err != nil {
		return nil, err
	}
	if len(l) == 0 {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	return &l[0], nil
}

// ShotUpdate changes whether a screenshot goes into the report, or its caption.
type ShotUpdate struct {
	Selected *bool   `json:"selected,omitempty" doc:"Print in the report"`
	Caption  *string `json:"caption,omitempty" maxLength:"400"`
}

// UpdateShot selects a screenshot for the report (at most report.MaxImages) or re-captions it.
func (s *Service) UpdateShot(ctx context.Context, id, shotID int64, in ShotUpdate) (*Shot, error) {
	vals := map[string]any{}
	if in.Caption != nil {
		c := strings.TrimSpace(*in.Caption)
		if len([]rune(c)) > 200 {
			return nil, apperr.New(apperr.Invalid, "error.validation").Field("caption", "field.too_long", "max", 200)
		}
		vals["caption"] = c
	}
	if in.Selected != nil {
		vals["selected"] = flag(*in.Selected)
	}
	if len(vals) == 0 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("selected", "field.required")
	}
	err := s.cases.Apply(ctx, id, consultation.ActShotsUpdate, "", func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		cur, err := s.shotsQuery(tx, id)(ctx, "s.id = ?", shotID)
		if err != nil {
			return consultation.Change{}, err
		}
		if len(cur) == 0 {
			return consultation.Change{}, apperr.New(apperr.NotFound, "error.not_found")
		}
		if in.Selected != nil && *in.Selected && !cur[0].Selected {
			var n int
			if err := db.Get(ctx, tx, &n, tx.Builder().Select("COUNT(*)").From("case_shots").
				Where("consult_id = ? AND deleted_at IS NULL AND selected = 1", id)); err != nil {
				return consultation.Change{}, apperr.Wrap(err, "count selected")
			}
			if n >= report.MaxImages {
				return consultation.Change{}, apperr.New(apperr.Conflict, "shot.too_many_selected").With("max", report.MaxImages)
			}
		}
		_, err = db.Exec(ctx, tx, tx.Builder().Update("case_shots").SetMap(vals).Where("id = ?", shotID))
		return consultation.Change{}, apperr.Wrap(err, "update shot")
	})
	if err != nil {
		return nil, err
	}
	return s.shot(ctx, id, shotID)
}

// DeleteShot removes a screenshot from the case.
func (s *Service) DeleteShot(ctx context.Context, id, shotID int64) error {
	return s.cases.Apply(ctx, id, consultation.ActShotsUpdate, "", func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		res, err := db.Exec(ctx, tx, tx.Builder().Update("case_shots").Set("deleted_at", s.now()).
			Where("id = ? AND consult_id = ? AND deleted_at IS NULL", shotID, id))
		if err != nil {
			return consultation.Change{}, apperr.Wrap(err, "delete shot")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return consultation.Change{}, apperr.New(apperr.NotFound, "error.not_found")
		}
		return consultation.Change{}, nil
	})
}

// ReportImages are the selected screenshots of a case, for its report.
func (s *Service) ReportImages(ctx context.Context, id int64) []report.Image {
	l, err := s.shotsQuery(s.db, id)(ctx, "s.selected = 1")
	if err != nil || s.files == nil {
		return nil
	}
	var out []report.Image
	for _, sh := range l {
		if len(out) == report.MaxImages {
			break
		}
		b, _, err := s.files.Bytes(ctx, sh.FileID, MaxShotBytes)
		if err != nil {
			continue
		}
		out = append(out, report.Image{Data: b, Caption: sh.Caption})
	}
	return out
}

func (s *Service) shotVisible(ctx context.Context, id, shotID int64) (*Shot, error) {
	if _, err := s.cases.Case(ctx, id); err != nil {
		return nil, err
	}
	sh, err := s.shot(ctx, id, shotID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	return sh, err
}

// flag is a boolean as the INTEGER column stores it on both dialects.
func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

func formValue(f multipart.Form, key string) string {
	if v := f.Value[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
