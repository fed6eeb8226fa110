package app_test

import (
	"bytes"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/slide/slidegen"
)

// failFinish makes the database refuse the write that records a finished
// upload (status 2, processing), as a full disk or a lost connection would.
var failFinish = map[db.Dialect][2][]string{
	db.SQLite: {
		{`CREATE TRIGGER fail_finish BEFORE UPDATE OF status ON slides WHEN NEW.status = 2 BEGIN SELECT RAISE(ABORT, 'injected failure'); END`},
		{`DROP TRIGGER fail_finish`},
	},
	db.Postgres: {
		{`CREATE FUNCTION fail_finish() RETURNS trigger AS $$ BEGIN IF NEW.status = 2 THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
			`CREATE TRIGGER fail_finish BEFORE UPDATE ON slides FOR EACH ROW EXECUTE FUNCTION fail_finish()`},
		{`DROP TRIGGER fail_finish ON slides`},
	},
}

func (e *env) execAll(stmts []string) {
	e.t.Helper()
	for _, q := range stmts {
		if _, err := e.app.DB.Exec(q); err != nil {
			e.t.Fatal(err)
		}
	}
}

func locPath(t *testing.T, loc string) string {
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

// An upload whose final database write fails stays whole and is recorded
// at the next start; an upload whose data is gone is failed with its
// reason; one in progress is left to be resumed.
func TestUploadRepairedAtStart(t *testing.T) {
	data := genSlide(t, slidegen.Options{Width: 600, Height: 400, Seed: 8})
	eachDB(t, nil, func(t *testing.T, e *env) {
		site := e.login("site")
		e.execAll(failFinish[e.app.DB.Dialect][0])
		done := locPath(t, e.createUpload(site, len(data), "filename", "done.tif", "sha256", sha(data)))
		if r := e.tus("PATCH", done, site, data, "Upload-Offset", "0"); r.Status != 500 {
			t.Fatalf("finish with the database failing: %d %s", r.Status, r.Body)
		}
		e.execAll(failFinish[e.app.DB.Dialect][1])
		if n := e.count("slides", "filename = 'done.tif' AND status = 0"); n != 1 {
			t.Fatal("the failed upload is not kept as uploading")
		}
		if h := e.expect(e.tus("HEAD", done, site, nil), 200); h.Header.Get("Upload-Offset") != strconv.Itoa(len(data)) {
			t.Fatalf("the failed upload lost its data: %v", h.Header)
		}

		gone := locPath(t, e.createUpload(site, len(data), "filename", "gone.tif"))
		e.expect(e.tus("PATCH", gone, site, data[:100], "Upload-Offset", "0"), 204)
		dir := filepath.Join(e.app.Config.DataDir, "uploads")
		for _, f := range []string{path.Base(gone), path.Base(gone) + ".info"} {
			if err := os.Remove(filepath.Join(dir, f)); err != nil {
				t.Fatal(err)
			}
		}
		half := locPath(t, e.createUpload(site, len(data), "filename", "half.tif"))
		e.expect(e.tus("PATCH", half, site, data[:len(data)/2], "Upload-Offset", "0"), 204)

		// The server restarts a while later.
		ago := time.Now().Add(-2 * time.Minute)
		entries, _ := os.ReadDir(dir)
		for _, f := range entries {
			if err := os.Chtimes(filepath.Join(dir, f.Name()), ago, ago); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE slides SET updated_at = ?"), ago.UTC()); err != nil {
			t.Fatal(err)
		}
		e = e.restart(t)
		var id int64
		if err := e.app.DB.Get(&id, "SELECT id FROM slides WHERE filename = 'done.tif'"); err != nil {
			t.Fatal(err)
		}
		if sl := e.waitSlide(site, id); sl.Status != 1 || sl.Viewable != 1 || sl.SHA256 != sha(data) {
			t.Fatalf("recovered upload: %+v", sl)
		}
		if n := e.count("slides", "filename = 'gone.tif' AND status = 3 AND error = 'slide.upload_lost'"); n != 1 {
			t.Fatal("the upload without data is not failed")
		}
		r := e.expect(e.tus("PATCH", half, site, data[len(data)/2:], "Upload-Offset", strconv.Itoa(len(data)/2)), 204)
		id, _ = strconv.ParseInt(r.Header.Get("Slide-Id"), 10, 64)
		if sl := e.waitSlide(site, id); sl.Status != 1 || sl.Viewable != 1 {
			t.Fatalf("resumed upload: %+v", sl)
		}
	})
}

// 50 users' uploads finishing at once are all recorded: writers queue
// rather than fail. The 99th percentile of the finishing PATCH is logged.
func TestConcurrentUploadsAllRecorded(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		site := e.login("site")
		const n = 50
		body := append([]byte("KFB\x00\x01"), make([]byte, 2000)...)
		locs := make([]string, n)
		for i := range locs {
			locs[i] = e.createUpload(site, len(body), "filename", "c"+strconv.Itoa(i)+".kfb")
		}
		var wg sync.WaitGroup
		lat := make([]time.Duration, n)
		codes := make([]int, n)
		for i, loc := range locs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest("PATCH", loc, bytes.NewReader(body))
				req.Header.Set("Tus-Resumable", "1.0.0")
				req.Header.Set("Authorization", "Bearer "+site)
				req.Header.Set("Content-Type", "application/offset+octet-stream")
				req.Header.Set("Upload-Offset", "0")
				start := time.Now()
				if res, err := http.DefaultClient.Do(req); err == nil {
					res.Body.Close()
					codes[i] = res.StatusCode
				}
				lat[i] = time.Since(start)
			}()
		}
		wg.Wait()
		for i, c := range codes {
			if c != http.StatusNoContent {
				t.Fatalf("upload %d: %d", i, c)
			}
		}
		if got := e.count("slides", "filename LIKE 'c%.kfb' AND status IN (1, 2)"); got != n {
			t.Fatalf("%d of %d uploads recorded", got, n)
		}
		slices.Sort(lat)
		t.Logf("%d concurrent finishing uploads: p50 %v, p99 %v", n, lat[n/2], lat[n*99/100])
	})
}
