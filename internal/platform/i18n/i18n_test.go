package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCatalogsHaveTheSameKeys(t *testing.T) {
	zh, en := Keys(ZH), Keys(EN)
	for _, k := range zh {
		if !slices.Contains(en, k) {
			t.Errorf("en-US lacks %q", k)
		}
	}
	for _, k := range en {
		if !slices.Contains(zh, k) {
			t.Errorf("zh-CN lacks %q", k)
		}
	}
}

// keyRes find message keys where the code uses them: apperr.New, field
// errors (Field, Add), i18n.T and the list engine's error keys.
var keyRes = []*regexp.Regexp{
	regexp.MustCompile(`apperr\.New\(apperr\.\w+, "([^"]+)"\)`),
	regexp.MustCompile(`\.(?:Field|Add)\("[^"]*", "([^"]+)"`),
	regexp.MustCompile(`i18n\.T\([^,]+, "([^"]+)"\s*[,)]`),
	regexp.MustCompile(`Key\w+\s+= "([^"]+)"`),
}

func TestEveryKeyInTheCodeExists(t *testing.T) {
	root := filepath.Join("..", "..", "..", "internal")
	found := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, re := range keyRes {
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				found++
				if !Has(m[1]) {
					t.Errorf("%s: message key %q missing", path, m[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 20 {
		t.Fatalf("found only %d keys: the patterns no longer match the code", found)
	}
}

func TestPlaceholders(t *testing.T) {
	if got := T(EN, "auth.throttled", map[string]any{"seconds": 30}); !strings.Contains(got, "try again in 30 s") {
		t.Fatalf("got %q", got)
	}
	if got := T(ZH, "no.such.key", nil); got != "no.such.key" {
		t.Fatalf("missing key: %q", got)
	}
	if Parse("en-US") != EN || Parse("") != ZH || Parse("fr") != ZH {
		t.Fatal("Parse")
	}
}
