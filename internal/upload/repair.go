package upload

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/db"
)

// repair settles, at start, the uploads a previous run left half-done: an
// upload complete on disk that was never recorded (the database write
// failed, or the process died in between) is recorded and checked; one
// whose data is gone is failed with its reason, as the user must upload
// again. An upload merely in progress is left to be resumed, and so is
// anything touched in the last minute (another server sharing the data
// directory may be finishing it).
func (s *Service) repair(ctx context.Context) error {
	var rows []SlideFile
	if err := db.Select(ctx, s.db, &rows, s.db.Builder().Select(slideColumns...).From("slides s").
		Where("s.status = ? AND s.upload_id <> ''", StatusUploading).OrderBy("s.id")); err != nil {
		return err
	}
	settled := s.clock.Now().Add(-repairAge)
	for i := range rows {
		sl := &rows[i]
		if strings.ContainsAny(sl.UploadID, "/\\.") {
			continue
		}
		src := filepath.Join(s.uploadDir(), sl.UploadID)
		info := src + ".info"
		moved := filepath.Join(s.slideDir(), storedPath(sl))
		var err error
		switch {
		case untouched(moved, settled) && fileSize(moved) == sl.Filesize:
			err = s.complete(ctx, sl, sl.Filesize, moved, info, "recovered at start")
		case untouched(src, settled) && fileSize(src) == sl.Filesize:
			err = s.complete(ctx, sl, sl.Filesize, src, info, "recovered at start")
		case sl.UpdatedAt.Before(settled) && fileSize(moved) < 0 && (fileSize(src) < 0 || fileSize(info) < 0):
			// No data, or data tus can no longer resume without its info.
			err = s.lost(ctx, sl, src, info)
		default:
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.log.Error("slide upload: repair", "slide", sl.ID, "err", err)
			continue
		}
		s.log.Info("slide upload: settled an interrupted upload", "slide", sl.ID)
	}
	return nil
}

const repairAge = time.Minute

// untouched reports whether the file at path exists and was last written
// before t.
func untouched(path string, t time.Time) bool {
	st, err := os.Stat(path)
	return err == nil && st.ModTime().Before(t)
}

// lost fails an upload whose data is gone.
func (s *Service) lost(ctx context.Context, sl *SlideFile, src, info string) error {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("slides").Set("status", StatusFailed).Set("error", "slide.upload_lost").
			Set("updated_at", s.clock.Now()).Where("id = ? AND status = ?", sl.ID, StatusUploading)); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "slide.upload_lost", ObjectType: "slide", ObjectID: sl.ID, UserID: sl.OwnerID,
			Before: map[string]any{"filename": sl.Filename, "size": sl.Filesize}, Message: "found without its data at start"})
	})
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
