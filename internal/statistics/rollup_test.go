package statistics

import (
	"testing"
	"time"
)

// The rollups count local days at one offset: only a zone that keeps one
// offset over the periods a screen reads may use them.
func TestFixedOffset(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for name, want := range map[string]int{"Asia/Shanghai": 480, "Asia/Kolkata": 330, "UTC": 0, "America/Sao_Paulo": -180, "Europe/Berlin": -1, "America/New_York": -1} {
		zone, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		off, fixed := fixedOffset(zone, now)
		if want == -1 && fixed || want != -1 && (!fixed || off != want) {
			t.Errorf("%s: %d %v, want %d", name, off, fixed, want)
		}
	}
}
