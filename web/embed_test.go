package web

import (
	"io/fs"
	"regexp"
	"testing"
)

// The Content-Security-Policy (script-src 'self') runs no inline script:
// the built page must have none.
func TestNoInlineScript(t *testing.T) {
	index, err := fs.ReadFile(Dist, "dist/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range regexp.MustCompile(`(?is)<script\b[^>]*>`).FindAll(index, -1) {
		if !regexp.MustCompile(`(?i)\bsrc=`).Match(tag) {
			t.Errorf("inline script in index.html: %s", tag)
		}
	}
	if regexp.MustCompile(`(?i)\son[a-z]+=`).Match(index) {
		t.Error("inline event handler in index.html")
	}
}
