package menu

import (
	"os"
	"slices"
	"strings"
	"testing"

	"telepath/internal/platform/access"
)

func walk(list []*Entry, fn func(e *Entry)) {
	for _, e := range list {
		fn(e)
		walk(e.Children, fn)
	}
}

// Every screen in the menu is a route of the web app: no placeholder entries.
func TestEveryMenuScreenExists(t *testing.T) {
	router, err := os.ReadFile("../../web/src/app/router.tsx")
	if err != nil {
		t.Fatal(err)
	}
	walk(catalog(), func(e *Entry) {
		if len(e.Children) == 0 && !strings.Contains(string(router), "path: '"+e.URI+"'") {
			t.Errorf("menu entry %s (%s) has no screen in web/src/app/router.tsx", e.URI, e.Name)
		}
	})
}

func TestBuildMergesSortsAndScopes(t *testing.T) {
	all := Build([]string{access.Root})
	for _, role := range access.Roles {
		menu := Build([]string{role})
		if len(menu) == 0 {
			t.Errorf("%s has no menu", role)
		}
		seen := map[string]bool{}
		walk(menu, func(e *Entry) {
			if seen[e.RouteName] {
				t.Errorf("%s: %s twice", role, e.RouteName)
			}
			seen[e.RouteName] = true
			if !slices.IsSortedFunc(e.Children, func(a, b *Entry) int { return a.Index - b.Index }) {
				t.Errorf("%s: children of %s out of order", role, e.RouteName)
			}
		})
		walk(menu, func(e *Entry) {
			found := false
			walk(all, func(r *Entry) { found = found || r.RouteName == e.RouteName })
			if !found {
				t.Errorf("root lacks %s of %s", e.RouteName, role)
			}
		})
	}
	site := Build([]string{access.Site})
	walk(site, func(e *Entry) {
		if e.URI == "/system/user" || e.URI == "/log/operation" {
			t.Errorf("site sees %s", e.URI)
		}
	})
	both := Build([]string{access.Site, access.Expert})
	if len(both) <= len(site) {
		t.Error("a second role adds no menu")
	}
}

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

// A technician's "My cases" badge counts their open cases; someone who is
// also an expert gets the expert's entry, once.
func TestStaffCasesEntry(t *testing.T) {
	find := func(roles ...string) []*Entry {
		var out []*Entry
		walk(Build(roles), func(e *Entry) {
			if e.URI == "/diagnosis/manage" {
				out = append(out, e)
			}
		})
		return out
	}
	for _, c := range []struct {
		roles []string
		count string
	}{
		{[]string{access.Staff}, "submitted"},
		{[]string{access.Expert}, "pending"},
		{[]string{access.Expert, access.Staff}, "pending"},
		{[]string{access.Staff, access.Expert}, "pending"},
	} {
		var counts []string
		for _, e := range find(c.roles...) {
			counts = append(counts, e.Count)
		}
		if !slices.Equal(counts, []string{c.count}) {
			t.Errorf("%v: entries counting %v, want [%s]", c.roles, counts, c.count)
		}
	}
}

// A clinician's menu holds their own requests and the frozen-section
// bookings, never the site's case, charge or report screens (spec 1 §2 Other
// roles: no charges for clinical).
func TestClinicalMenu(t *testing.T) {
	var uris []string
	walk(Build([]string{access.Clinical}), func(e *Entry) { uris = append(uris, e.URI) })
	if !slices.Contains(uris, "/case/clinical") {
		t.Errorf("clinical menu lacks /case/clinical: %v", uris)
	}
	for _, no := range []string{"/case/manage", "/case/charge", "/case/report", "/dss/uploading"} {
		if slices.Contains(uris, no) {
			t.Errorf("clinical menu has %s", no)
		}
	}
}

// An uploader's menu holds their hospital's cases with slides (spec 1 §2:
// /case/uploader and register), nothing of charges or reports.
func TestUploaderMenu(t *testing.T) {
	var uris []string
	walk(Build([]string{access.Uploader}), func(e *Entry) { uris = append(uris, e.URI) })
	for _, want := range []string{"/case/uploader"} {
		if !slices.Contains(uris, want) {
			t.Errorf("uploader menu lacks %s: %v", want, uris)
		}
	}
	for _, no := range []string{"/case/manage", "/case/charge", "/case/report", "/case/clinical", "/site/manage"} {
		if slices.Contains(uris, no) {
			t.Errorf("uploader menu has %s", no)
		}
	}
}
