package upload

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	tusd "github.com/tus/tusd/v2/pkg/handler"

	"telepath/internal/platform/access"
	"telepath/internal/platform/i18n"
)

// preCreate refuses before it records anything, so these need no database.
func TestPreCreateRefusals(t *testing.T) {
	ctx := access.WithPrincipal(context.WithValue(context.Background(), langKey{}, i18n.EN),
		&access.Principal{UserID: 1, Roles: []string{access.Site}, HospitalIDs: []int64{1}})
	hook := func(size int64, meta map[string]string) tusd.HookEvent {
		return tusd.HookEvent{Context: ctx, Upload: tusd.FileInfo{Size: size, MetaData: meta}}
	}
	lowDisk := New(nil, nil, nil, nil, Options{DataDir: t.TempDir(), MinFreeBytes: 1 << 62})
	normal := New(nil, nil, nil, nil, Options{DataDir: t.TempDir(), MaxSize: 1000})
	for name, c := range map[string]struct {
		s      *Service
		ev     tusd.HookEvent
		status int
		text   string
	}{
		"low disk":    {lowDisk, hook(10, map[string]string{"filename": "a.svs"}), http.StatusInsufficientStorage, "Low disk space"},
		"too large":   {normal, hook(2000, map[string]string{"filename": "a.svs"}), http.StatusRequestEntityTooLarge, "at most"},
		"no name":     {normal, hook(10, map[string]string{}), http.StatusBadRequest, "file name"},
		"bad sha256":  {normal, hook(10, map[string]string{"filename": "a.svs", "sha256": "abc"}), http.StatusBadRequest, "64"},
		"no hospital": {normal, tusd.HookEvent{Context: access.WithPrincipal(context.Background(), &access.Principal{UserID: 2}), Upload: tusd.FileInfo{Size: 1}}, http.StatusForbidden, ""},
		"deferred":    {normal, tusd.HookEvent{Context: ctx, Upload: tusd.FileInfo{SizeIsDeferred: true, MetaData: map[string]string{"filename": "a.svs"}}}, http.StatusBadRequest, ""},
	} {
		_, _, err := c.s.preCreate(c.ev)
		var te tusd.Error
		if !errors.As(err, &te) || te.HTTPResponse.StatusCode != c.status || !strings.Contains(te.HTTPResponse.Body, c.text) {
			t.Errorf("%s: %v", name, err)
		}
	}
	d, err := lowDisk.DiskSpace()
	if err != nil || !d.Warn || d.Total <= 0 {
		t.Errorf("disk space: %+v %v", d, err)
	}
}
