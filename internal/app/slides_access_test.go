package app_test

import (
	"io/fs"
	"path/filepath"
	"strconv"
	"testing"

	"telepath/internal/platform/db"
	"telepath/internal/slide/slidegen"
)

// Only those who upload (and administrators) see the store's free space.
func TestFreeSpaceForUploaders(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		for user, status := range map[string]int{"site": 200, "uploader": 200, "clinical": 200, "admin": 200,
			"expert": 403, "allocator": 403, "center_admin": 403, "staff": 403, "publisher": 403, "third": 403, "qc_expert": 403} {
			if r := e.do("GET", "/api/free_space", e.login(user), nil); r.Status != status {
				t.Errorf("%s: %d, want %d", user, r.Status, status)
			}
		}
	})
}

// An administrator may look at or cancel another user's upload, never
// write into it; and everything Telepath writes in its data directory is
// for its own user only (files 0600, directories without group write or
// others' access).
func TestUploadOwnerOnlyAndPrivateFiles(t *testing.T) {
	data := genSlide(t, slidegen.Options{Width: 600, Height: 400, Seed: 11})
	eachDB(t, nil, func(t *testing.T, e *env) {
		site, admin := e.login("site"), e.login("admin")
		loc := e.createUpload(site, len(data), "filename", "own.tif")
		e.expect(e.tus("PATCH", loc, admin, data, "Upload-Offset", "0"), 403)
		e.expect(e.tus("HEAD", loc, admin, nil), 200)
		r := e.expect(e.tus("PATCH", loc, site, data, "Upload-Offset", "0"), 204)
		id, _ := strconv.ParseInt(r.Header.Get("Slide-Id"), 10, 64)
		if sl := e.waitSlide(site, id); sl.Viewable != 1 {
			t.Fatalf("slide: %+v", sl)
		}
		e.createUpload(site, 1000, "filename", "pending.svs") // tus files in progress
		e.expect(e.upload(site, "report.pdf", []byte("%PDF-1.4 attachment")), 200)

		dir := e.app.Config.DataDir
		seen := map[string]bool{}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			switch {
			case rel == ".": // the operator's (here the test's) directory
			case d.IsDir() && info.Mode().Perm()&0o027 != 0:
				t.Errorf("directory %s is %v", rel, info.Mode().Perm())
			case !d.IsDir() && info.Mode().Perm()&0o077 != 0:
				t.Errorf("file %s is %v", rel, info.Mode().Perm())
			}
			seen[filepath.Base(filepath.Dir(rel))] = true
			seen[filepath.Ext(rel)] = true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{".info", ".tif", ".pdf"}
		if e.app.DB.Dialect == db.SQLite {
			want = append(want, ".db", ".db-wal")
		}
		for _, w := range want {
			if !seen[w] {
				t.Errorf("no %s file checked: %v", w, seen)
			}
		}
	})
}
