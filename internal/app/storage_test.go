package app_test

import (
	"testing"

	"telepath/internal/slide/slidegen"
)

// /setting/storageConfig: the data directory, its disk with the administrator's
// low disk space threshold (disk_space, GB), and each hospital's usage.
func TestStorageReport(t *testing.T) {
	data := genSlide(t, slidegen.Options{Width: 300, Height: 200, Seed: 4})
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, site := e.login("admin"), e.login("site")
		e.waitSlide(site, e.uploadAll(site, "HE-storage.tif", data))

		type usage struct {
			Name        string
			StorageMode int   `json:"storage_mode"`
			Slides      int64 `json:"slides"`
			SlideBytes  int64 `json:"slide_bytes"`
			Files       int64 `json:"files"`
			FileBytes   int64 `json:"file_bytes"`
			Thumbs      int64 `json:"thumbs"`
			ThumbBytes  int64 `json:"thumb_bytes"`
		}
		var rep struct {
			Data struct {
				DataDir string `json:"data_dir"`
				Disk    struct {
					Total, Free int64
					WarnBelow   int64 `json:"warn_below"`
					Warn        bool
				}
				Hospitals []usage
			}
		}
		e.decode(e.expect(e.do("GET", "/api/config/storage", admin, nil), 200), &rep)
		if rep.Data.DataDir == "" || rep.Data.Disk.Total <= 0 || rep.Data.Disk.WarnBelow != 1<<30 {
			t.Fatalf("report: %+v", rep.Data)
		}
		if len(rep.Data.Hospitals) != 3 {
			t.Fatalf("hospitals: %+v", rep.Data.Hospitals)
		}
		// The hospital holding the slide comes first, with its bytes.
		if h := rep.Data.Hospitals[0]; h.Name != "明州市第一人民医院" || h.Slides != 1 || h.SlideBytes != int64(len(data)) || h.Files != 0 {
			t.Fatalf("first hospital: %+v", h)
		}
		for _, h := range rep.Data.Hospitals[1:] {
			if h.Slides != 0 || h.SlideBytes != 0 {
				t.Fatalf("other hospital: %+v", h)
			}
		}

		// Thumbnails kept beside the files count, to the byte, once made.
		var uploaded, thumbBytes int64
		for i, size := range [][2]int{{400, 300}, {200, 500}} {
			img := galleryJPEG(size[0], size[1])
			var f struct {
				Data struct {
					ID  int64  `json:"id"`
					URL string `json:"url"`
				} `json:"data"`
			}
			e.decode(e.expect(e.upload(site, "gross-"+itoa(int64(i))+".jpg", img), 200), &f)
			uploaded += int64(len(img))
			thumbBytes += int64(len(e.expect(e.do("GET", f.Data.URL+"/thumb", site, nil), 200).Body))
		}
		e.decode(e.expect(e.do("GET", "/api/config/storage", admin, nil), 200), &rep)
		if h := rep.Data.Hospitals[0]; h.Files != 2 || h.Thumbs != 2 || h.ThumbBytes != thumbBytes || h.FileBytes != uploaded+thumbBytes {
			t.Fatalf("with thumbnails (%d + %d bytes): %+v", uploaded, thumbBytes, h)
		}

		// Only the administrator sees it.
		for _, user := range []string{"site", "center_admin", "allocator", "expert"} {
			e.expect(e.do("GET", "/api/config/storage", e.login(user), nil), 403)
		}

		// A threshold above any disk turns the warning on for those who upload.
		e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(nil)), 200)
		e.expect(e.do("PUT", "/api/config/storage/threshold", admin, map[string]any{"disk_space": 100000}), 200)
		var fs struct {
			Data struct {
				WarnBelow int64 `json:"warn_below"`
				Warn      bool
			}
		}
		e.decode(e.expect(e.do("GET", "/api/free_space", site, nil), 200), &fs)
		if !fs.Data.Warn || fs.Data.WarnBelow != 100000<<30 {
			t.Fatalf("free space: %+v", fs.Data)
		}

		// A threshold out of range is refused and changes nothing.
		for _, bad := range []any{0, -3, 100001, "2"} {
			r := e.do("PUT", "/api/config/storage/threshold", admin, map[string]any{"disk_space": bad})
			if r.Status != 422 {
				t.Fatalf("disk_space %v: %d %s", bad, r.Status, r.Body)
			}
		}
		e.decode(e.expect(e.do("GET", "/api/free_space", site, nil), 200), &fs)
		if fs.Data.WarnBelow != 100000<<30 {
			t.Fatalf("threshold changed: %+v", fs.Data)
		}
		// The threshold alone changed: the other settings stayed.
		var cfg struct {
			Data struct {
				PageTitle string `json:"page_title"`
				DiskSpace int    `json:"disk_space"`
			}
		}
		e.decode(e.expect(e.do("GET", "/api/config/setting", "", nil), 200), &cfg)
		if cfg.Data.PageTitle != "明州远程病理会诊" || cfg.Data.DiskSpace != 100000 {
			t.Fatalf("settings: %+v", cfg.Data)
		}
		e.expect(e.do("PUT", "/api/config/storage/threshold", site, map[string]any{"disk_space": 5}), 403)
	})
}
