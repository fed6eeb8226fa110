package httpx

import (
	"context"
	"strconv"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/listquery"
)

// Read declares a route that reads patient data: every call leaves one
// audit record naming the caller, the object, its case and the outcome.
type Read struct {
	Action string // the audit action, e.g. "read.case"
	// Object is what the path's id names; "consultation" (the default)
	// makes it the case too. A list names itself ("case_list") and has no id.
	Object string
}

// ReadEvent is one read of patient data as the route saw it.
type ReadEvent = access.ReadEvent

// ReadRecorder records reads of patient data in the audit log.
type ReadRecorder interface {
	RecordRead(ctx context.Context, ev ReadEvent)
}

// UseReadRecorder makes the API record reads (nil: stop recording); set it
// before serving.
func (a *API) UseReadRecorder(r ReadRecorder) { a.reads = r }

// ReadCase names the case whose data the current read touched; services
// call access.ReadCase.
func ReadCase(ctx context.Context, caseID int64) { access.ReadCase(ctx, caseID) }

// ReadFilter sets the filter a list read ran with, for list inputs the
// route cannot see by itself (a POST body).
func ReadFilter(ctx context.Context, req listquery.Request) {
	if ev := access.CurrentRead(ctx); ev != nil {
		ev.Filter = req.Describe()
	}
}

// pathID is what inputs addressed by an id offer (IDPath).
type pathID interface{ PathID() int64 }

// listInput is what list inputs offer (listquery.Input).
type listInput interface{ Request() listquery.Request }

// startRead prepares the audit event of a read route for input in.
func startRead(r *Read, in any) *ReadEvent {
	ev := &ReadEvent{Action: r.Action, Object: r.Object}
	if ev.Object == "" {
		ev.Object = "consultation"
	}
	if p, ok := in.(pathID); ok {
		ev.ObjectID = p.PathID()
		if ev.Object == "consultation" {
			ev.CaseID = ev.ObjectID
		}
	}
	if l, ok := in.(listInput); ok {
		ev.Filter = l.Request().Describe()
	}
	return ev
}

// refusedRead is the event of a read the caller's role may not make, id
// being the raw path id.
func refusedRead(r *Read, id string) ReadEvent {
	n, _ := strconv.ParseInt(id, 10, 64)
	ev := *startRead(r, nil)
	if n > 0 {
		ev.ObjectID = n
		if ev.Object == "consultation" {
			ev.CaseID = n
		}
	}
	ev.Err = apperr.New(apperr.Forbidden, "error.forbidden")
	return ev
}
