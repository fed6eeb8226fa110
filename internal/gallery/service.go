// Package gallery shows a case's image attachments as a gallery (spec 1 §4
// Gallery): their order, which are checked for the report, the annotation
// labels drawn on them, and rotated, cropped or processed copies. Every
// change is a transition of the consultation life cycle: the site while it
// may edit the case, the assigned expert while the case is theirs.
package gallery

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/consultation"
	"telepath/internal/files"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Service keeps the galleries of cases.
type Service struct {
	db    *db.DB
	cases *consultation.Service
	files *files.Service
	clock clock.Clock
	// MaxEditBytes is the largest image the server decodes (thumbnail,
	// rotation, crop, report); larger ones are refused before being read.
	MaxEditBytes int64
}

// DefaultMaxEditBytes is the largest image the gallery decodes.
const DefaultMaxEditBytes = 30 << 20

// New returns the gallery service.
func New(d *db.DB, cases *consultation.Service, f *files.Service) *Service {
	return &Service{db: d, cases: cases, files: f, MaxEditBytes: DefaultMaxEditBytes}
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now() }

// GalleryImage is one image of a case's gallery (spec 1 §3 Image item). Its id is
// the attachment's original file.
type GalleryImage struct {
	ID        int64        `json:"id" db:"file_id" doc:"The attachment's original file; the gallery item's id"`
	ConsultID int64        `json:"consult_id" db:"consult_id"`
	Name      string       `json:"name" db:"filename"`
	Checked   bool         `json:"check" db:"checked" doc:"Printed in the report"`
	Sort      int          `json:"sort" db:"sort"`
	Edited    bool         `json:"edited" db:"edited" doc:"Rotated or cropped; restore gives the original back"`
	Labels    []ImageLabel `json:"labels" db:"-"`
	LabelsRaw string       `json:"-" db:"labels"`
	OwnerID   int64        `json:"-" db:"owner_id"`
	Current   int64        `json:"version" db:"current_id" doc:"The file shown now: changes when the image is rotated, cropped or restored"`
	CreatedAt time.Time    `json:"created_at" db:"created_at"`
	Path      string       `json:"path" db:"-" doc:"The image"`
	Thumb     string       `json:"thumb" db:"-" doc:"A small copy of the image (its address changes with the version: the browser keeps it)"`
	Deletable bool         `json:"deletable" db:"-"`
}

// Gallery is a case's images and what the caller may do with them.
type Gallery struct {
	ConsultID int64          `json:"consult_id"`
	ConsultNo string         `json:"consult_no"`
	Editable  bool           `json:"editable" doc:"The caller may annotate, check, reorder and edit images"`
	Items     []GalleryImage `json:"items"`
}

// imageTypes are the stored types shown in the gallery.
var imageTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp"}

// items lists a case's image attachments in gallery order.
func (s *Service) items(ctx context.Context, q db.Querier, consultID int64, where sq.Sqlizer) ([]GalleryImage, error) {
	out := []GalleryImage{}
	b := s.db.Builder().Select("a.file_id", "a.consult_id", "f.filename", "COALESCE(g.checked, 0) AS checked",
		"COALESCE(g.sort, a.sort) AS sort", "CASE WHEN g.edited_file_id IS NULL THEN 0 ELSE 1 END AS edited",
		"COALESCE(g.labels, '[]') AS labels", "f.owner_id", "COALESCE(g.edited_file_id, a.file_id) AS current_id", "a.created_at").
		From("attachments a").Join("files f ON f.id = a.file_id").
		LeftJoin("gallery_images g ON g.consult_id = a.consult_id AND g.file_id = a.file_id").
		Where("a.consult_id = ? AND a.status >= 0", consultID).Where(sq.Eq{"f.content_type": imageTypes}).
		OrderBy("sort", "a.id")
	if where != nil {
		b = b.Where(where)
	}
	if err := db.Select(ctx, q, &out, b); err != nil {
		return nil, apperr.Wrap(err, "load gallery")
	}
	for i := range out {
		out[i].Labels = decodeLabels(out[i].LabelsRaw)
		out[i].Path = fmt.Sprintf("/api/gallery/%d/%d/image", consultID, out[i].ID)
		out[i].Thumb = fmt.Sprintf("%s?thumb=true&v=%d", out[i].Path, out[i].Current)
	}
	return out, nil
}

