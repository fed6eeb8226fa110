package audit

import (
	"strings"
	"testing"
)

func TestSecretsNeverReachTheLog(t *testing.T) {
	got := jsonOrNil(map[string]any{
		"username": "site", "password": "Telepath@2026", "token": "abc",
		"case": map[string]any{"id_number": "11010519491231002X", "name": "王芳"},
		"list": []any{map[string]any{"new_password": "x"}},
	}).(string)
	for _, secret := range []string{"Telepath@2026", "abc", "11010519491231002X", `"x"`} {
		if strings.Contains(got, secret) {
			t.Errorf("%q leaked: %s", secret, got)
		}
	}
	if !strings.Contains(got, "110105********002X") || !strings.Contains(got, "王芳") {
		t.Errorf("masked too much: %s", got)
	}
}
