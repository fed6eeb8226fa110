package upload

import (
	"cmp"
	"context"
	"slices"

	"telepath/internal/files"
	"telepath/internal/platform/apperr"
)

// Storage is the administrator's view of where slides and attachments live
// and what each hospital keeps there (/setting/storageConfig; spec 2 §3 site
// storage mode, system config disk_space).
type Storage struct {
	DataDir   string          `json:"data_dir" doc:"Directory holding slides, attachments, reports and the tile cache (TELEPATH_DATA_DIR)"`
	Disk      Disk            `json:"disk"`
	Hospitals []HospitalUsage `json:"hospitals" doc:"Every hospital, most bytes first"`
}

// HospitalUsage is what one hospital keeps in the data directory.
type HospitalUsage struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	StorageMode int    `json:"storage_mode" db:"storage_mode" doc:"Site storage mode: 0 not enabled, 1 not local, 2 force local"`
	Slides      int64  `json:"slides" doc:"Slides received (not cancelled)"`
	SlideBytes  int64  `json:"slide_bytes" db:"slide_bytes"`
	Files       int64  `json:"files" doc:"Attachments, screenshots, reports and other files (slides not counted twice)"`
	FileBytes   int64  `json:"file_bytes" db:"file_bytes" doc:"Their bytes, with the thumbnails kept beside them"`
	Thumbs      int64  `json:"thumbs" db:"-" doc:"Thumbnails kept beside the hospital's files"`
	ThumbBytes  int64  `json:"thumb_bytes" db:"-" doc:"Their bytes (counted in file_bytes)"`
}

// UseThumbs sets where the thumbnails kept beside each hospital's files are
// counted (files).
func (s *Service) UseThumbs(f func(context.Context) (map[int64]files.Usage, error)) { s.thumbs = f }

// Storage reports the data directory, its disk and each hospital's usage.
func (s *Service) Storage(ctx context.Context) (*Storage, error) {
	disk, err := s.FreeSpace(ctx)
	if err != nil {
		return nil, err
	}
	out := &Storage{DataDir: s.opt.DataDir, Disk: disk, Hospitals: []HospitalUsage{}}
	// One pass over each table, grouped by hospital, joined to the hospitals.
	q := `SELECT h.id, h.name, h.storage_mode,
	COALESCE(sl.n, 0) AS slides, COALESCE(sl.bytes, 0) AS slide_bytes,
	COALESCE(f.n, 0) AS files, COALESCE(f.bytes, 0) AS file_bytes
FROM hospitals h
LEFT JOIN (SELECT hospital_id, COUNT(*) AS n, SUM(filesize) AS bytes FROM slides WHERE status <> ? GROUP BY hospital_id) sl ON sl.hospital_id = h.id
LEFT JOIN (SELECT hospital_id, COUNT(*) AS n, SUM(size) AS bytes FROM files WHERE kind <> 'slide' GROUP BY hospital_id) f ON f.hospital_id = h.id
ORDER BY COALESCE(sl.bytes, 0) + COALESCE(f.bytes, 0) DESC, h.id`
	if err := s.db.SelectContext(ctx, &out.Hospitals, s.db.Rebind(q), StatusRemoved); err != nil {
		return nil, apperr.Wrap(err, "storage usage")
	}
	if s.thumbs == nil {
		return out, nil
	}
	thumbs, err := s.thumbs(ctx)
	if err != nil {
		return nil, err
	}
	for i := range out.Hospitals {
		h := &out.Hospitals[i]
		t := thumbs[h.ID]
		h.Thumbs, h.ThumbBytes = t.Count, t.Bytes
		h.FileBytes += t.Bytes
	}
	slices.SortStableFunc(out.Hospitals, func(a, b HospitalUsage) int {
		return cmp.Compare(b.SlideBytes+b.FileBytes, a.SlideBytes+a.FileBytes)
	})
	return out, nil
}