// editAction is the transition the caller may change the case's gallery
// with, if any: the site's update, or the assigned expert's.
func editAction(actions []consultation.Action) (consultation.Action, bool) {
	for _, a := range []consultation.Action{consultation.ActUpdate, consultation.ActShotsUpdate} {
		if slices.Contains(actions, a) {
			return a, true
		}
	}
	return "", false
}

// deletable says whether the caller may remove an image: the site while it
// edits the case, the expert only the images they saved.
func deletable(act consultation.Action, it GalleryImage, userID int64) bool {
	return act == consultation.ActUpdate || act == consultation.ActShotsUpdate && it.OwnerID == userID
}

// Get is a case's gallery, for those who may see the case.
func (s *Service) Get(ctx context.Context, consultID int64) (*Gallery, error) {
	d, err := s.cases.Detail(ctx, consultID)
	if err != nil {
		return nil, err
	}
	l, err := s.items(ctx, s.db, consultID, nil)
	if err != nil {
		return nil, err
	}
	act, ok := editAction(d.Actions)
	uid := access.FromContext(ctx).UserID
	for i := range l {
		l[i].Deletable = ok && deletable(act, l[i], uid)
	}
	return &Gallery{ConsultID: consultID, ConsultNo: d.ConsultNo, Editable: ok, Items: l}, nil
}

// Item is one image of a case's gallery.
func (s *Service) Item(ctx context.Context, consultID, fileID int64) (*GalleryImage, error) {
	g, err := s.Get(ctx, consultID)
	if err != nil {
		return nil, err
	}
	for _, it := range g.Items {
		if it.ID == fileID {
			return &it, nil
		}
	}
	return nil, apperr.New(apperr.NotFound, "error.not_found")
}

// Attachment finds the case an attachment belongs to among those the
// caller may see (the /attach/{id} page), and its gallery item.
func (s *Service) Attachment(ctx context.Context, fileID int64) (*GalleryImage, error) {
	cases, err := s.cases.CasesOfFile(ctx, fileID)
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		if s.cases.CanSee(ctx, c) {
			return s.Item(ctx, c, fileID)
		}
	}
	return nil, apperr.New(apperr.NotFound, "error.not_found")
}

// change runs one gallery write as a transition of the case: the case is
// checked (scope, state, holder), the write and the case log share one
// transaction. fn gets the caller's transition and the item, when one is named.
func (s *Service) change(ctx context.Context, consultID, fileID int64, detail string,
	fn func(tx *db.Tx, act consultation.Action, it *GalleryImage) error) error {
	d, err := s.cases.Detail(ctx, consultID)
	if err != nil {
		return err
	}
	act, ok := editAction(d.Actions)
	if !ok {
		act = consultation.ActShotsUpdate // refused by the life cycle with its own message
		if access.FromContext(ctx).HasAny(access.HospitalRoles) {
			act = consultation.ActUpdate
		}
	}
	return s.cases.Apply(ctx, consultID, act, detail, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		var it *GalleryImage
		if fileID != 0 {
			l, err := s.items(ctx, tx, consultID, sq.Eq{"a.file_id": fileID})
			if err != nil {
				return consultation.Change{}, err
			}
			if len(l) == 0 {
				return consultation.Change{}, apperr.New(apperr.NotFound, "error.not_found")
			}
			it = &l[0]
		}
		return consultation.Change{}, fn(tx, act, it)
	})
}

