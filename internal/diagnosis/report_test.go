package diagnosis

import (
	"strings"
	"testing"
	"time"
)

func TestReportNumbersAndCodes(t *testing.T) {
	at := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	if got := reportNo(at, 42); got != "R261126000042" {
		t.Errorf("reportNo = %q", got)
	}
	for range 20 {
		c := verifyCode()
		if len(c) != 10 || strings.ContainsAny(c, "01IO") {
			t.Fatalf("verifyCode %q: ten characters without 0, 1, I or O", c)
		}
	}
	for name, want := range map[string]string{"张三": "张*", "李": "李", "": ""} {
		if got := maskName(name); got != want {
			t.Errorf("maskName(%q) = %q, want %q", name, got, want)
		}
	}
}
