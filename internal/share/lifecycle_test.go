package share

import (
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/report"
)

// Every phase × caller: only the owner or an administrator cancels, and
// only a share that still opens.
func TestCancelMatrix(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	shares := map[Phase]Share{
		PhaseSharing:   {UserID: 7, ExpiresAt: &future},
		PhasePermanent: {UserID: 7},
		PhaseExpired:   {UserID: 7, ExpiresAt: &past},
		PhaseCancelled: {UserID: 7, ExpiresAt: &future, CancelledAt: &past},
	}
	callers := map[string]*access.Principal{
		"owner": {UserID: 7, Roles: []string{access.Expert}},
		"other": {UserID: 8, Roles: []string{access.Expert}},
		"admin": {UserID: 1, Roles: []string{access.Admin}},
		"none":  nil,
	}
	for phase, s := range shares {
		s.Phase = phaseAt(&s, now)
		if s.Phase != phase {
			t.Fatalf("phase of %+v: %s, want %s", s, s.Phase, phase)
		}
		for name, p := range callers {
			want := phase.live() && (name == "owner" || name == "admin")
			if got := slices.Contains(actionsOf(p, &s), ActCancel); got != want {
				t.Errorf("%s cancels a %s share: %v, want %v", name, phase, got, want)
			}
		}
	}
}

func TestRedaction(t *testing.T) {
	var d report.Data
	d.Patient.Name, d.Patient.Phone, d.ConsultNo, d.VerifyCode = "王芳", "13800138000", "C1", "V1"
	Redaction{Deidentify: true, Number: "SH-1", Watermark: "w"}.apply(&d)
	if d.Patient.Name != "" || d.Patient.Phone != "" || d.ConsultNo != "SH-1" || d.VerifyCode != "" || d.Watermark.Text != "w" {
		t.Fatalf("%+v", d)
	}
}
