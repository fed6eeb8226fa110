package notify

import (
	"testing"

	"telepath/internal/platform/i18n"
)

// A stream that stops reading is dropped once its buffer is full, instead
// of making the server hold ever more for it; the others keep receiving.
func TestStalledClientIsDropped(t *testing.T) {
	h := newHub(&Service{})
	stalled := &client{user: 1, lang: i18n.ZH, ch: make(chan frame, clientBuffer), gone: make(chan struct{})}
	reading := &client{user: 2, lang: i18n.ZH, ch: make(chan frame, clientBuffer), gone: make(chan struct{})}
	h.add(stalled)
	h.add(reading)
	for i := range clientBuffer + 1 {
		h.deliverRows([]Notification{{ID: int64(i + 1), Pos: int64(i + 1), UserID: 1, Key: "notify.notice"}, {ID: int64(i + 1), Pos: int64(i + 1), UserID: 2, Key: "notify.notice"}}, nil)
		<-reading.ch
	}
	select {
	case <-stalled.gone:
	default:
		t.Fatal("the stalled stream is still held")
	}
	if !stalled.dropped.Load() || reading.dropped.Load() {
		t.Fatalf("dropped: stalled %v, reading %v", stalled.dropped.Load(), reading.dropped.Load())
	}
	if len(stalled.ch) != clientBuffer {
		t.Fatalf("buffer grew to %d", len(stalled.ch))
	}
	h.remove(stalled)
	h.remove(reading)
	if h.Clients() != 0 {
		t.Fatalf("%d clients left", h.Clients())
	}
}

// Hints go to the named users' streams only, or to every stream.
func TestHintsReachTheNamedUsers(t *testing.T) {
	h := newHub(&Service{})
	a := &client{user: 1, ch: make(chan frame, 4), gone: make(chan struct{})}
	b := &client{user: 2, ch: make(chan frame, 4), gone: make(chan struct{})}
	h.add(a)
	h.add(b)
	h.deliver(t.Context(), announcement{Users: []int64{2}, Topics: []string{TopicCases}})
	if len(a.ch) != 0 || len(b.ch) != 1 {
		t.Fatalf("named: a %d, b %d", len(a.ch), len(b.ch))
	}
	h.deliver(t.Context(), announcement{All: true, Topics: []string{TopicNotices}})
	if len(a.ch) != 1 || len(b.ch) != 2 {
		t.Fatalf("all: a %d, b %d", len(a.ch), len(b.ch))
	}
}
