package slideserver

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"path/filepath"

	"telepath/internal/files"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/httpx"
	"telepath/internal/slide/tiles"
	"telepath/internal/upload"
)

// Setup builds the tile service (128 MB memory cache, 2 GB disk cache
// under dataDir/cache/tiles, renders bounded as tiles.Options documents), the upload service and the slide server,
// registers their API routes, mounts the tus endpoint (/api/uploads/) and
// the signed tile URLs on mux, and starts the background checks. The
// returned func stops them and closes the open slides; the returned server
// takes the check of share grants (UseShares).
func Setup(ctx context.Context, d *db.DB, dataDir string, auth Sessions, canSee upload.CaseAccess, log *slog.Logger,
	api *httpx.API, mux *http.ServeMux, clk clock.Clock) (srv *Server, closeFn func() error, err error) {
	ts, err := tiles.New(tiles.Options{MemoryCacheBytes: 128 << 20, DiskCacheDir: filepath.Join(dataDir, "cache", "tiles"), DiskCacheBytes: 2 << 30})
	if err != nil {
		return nil, nil, err
	}
	up := upload.New(d, ts, canSee, log, upload.Options{DataDir: dataDir})
	up.UseClock(clk)
	srv, err = New(ctx, d, up, ts, canSee, auth)
	if err != nil {
		return nil, nil, err
	}
	srv.UseClock(clk)
	tus, err := up.Handler()
	if err != nil {
		return nil, nil, err
	}
	up.Routes(api)
	srv.Routes(api)
	srv.Mount(mux)
	h := upload.Authenticated(auth, tus)
	mux.Handle(upload.BasePath, h)
	mux.Handle(upload.BasePath[:len(upload.BasePath)-1], h)
	if err := up.Start(ctx); err != nil {
		up.Close()
		return nil, nil, err
	}
	return srv, func() error { return errors.Join(up.Close(), ts.Close()) }, nil
}

// UseDiskWarning sets where the low disk space threshold (bytes) is read from.
func (s *Server) UseDiskWarning(f func(context.Context) int64) { s.up.UseWarnBelow(f) }

// UseThumbs sets where the storage report counts the thumbnails kept beside
// each hospital's files.
func (s *Server) UseThumbs(f func(context.Context) (map[int64]files.Usage, error)) { s.up.UseThumbs(f) }
