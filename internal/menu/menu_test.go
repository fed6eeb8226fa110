package menu

import (
	"testing"

	"telepath/internal/platform/access"
)

func find(list []*Entry, uri string) *Entry {
	for _, e := range list {
		if e.URI == uri {
			return e
		}
		if f := find(e.Children, uri); f != nil {
			return f
		}
	}
	return nil
}

// Report templates belong to the admin's system group only (spec 1 §2: the
// center_admin system group holds sites, users, charge items and diagnosis
// config).
func TestReportTemplatesMenu(t *testing.T) {
	for _, tc := range []struct {
		roles []string
		want  bool
	}{
		{[]string{access.Admin}, true},
		{[]string{access.Root}, true},
		{[]string{access.CenterAdmin}, false},
		{[]string{access.Expert}, false},
		{[]string{access.Site}, false},
		{[]string{access.Publisher}, false},
	} {
		e := find(Build(tc.roles), "/setting/report")
		if (e != nil) != tc.want {
			t.Errorf("%v: /setting/report in menu = %v, want %v", tc.roles, e != nil, tc.want)
		}
		if e != nil && (e.EnName != "Report templates" || e.IsShow != "1") {
			t.Errorf("entry: %+v", e)
		}
	}
	sys := find(Build([]string{access.Admin}), "/system")
	if sys == nil || find(sys.Children, "/setting/report") == nil {
		t.Fatal("report templates are not in the admin's system group")
	}
}
