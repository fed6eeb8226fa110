package upload

import (
	"context"
	"net/http"
	"os"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/listquery"
)

var (
	tags = []string{"Slides"}
	// uploaders are the roles of the hospital side that upload and manage slides.
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

type listInput struct {
	listquery.Input
	Tab string `query:"tab" enum:"all,uploading,uploaded,failed" doc:"uploading (with processing), uploaded, failed; default all"`
}

type editBody struct {
	ID   int64 `path:"id" minimum:"1"`
	Body struct {
		Ranse             *string `json:"ranse,omitempty" maxLength:"50" doc:"Stain"`
		SpecimenName      *string `json:"specimen_name,omitempty" maxLength:"200"`
		ParaffinBlockName *string `json:"paraffin_block_name,omitempty" maxLength:"200"`
		Sort              *int    `json:"sort,omitempty" minimum:"0" maximum:"100000"`
	}
}

// Routes registers the slide upload lists, a slide's properties, edits,
// removal and the free space of the data directory.
func (s *Service) Routes(api *httpx.API) {
	list := func(ctx context.Context, in *listInput) (*httpx.List[SlideFile], error) {
		q, err := uploadList.Parse(s.db.Dialect, in.Request())
		if err != nil {
			return nil, err
		}
		scope := sq.And{hospitalScope(ctx), sq.Expr("s.status >= 0")}
		if c := uploadTabs[in.Tab]; c != nil {
			scope = append(scope, c)
		}
		base := s.db.Builder().Select(slideColumns...).From("slides s").Where(scope)
		count := s.db.Builder().Select("COUNT(*)").From("slides s").Where(scope)
		rows, page, err := listquery.Run[SlideFile](ctx, s.db, q, base, count)
		if err != nil {
			return nil, err
		}
		lang := httpx.Lang(ctx)
		for i := range rows {
			rows[i].localize(lang)
		}
		return httpx.Page(rows, page), nil
	}
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/slides/uploads", ID: "slide-uploads", Tags: tags, Roles: access.SlideUploaders,
		Summary: "The caller's hospital's uploaded slides with status, progress and error (tabs uploading, uploaded, failed)"}, list)
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/slides/uploads/count", ID: "slide-uploads-count", Tags: tags, Roles: access.SlideUploaders,
		Summary: "Counts of the upload tabs: {all, uploading, uploaded, failed}"},
		func(ctx context.Context, in *listquery.Input) (*httpx.Data[map[string]int64], error) {
			q, err := uploadList.Parse(s.db.Dialect, in.Request())
			if err != nil {
				return nil, err
			}
			from := s.db.Builder().Select().From("slides s").Where(sq.And{hospitalScope(ctx), sq.Expr("s.status >= 0")})
			out, err := listquery.Counts(ctx, s.db, q, from, uploadTabs)
			if err != nil {
				return nil, err
			}
			return httpx.OK(out), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/slides/{id}", ID: "slide-get", Tags: tags, Roles: access.Any,
		Summary: "A slide with its properties (the caller must see its case, or be of its hospital when unattached)"},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Data[*SlideFile], error) {
			sl, err := s.Get(ctx, httpx.Lang(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(sl), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodPost, Path: "/api/slides/{id}", ID: "slide-update", Tags: tags, Roles: access.SlideUploaders,
		Summary: "Edit a slide's stain, specimen, paraffin block and order"},
		func(ctx context.Context, in *editBody) (*httpx.Data[*SlideFile], error) {
			sl, err := s.Get(ctx, httpx.Lang(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			if !ownHospital(ctx, sl) {
				return nil, apperr.New(apperr.NotFound, "error.not_found")
			}
			set := map[string]any{}
			b := in.Body
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
				set["updated_at"] = time.Now().UTC()
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
			sl, err = s.Get(ctx, httpx.Lang(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return httpx.OK(sl), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodDelete, Path: "/api/slides/{id}", ID: "slide-delete", Tags: tags, Roles: access.SlideUploaders,
		Summary: "Remove an unattached slide of one's own hospital and delete its file"},
		func(ctx context.Context, in *httpx.IDPath) (*httpx.Empty, error) {
			sl, err := s.Get(ctx, httpx.Lang(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			if !ownHospital(ctx, sl) {
				return nil, apperr.New(apperr.NotFound, "error.not_found")
			}
			if sl.ConsultID != nil {
				return nil, apperr.New(apperr.Conflict, "slide.attached")
			}
			err = s.db.InTx(ctx, func(tx *db.Tx) error {
				res, err := db.Exec(ctx, tx, tx.Builder().Update("slides").Set("status", StatusRemoved).Set("updated_at", time.Now().UTC()).
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
				return nil, err
			}
			if sl.Path != "" { // never a demo file shared by hard links
				full := s.FullPath(sl)
				s.tiles.Forget(full)
				os.Remove(full)
			}
			return httpx.Done(), nil
		})
	httpx.Register(api, httpx.Route{Method: http.MethodGet, Path: "/api/free_space", ID: "free-space", Tags: tags, Roles: access.SlideUploaders,
		Summary: "Disk space of the slide store (for those who upload): total, free, used, reserved (bytes), used_percent, and warn when below the upload threshold"},
		func(ctx context.Context, _ *struct{}) (*httpx.Data[Disk], error) {
			d, err := s.DiskSpace()
			if err != nil {
				return nil, apperr.Wrap(err, "disk space")
			}
			if d.Reserved, err = s.promised(ctx, s.db); err != nil {
				return nil, err
			}
			d.Warn = d.Free-d.Reserved < d.MinFree
			return httpx.OK(d), nil
		})
}
