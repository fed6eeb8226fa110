package consultation

import (
	"maps"
	"testing"
	"time"
)

func TestChangeSetsOnlyItsFields(t *testing.T) {
	at := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	if got := (Change{}).values(); len(got) != 0 {
		t.Fatalf("an empty change sets %v", got)
	}
	c := Change{LockedBy: Set(int64(7)), ReviewerID: Clear[int64](), ReleaseAt: Set(at), PrintDeliver: Set(0)}
	want := map[string]any{"locked_by": int64(7), "reviewer_id": nil, "release_at": at, "print_deliver_status": 0}
	if got := c.values(); !maps.Equal(got, want) {
		t.Fatalf("values() = %v, want %v", got, want)
	}
}
