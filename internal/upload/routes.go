package upload

import (
	"context"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/i18n"
	"telepath/internal/platform/listquery"
)

// Routes registers the slide upload lists, a slide's properties, edits,
// removal and the free space of the data directory.
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Slides", []httpx.Route{
		{Method: "GET", Path: "/api/slides/uploads", Roles: access.SlideUploaders, Handler: httpx.Paged(s.uploads), ID: "slide-uploads", Summary: "The caller's hospital's uploaded slides with status, progress and error (tabs uploading, uploaded, failed)"},
		{Method: "GET", Path: "/api/slides/uploads/count", Roles: access.SlideUploaders, Handler: httpx.CountsOf(s.UploadCounts), ID: "slide-uploads-count", Summary: "Counts of the upload tabs: {all, uploading, uploaded, failed}"},
		{Method: "GET", Path: "/api/slides/{id}", Roles: access.Any, Handler: httpx.ByID(s.slide), ID: "slide-get", Summary: "A slide with its properties (the caller must see its case, or be of its hospital when unattached)"},
		{Method: "POST", Path: "/api/slides/{id}", Roles: access.SlideUploaders, Handler: httpx.Value(s.edit), ID: "slide-update", Summary: "Edit a slide's stain, specimen, paraffin block and order"},
		{Method: "DELETE", Path: "/api/slides/{id}", Roles: access.SlideUploaders, Handler: httpx.ActionByID(s.Remove), ID: "slide-delete", Summary: "Remove an unattached slide of one's own hospital and delete its file"},
		{Method: "GET", Path: "/api/config/storage", Roles: access.Admins, Handler: httpx.Result(s.Storage), ID: "storage-get", Summary: "Where slides and attachments live: the data directory, its disk (with the low disk space threshold) and each hospital's storage mode and usage"},
		{Method: "GET", Path: "/api/free_space", Roles: access.SlideUploaders, Handler: httpx.Result(s.FreeSpace), ID: "free-space", Summary: "Disk space of the slide store (for those who upload): total, free, used, reserved (bytes), used_percent, and warn when below the upload threshold"},
	})
}

type listInput struct {
	listquery.Input
	Tab string `query:"tab" enum:"all,uploading,uploaded,failed" doc:"uploading (with processing), uploaded, failed; default all"`
}

func (s *Service) uploads(ctx context.Context, in *listInput) ([]SlideFile, listquery.Pagination, error) {
	return s.Uploads(ctx, in.Request(), in.Tab)
}

func (s *Service) slide(ctx context.Context, id int64) (*SlideFile, error) {
	return s.Get(ctx, i18n.From(ctx), id)
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

func (s *Service) edit(ctx context.Context, in *editBody) (*SlideFile, error) {
	return s.Edit(ctx, i18n.From(ctx), in.ID, SlideEdit(in.Body))
}
