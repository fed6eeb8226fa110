package menu

import (
	"testing"

	"telepath/internal/platform/access"
)

func find(list []*Entry, route string) *Entry {
	for _, e := range list {
		if e.RouteName == route {
			return e
		}
		if c := find(e.Children, route); c != nil {
			return c
		}
	}
	return nil
}

// The site's upload management group (spec 1 §2 Site menus): /dss/uploading,
// /dss/uploaded, /dss/upload-setting, in that order, for sites only.
func TestSiteUploadGroup(t *testing.T) {
	g := find(Build([]string{access.Site}), "Dss")
	if g == nil {
		t.Fatal("site has no upload management group")
	}
	var uris []string
	for _, c := range g.Children {
		uris = append(uris, c.URI)
		if c.Name == "" || c.EnName == "" || c.IconPath == "" || c.IsShow != "1" {
			t.Errorf("incomplete entry %+v", c)
		}
	}
	want := []string{"/dss/uploading", "/dss/uploaded", "/dss/upload-setting"}
	if len(uris) != len(want) {
		t.Fatalf("children %v, want %v", uris, want)
	}
	for i := range want {
		if uris[i] != want[i] {
			t.Fatalf("children %v, want %v", uris, want)
		}
	}
	for _, r := range []string{access.Expert, access.Allocator, access.CenterAdmin, access.Uploader, access.Admin} {
		if find(Build([]string{r}), "Dss") != nil {
			t.Errorf("%s sees the site's upload group", r)
		}
	}
	if find(Build([]string{access.Root}), "DssUploadSetting") == nil {
		t.Error("root lacks the upload settings")
	}
}
