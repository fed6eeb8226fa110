package upload

import (
	"context"
	"os"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

var uploadList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":                  {Expr: "s.id", Type: listquery.Int, Sort: true, Filter: true},
		"filename":            {Expr: "s.filename", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"filesize":            {Expr: "s.filesize", Type: listquery.Int, Sort: true, Filter: true},
		"status":              {Expr: "s.status", Type: listquery.Int, Sort: true, Filter: true, Enum: []any{0, 1, 2, 3}},
		"format":              {Expr: "s.format", Type: listquery.String, Sort: true, Filter: true},
		"viewable":            {Expr: "s.viewable", Type: listquery.Int, Filter: true, Enum: []any{0, 1}},
		"consult_id":          {Expr: "s.consult_id", Type: listquery.Int, Filter: true},
		"upload_id":           {Expr: "s.upload_id", Type: listquery.String, Filter: true},
		"specimen_name":       {Expr: "s.specimen_name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"paraffin_block_name": {Expr: "s.paraffin_block_name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"ranse":               {Expr: "s.ranse", Type: listquery.String, Sort: true, Filter: true},
		"created_at":          {Expr: "s.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"updated_at":          {Expr: "s.updated_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"s.id DESC"},
	TieBreak:    "s.id DESC",
	ExtraParams: []string{"tab"},
}

// tabs of /dss/uploading, /dss/uploaded and their failed view.
var uploadTabs = map[string]sq.Sqlizer{
	"all":       nil,
	"uploading": sq.Eq{"s.status": []int{StatusUploading, StatusProcessing}},
	"uploaded":  sq.Eq{"s.status": StatusUploaded},
	"failed":    sq.Eq{"s.status": StatusFailed},
}

// Uploads returns a page of the caller's hospital's slides; tab narrows it.
func (s *Service) Uploads(ctx context.Context, req listquery.Request, tab string) ([]SlideFile, listquery.Pagination, error) {
	q, err := uploadList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	scope := sq.And{hospitalScope(ctx), sq.Expr("s.status >= 0")}
	if c := uploadTabs[tab]; c != nil {
		scope = append(scope, c)
	}
	base := s.db.Builder().Select(slideColumns...).From("slides s").Where(scope)
	count := s.db.Builder().Select("COUNT(*)").From("slides s").Where(scope)
	rows, page, err := listquery.Run[SlideFile](ctx, s.db, q, base, count)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	lang := i18n.From(ctx)
	for i := range rows {
		rows[i].localize(lang)
	}
	return rows, page, nil
}

// UploadCounts counts the upload tabs.
func (s *Service) UploadCounts(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := uploadList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	from := s.db.Builder().Select().From("slides s").Where(sq.And{hospitalScope(ctx), sq.Expr("s.status >= 0")})
	return listquery.Counts(ctx, s.db, q, from, uploadTabs)
}

// SlideEdit holds the properties of a slide to change; nil leaves one as it is.
type SlideEdit struct {
	Ranse             *string
	SpecimenName      *string
	ParaffinBlockName *string
	Sort              *int
}

// Edit changes a slide of the caller's hospital and returns it.
func (s *Service) Edit(ctx context.Context, lang i18n.Lang, id int64, b SlideEdit) (*SlideFile, error) {
	sl, err := s.Get(ctx, lang, id)
	if err != nil {
		return nil, err
	}
	if !ownHospital(ctx, sl) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	set := map[string]any{}
	if b.Ranse != nil {
		set["ranse"] = *b.Ranse
	}
	if b.SpecimenName != nil {
		set["specimen_name"] = *b.SpecimenName
	}
	if b.ParaffinBlockName != nil {
		set["paraffin_block_name"] = *b.ParaffinBlockName
	}
	if b.Sort != nil {
		set["sort"] = *b.Sort
	}
	if len(set) > 0 {
		set["updated_at"] = s.clock.Now()
		err = s.db.InTx(ctx, func(tx *db.Tx) error {
			if _, err := db.Exec(ctx, tx, tx.Builder().Update("slides").SetMap(set).Where("id = ?", sl.ID)); err != nil {
				return apperr.Wrap(err, "update slide")
			}
			return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "slide.update", ObjectType: "slide", ObjectID: sl.ID,
				Before: map[string]any{"ranse": sl.Ranse, "specimen_name": sl.SpecimenName, "paraffin_block_name": sl.ParaffinBlockName, "sort": sl.Sort},
				After:  set})
		})
		if err != nil {
			return nil, err
		}
	}
	return s.Get(ctx, lang, id)
}

// Remove removes an unattached slide of the caller's hospital and deletes its file.
func (s *Service) Remove(ctx context.Context, id int64) error {
	sl, err := s.Get(ctx, i18n.ZH, id)
	if err != nil {
		return err
	}
	if !ownHospital(ctx, sl) {
		return apperr.New(apperr.NotFound, "error.not_found")
	}
	if sl.ConsultID != nil {
		return apperr.New(apperr.Conflict, "slide.attached")
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := db.Exec(ctx, tx, tx.Builder().Update("slides").Set("status", StatusRemoved).Set("updated_at", s.clock.Now()).
			Where("id = ? AND consult_id IS NULL AND status >= 0", sl.ID))
		if err != nil {
			return apperr.Wrap(err, "remove slide")
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return apperr.New(apperr.Conflict, "slide.attached")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "slide.delete", ObjectType: "slide", ObjectID: sl.ID,
			Before: map[string]any{"filename": sl.Filename, "sha256": sl.SHA256, "size": sl.Filesize}})
	})
	if err != nil {
		return err
	}
	if sl.Path != "" { // never a demo file shared by hard links
		full := s.FullPath(sl)
		s.tiles.Forget(full)
		os.Remove(full)
	}
	return nil
}

// FreeSpace reports the slide store's disk space, less what running uploads
// were promised.
func (s *Service) FreeSpace(ctx context.Context) (Disk, error) {
	d, err := s.DiskSpace()
	if err != nil {
		return d, apperr.Wrap(err, "disk space")
	}
	if d.Reserved, err = s.promised(ctx, s.db); err != nil {
		return d, err
	}
	d.WarnBelow = s.warnBelow(ctx)
	d.Warn = d.Free-d.Reserved < max(d.MinFree, d.WarnBelow)
	return d, nil
}
