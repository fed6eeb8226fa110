package slideserver

import (
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the viewer, grant, view-recording and annotation calls.
func (s *Server) Routes(api *httpx.API) {
	api.Mount("Slides", []httpx.Route{
		{Method: "GET", Path: "/api/slides/{id}/viewer", Roles: access.Any, Handler: httpx.ByID(s.Viewer), ID: "slide-viewer", Summary: "Signed Deep Zoom / IIIF / thumbnail / label / download URLs of a slide (409 with the reason when it cannot be shown)", Read: &httpx.Read{Action: "read.slide", Object: "slide"}},
		{Method: "GET", Path: "/api/slides/{id}/download", Roles: access.Any, Handler: httpx.ByID(s.DownloadURL), ID: "slide-download-url", Summary: "A signed URL of the original file, also for slides that cannot be displayed (KFB, NDPI…)", Read: &httpx.Read{Action: "read.slide_original", Object: "slide"}},
		{Method: "POST", Path: "/api/slides/{id}/grant", Roles: access.Any, Handler: httpx.ByID(s.RenewGrant), ID: "slide-grant-renew", Summary: "Renew the caller's grant of a slide: its signed URLs stay the same and last longer (the viewer calls it every few minutes while open)"},
		{Method: "POST", Path: "/api/slides/{id}/view", Roles: access.Any, Handler: httpx.ByID(s.RecordView), ID: "slide-view", Summary: "Record that the caller opened a slide (for not_view_count)"},
		{Method: "GET", Path: "/api/slides/{id}/annotations", Roles: access.Any, Handler: httpx.ByID(s.Annotations), ID: "slide-annotations", Summary: "The caller's annotations of a slide and, read-only, those of the others who may see its case"},
		{Method: "PUT", Path: "/api/slides/{id}/annotations", Roles: access.Any, Handler: httpx.Value(s.saveAnnotations), ID: "slide-annotations-save", Summary: "Replace the caller's annotations of a slide (at most 20,000 labels, 16 MiB)", MaxBody: annotationBodySize},
	})
}
