package upload

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	tusd "github.com/tus/tusd/v2/pkg/handler"

	"telepath/internal/platform/access"
	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
	"telepath/internal/platform/i18n"
)

// Declared sizes of uploads in progress count against the free space
// until the upload finishes, is cancelled or expires.
func TestUploadSpaceReserved(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		now := time.Now().UTC()
		if _, err := d.Exec(d.Rebind("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('u', 'x', ?, ?)"), now, now); err != nil {
			t.Fatal(err)
		}
		s := New(d, nil, nil, nil, Options{DataDir: t.TempDir(), MaxSize: 1 << 60})
		disk, err := s.DiskSpace()
		if err != nil {
			t.Fatal(err)
		}
		room := disk.Free - disk.MinFree
		if room <= 1<<20 {
			t.Skip("no free space to reserve")
		}
		size := room * 2 / 3 // two do not fit
		ctx := access.WithPrincipal(context.WithValue(context.Background(), langKey{}, i18n.EN),
			&access.Principal{UserID: 1, Roles: []string{access.Admin}})
		create := func() (string, error) {
			_, ch, err := s.preCreate(tusd.HookEvent{Context: ctx, Upload: tusd.FileInfo{Size: size, MetaData: map[string]string{"filename": "big.svs"}}})
			return ch.ID, err
		}
		first, err := create()
		if err != nil {
			t.Fatal(err)
		}
		_, err = create()
		var te tusd.Error
		if !errors.As(err, &te) || te.HTTPResponse.StatusCode != http.StatusInsufficientStorage || !strings.Contains(te.HTTPResponse.Body, "promised to uploads in progress") {
			t.Fatalf("second upload: %v", err)
		}
		var n int
		if err := d.Get(&n, "SELECT COUNT(*) FROM slides"); err != nil || n != 1 {
			t.Fatalf("%d slides recorded, %v", n, err)
		}
		for _, release := range []struct {
			name   string
			status int
		}{{"finished", StatusProcessing}, {"cancelled", StatusRemoved}} {
			if _, err := d.Exec(d.Rebind("UPDATE slides SET status = ? WHERE upload_id = ?"), release.status, first); err != nil {
				t.Fatal(err)
			}
			if first, err = create(); err != nil {
				t.Fatalf("after the first upload is %s: %v", release.name, err)
			}
		}
		// An abandoned upload expires, and with it its reservation.
		if _, err := d.Exec(d.Rebind("UPDATE slides SET updated_at = ? WHERE upload_id = ?"), now.Add(-8*24*time.Hour), first); err != nil {
			t.Fatal(err)
		}
		s.sweep(StaleAfter)
		if _, err := create(); err != nil {
			t.Fatalf("after the upload expired: %v", err)
		}
	})
}