// upsert writes an item's gallery row, creating it the first time.
func (s *Service) upsert(ctx context.Context, tx *db.Tx, consultID int64, it *GalleryImage, vals map[string]any) error {
	vals["updated_by"], vals["updated_at"] = access.FromContext(ctx).UserID, s.now()
	res, err := db.Exec(ctx, tx, tx.Builder().Update("gallery_images").SetMap(vals).Where("consult_id = ? AND file_id = ?", consultID, it.ID))
	if err != nil {
		return apperr.Wrap(err, "update gallery image")
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	row := map[string]any{"consult_id": consultID, "file_id": it.ID, "checked": flag(it.Checked), "sort": it.Sort, "labels": it.LabelsRaw}
	if it.Current != it.ID {
		row["edited_file_id"] = it.Current
	}
	for k, v := range vals {
		row[k] = v
	}
	_, err = db.Exec(ctx, tx, tx.Builder().Insert("gallery_images").SetMap(row))
	return apperr.Wrap(err, "insert gallery image")
}

// GalleryOrderItem is one image's place and check in a reordered gallery.
type GalleryOrderItem struct {
	ID    int64 `json:"id" minimum:"1"`
	Check bool  `json:"check"`
}

// Arrange sets the order of a case's images and which are checked for the
// report, in one transaction: items lists every image of the gallery.
func (s *Service) Arrange(ctx context.Context, consultID int64, items []GalleryOrderItem) (*Gallery, error) {
	err := s.change(ctx, consultID, 0, "", func(tx *db.Tx, _ consultation.Action, _ *GalleryImage) error {
		cur, err := s.items(ctx, tx, consultID, nil)
		if err != nil {
			return err
		}
		byID := map[int64]*GalleryImage{}
		for i := range cur {
			byID[cur[i].ID] = &cur[i]
		}
		seen := map[int64]bool{}
		checked := 0
		for _, o := range items {
			if byID[o.ID] == nil || seen[o.ID] {
				return apperr.New(apperr.Invalid, "error.validation").Field("items", "gallery.unknown_image")
			}
			seen[o.ID] = true
			if o.Check {
				checked++
			}
		}
		if len(seen) != len(cur) {
			return apperr.New(apperr.Invalid, "error.validation").Field("items", "gallery.incomplete_order")
		}
		if checked > maxChecked {
			return apperr.New(apperr.Invalid, "error.validation").Field("items", "gallery.too_many_checked", "max", maxChecked)
		}
		for i, o := range items {
			if err := s.upsert(ctx, tx, consultID, byID[o.ID], map[string]any{"sort": i, "checked": flag(o.Check)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, consultID)
}

// Delete removes an image from the case (not from the store: the case log
// and other cases may still name the file).
func (s *Service) Delete(ctx context.Context, consultID, fileID int64) error {
	return s.change(ctx, consultID, fileID, "", func(tx *db.Tx, act consultation.Action, it *GalleryImage) error {
		if !deletable(act, *it, access.FromContext(ctx).UserID) {
			return apperr.New(apperr.Forbidden, "gallery.not_deletable")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("gallery_images").Where("consult_id = ? AND file_id = ?", consultID, fileID)); err != nil {
			return apperr.Wrap(err, "delete gallery image")
		}
		return s.cases.DetachFile(ctx, tx, consultID, fileID)
	})
}

// SaveLabels replaces the annotation labels of an image.
func (s *Service) SaveLabels(ctx context.Context, consultID, fileID int64, labels []ImageLabel) (*GalleryImage, error) {
	if labels == nil {
		labels = []ImageLabel{}
	}
	err := s.change(ctx, consultID, fileID, "", func(tx *db.Tx, _ consultation.Action, it *GalleryImage) error {
		w, h, err := s.size(ctx, it.Current)
		if err != nil {
			return err
		}
		if err := checkLabels(labels, w, h); err != nil {
			return err
		}
		raw, err := jsonString(labels)
		if err != nil {
			return err
		}
		return s.upsert(ctx, tx, consultID, it, map[string]any{"labels": raw})
	})
	if err != nil {
		return nil, err
	}
	return s.Item(ctx, consultID, fileID)
}

// maxChecked is how many images a report prints.
const maxChecked = 4

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

func jsonString(v any) (string, error) {
	var b strings.Builder
	if err := jsonEncoder(&b).Encode(v); err != nil {
		return "", apperr.Wrap(err, "encode labels")
	}
	return strings.TrimSpace(b.String()), nil
}
