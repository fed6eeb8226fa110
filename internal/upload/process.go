package upload

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/slide"
	"telepath/internal/slide/tiles"
)

// Start runs the background checks, repairs the uploads a previous run
// left half-done and re-queues the slides it left in processing.
func (s *Service) Start(ctx context.Context) error {
	for range s.opt.Workers {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for {
				select {
				case <-s.ctx.Done():
					return
				case id := <-s.queue:
					s.process(id)
				}
			}
		}()
	}
	var ids []int64
	if err := db.Select(ctx, s.db, &ids, s.db.Builder().Select("id").From("slides").Where("status = ?", StatusProcessing).OrderBy("id")); err != nil {
		return err
	}
	if err := s.repair(ctx); err != nil {
		return err
	}
	go func() {
		for _, id := range ids {
			s.enqueue(id)
		}
	}()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(time.Hour)
		defer t.Stop()
		for {
			s.sweep(StaleAfter)
			select {
			case <-s.ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

// StaleAfter is how long an upload may sit without progress before it is
// abandoned: marked removed and its partial file deleted.
const StaleAfter = 7 * 24 * time.Hour

func (s *Service) sweep(age time.Duration) {
	var stale []struct {
		ID       int64  `db:"id"`
		UploadID string `db:"upload_id"`
	}
	cutoff := s.clock.Now().Add(-age)
	if err := db.Select(s.ctx, s.db, &stale, s.db.Builder().Select("id", "upload_id").From("slides").
		Where("status = ? AND updated_at < ?", StatusUploading, cutoff).Limit(1000)); err != nil {
		return
	}
	for _, u := range stale {
		if _, err := db.Exec(s.ctx, s.db, s.db.Builder().Update("slides").Set("status", StatusRemoved).
			Where("id = ? AND status = ?", u.ID, StatusUploading)); err != nil {
			continue
		}
		if u.UploadID != "" && !strings.ContainsAny(u.UploadID, "/\\.") {
			os.Remove(filepath.Join(s.uploadDir(), u.UploadID))
			os.Remove(filepath.Join(s.uploadDir(), u.UploadID+".info"))
		}
	}
}

// Close stops the background checks (a check in progress is cancelled); a
// slide being checked stays in processing and is checked again on the
// next start.
func (s *Service) Close() error {
	s.cancel()
	s.wg.Wait()
	return nil
}

func (s *Service) enqueue(id int64) {
	select {
	case s.queue <- id:
	case <-s.ctx.Done():
	}
}

// maxCheckAttempts bounds how often a slide's check starts: a check cut
// short by the process dying (say a file that exhausted memory) is retried
// at the next start, and after this many the slide is marked failed.
const maxCheckAttempts = 3

// process checks one uploaded slide: SHA-256 against the browser's, then
// the format, the pyramid and a thumbnail.
func (s *Service) process(id int64) {
	ctx := s.ctx
	sl, err := s.load(ctx, s.db, id)
	if err != nil || sl.Status != StatusProcessing {
		return
	}
	attempts, err := s.countAttempt(ctx, id)
	if err != nil {
		s.log.Warn("slide check: count attempt", "slide", id, "err", err)
		return
	}
	if attempts > maxCheckAttempts {
		s.log.Warn("slide check: given up after repeated interruptions", "slide", id, "attempts", attempts-1)
		s.finish(id, map[string]any{"status": StatusFailed, "error": "slide.check_failed", "viewable": 0})
		return
	}
	full := s.FullPath(sl)
	sum, err := hashFile(ctx, full)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		s.log.Warn("slide check: hash", "slide", id, "err", err)
		s.finish(id, map[string]any{"status": StatusFailed, "error": "slide.file_missing", "viewable": 0})
		return
	}
	if sl.ClientSHA256 != "" && sl.ClientSHA256 != sum {
		s.finish(id, map[string]any{"status": StatusFailed, "sha256": sum, "error": "slide.checksum_mismatch", "viewable": 0})
		return
	}
	set := map[string]any{"status": StatusUploaded, "sha256": sum, "viewable": 0, "error": ""}
	format, ok, err := slide.Detect(full)
	switch {
	case err != nil:
		set["error"] = "slide.corrupt"
	case !ok && format == "unknown" && tiffMagic(full):
		// A TIFF whose directories cannot be read: cut short or damaged.
		set["format"], set["error"] = "tiff", "slide.corrupt"
	case !ok:
		set["format"], set["error"] = format, "slide.unsupported"
	default:
		set["format"] = format
		s.inspect(ctx, full, set)
	}
	if ctx.Err() != nil {
		return
	}
	s.finish(id, set)
}

// countAttempt records that slide id's check starts and returns how many
// times it has.
func (s *Service) countAttempt(ctx context.Context, id int64) (int, error) {
	if _, err := db.Exec(ctx, s.db, s.db.Builder().Update("slides").Set("check_attempts", sq.Expr("check_attempts + 1")).
		Where("id = ? AND status = ?", id, StatusProcessing)); err != nil {
		return 0, err
	}
	var n int
	err := db.Get(ctx, s.db, &n, s.db.Builder().Select("check_attempts").From("slides").Where("id = ?", id))
	return n, err
}

// inspect opens a readable slide, records its shape and renders its
// thumbnail once (which also proves its lowest level decodes within the
// render budget).
func (s *Service) inspect(ctx context.Context, full string, set map[string]any) {
	src, release, err := s.tiles.Acquire(full)
	if err != nil {
		var ue *slide.UnsupportedError
		switch {
		case errors.As(err, &ue):
			set["format"], set["error"] = ue.Format, "slide.unsupported"
		case errors.Is(err, tiles.ErrNoPyramid):
			set["error"] = "slide.no_pyramid"
		default:
			set["error"] = "slide.corrupt"
		}
		return
	}
	defer release()
	if _, _, err := s.tiles.Thumbnail(ctx, src, 256); err != nil {
		set["error"] = "slide.corrupt"
		if errors.Is(err, tiles.ErrTooCostly) {
			set["error"] = "slide.too_costly"
		}
		s.tiles.Forget(full)
		return
	}
	lv := src.Slide.Levels()
	props := src.Slide.Properties()
	mpp := props.MPPX
	if mpp == 0 {
		mpp = props.MPPY
	}
	raw := map[string]string{}
	for k, v := range props.Raw {
		if len(raw) >= 500 {
			break
		}
		if len(v) > 2000 {
			v = v[:2000]
		}
		raw[k] = v
	}
	if props.Vendor != "" {
		raw["telepath.vendor"] = props.Vendor
	}
	pj, _ := json.Marshal(raw)
	set["width"], set["height"] = lv[0].Width, lv[0].Height
	set["mpp"], set["objective"], set["levels"] = mpp, props.Objective, len(lv)
	set["associated"] = strings.Join(src.Slide.AssociatedImages(), ",")
	set["properties"] = string(pj)
	set["viewable"] = 1
}

func (s *Service) finish(id int64, set map[string]any) {
	set["updated_at"] = s.clock.Now()
	if _, err := db.Exec(s.ctx, s.db, s.db.Builder().Update("slides").SetMap(set).Where("id = ? AND status = ?", id, StatusProcessing)); err != nil {
		s.log.Error("slide check: save", "slide", id, "err", err)
	}
}

func hashFile(ctx context.Context, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	buf := make([]byte, 1<<20)
	for {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		n, err := f.Read(buf)
		h.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func tiffMagic(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [4]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false
	}
	switch string(b[:]) {
	case "II*\x00", "MM\x00*", "II+\x00", "MM\x00+":
		return true
	}
	return false
}
