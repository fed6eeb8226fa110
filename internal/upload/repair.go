package upload

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"telepath/internal/platform/db"
)

// repair settles, at start, the uploads a previous run left half-done: an
// upload complete on disk that was never recorded (the database write
// failed, or the process died in between) is recorded and checked; one
// whose data is gone is failed with its reason, as the user must upload
// again. An upload merely in progress is left to be resumed.
func (s *Service) repair(ctx context.Context) error {
	var rows []SlideFile
	if err := db.Select(ctx, s.db, &rows, s.db.Builder().Select(slideColumns...).From("slides s").
		Where("s.status = ? AND s.upload_id <> ''", StatusUploading).OrderBy("s.id")); err != nil {
		return err
	}
	for i := range rows {
		sl := &rows[i]
		if strings.ContainsAny(sl.UploadID, "/\\.") {
			continue
		}
		src := filepath.Join(s.uploadDir(), sl.UploadID)
		info := src + ".info"
		moved := filepath.Join(s.slideDir(), storedPath(sl))
		switch {
		case fileSize(moved) == sl.Filesize:
			s.repaired(ctx, sl, s.complete(ctx, sl, sl.Filesize, moved, info, "recovered at start"))
		case fileSize(src) == sl.Filesize:
			s.repaired(ctx, sl, s.complete(ctx, sl, sl.Filesize, src, info, "recovered at start"))
		case fileSize(src) < 0 || fileSize(info) < 0:
			// No data, or data tus can no longer resume without its info.
			s.repaired(ctx, sl, s.lost(ctx, sl.ID, src, info))
		}
	}
	return nil
}

func (s *Service) repaired(ctx context.Context, sl *SlideFile, err error) {
	if err != nil && ctx.Err() == nil {
		s.log.Error("slide upload: repair", "slide", sl.ID, "err", err)
		return
	}
	s.log.Info("slide upload: repaired an interrupted upload", "slide", sl.ID)
}

// lost fails an upload whose data is gone.
func (s *Service) lost(ctx context.Context, id int64, src, info string) error {
	_, err := db.Exec(ctx, s.db, s.db.Builder().Update("slides").Set("status", StatusFailed).Set("error", "slide.upload_lost").
		Set("updated_at", time.Now().UTC()).Where("id = ? AND status = ?", id, StatusUploading))
	if err == nil {
		os.Remove(src)
		os.Remove(info)
	}
	return err
}

// fileSize is the size of the file at path, -1 when there is none.
func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || err != nil || !st.Mode().IsRegular() {
		return -1
	}
	return st.Size()
}
