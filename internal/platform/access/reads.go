package access

import "context"

// ReadEvent is one read of patient data as the route saw it; the audit log
// records it.
type ReadEvent struct {
	Action, Object string
	ObjectID       int64 // 0: none (a list)
	CaseID         int64 // 0: unknown (the object was not found)
	Filter         string
	Err            error // what the handler returned: nil, a refusal, not found…
}

type readKey struct{}

// WithRead returns ctx carrying the read a route is making, which services
// complete (ReadCase).
func WithRead(ctx context.Context, ev *ReadEvent) context.Context {
	return context.WithValue(ctx, readKey{}, ev)
}

// CurrentRead is the read ctx carries, nil outside a declared read.
func CurrentRead(ctx context.Context) *ReadEvent {
	ev, _ := ctx.Value(readKey{}).(*ReadEvent)
	return ev
}

// ReadCase names the case whose data the current read touched (a slide's,
// an attachment's case). Outside a declared read it does nothing.
func ReadCase(ctx context.Context, caseID int64) {
	if ev := CurrentRead(ctx); ev != nil {
		ev.CaseID = caseID
	}
}
