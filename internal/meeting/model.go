// Package meeting holds live meetings on a case (spec 1 §1, §4 show_meeting;
// spec 2 §4, §7): an expert starts one from a case and invites colleagues
// who may see it; the presenter's viewer state (slide, centre, zoom,
// rotation, layout) and pointers are mirrored to the others through the
// live event stream (notify.Live, PostgreSQL NOTIFY across processes); the
// presenter may hand the lead over. A meeting ends on sign, on submit for
// review, when its presenter moves to another case, or by hand. It owns the
// tables meetings and meeting_members.
package meeting

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/notify"
	"telepath/internal/platform/access"
	"telepath/internal/platform/db"
)

// Deps are the questions the meeting domain asks other domains.
type Deps struct {
	// Enabled reports whether meetings are on (system config show_meeting).
	Enabled func(ctx context.Context) bool
	// Cases loads cases as the principal in ctx sees them and records a
	// meeting on one (the life cycle's meeting action, in tx).
	Cases Cases
	// Person is the principal of an enabled user (an invitee), to ask
	// whether they may see the case.
	Person func(ctx context.Context, userID int64) (*access.Principal, error)
	// Notify raises notifications and sends live events.
	Notify Notifier
}

// Cases is what the meeting domain asks of the consultation domain.
type Cases interface {
	Detail(ctx context.Context, id int64) (*consultation.Detail, error)
	CanSee(ctx context.Context, id int64) bool
	Apply(ctx context.Context, id int64, name consultation.Action, detail string, change consultation.ChangeFunc) error
}

// Notifier is what the meeting domain asks of the message centre.
type Notifier interface {
	Raise(ctx context.Context, tx *db.Tx, notes []notify.Note, hintUsers []int64, topics ...string) error
	Live(ctx context.Context, users []int64, event string, data any) error
}

// Meeting is a meeting as its participants see it.
type Meeting struct {
	ID          int64           `json:"id" db:"id"`
	ConsultID   int64           `json:"consult_id" db:"consult_id"`
	ConsultNo   string          `json:"consult_no" db:"consult_no"`
	CreatedBy   int64           `json:"created_by" db:"created_by"`
	PresenterID int64           `json:"presenter_id" db:"presenter_id"`
	View        json.RawMessage `json:"view" db:"-" doc:"The presenter's last viewer state, null before the first"`
	EndReason   string          `json:"end_reason" db:"end_reason" enum:",ended,signed,toreview,moved"`
	CreatedAt   time.Time       `json:"created_at" db:"created_at"`
	EndedAt     *time.Time      `json:"ended_at" db:"ended_at"`
	Members     []MeetingMember `json:"members" db:"-"`
	Slides      []MeetingSlide  `json:"slides" db:"-" doc:"The case's slides the meeting may show"`

	RawView string `json:"-" db:"view"`
	ViewBy  *int64 `json:"-" db:"view_by"` // who sent RawView
}

// MeetingMember is one invited participant (the presenter included).
type MeetingMember struct {
	UserID   int64      `json:"user_id" db:"user_id"`
	Name     string     `json:"name" db:"name"`
	JoinedAt *time.Time `json:"joined_at" db:"joined_at"`
	LeftAt   *time.Time `json:"left_at" db:"left_at"`
	Present  bool       `json:"present" db:"-" doc:"Joined and not left"`
}

// MeetingSlide is a slide of the meeting's case.
type MeetingSlide struct {
	ID       int64  `json:"id"`
	Filename string `json:"filename"`
}

// MeetingStart starts a meeting on a case.
type MeetingStart struct {
	ConsultID  int64   `json:"consult_id" minimum:"1"`
	InviteeIDs []int64 `json:"invitee_ids" minItems:"1" maxItems:"30" doc:"Experts who may see the case"`
}

// MeetingUpdate ends a meeting or hands its lead to a participant.
type MeetingUpdate struct {
	Action      string `json:"action" enum:"end,lead"`
	PresenterID int64  `json:"presenter_id,omitempty" doc:"For lead: the participant who presents next"`
}

// MeetingSignal is one live message of a meeting: the presenter's viewer state
// (view: its slide's view, and every pane's in a split view) or a
// participant's pointer (pointer, hidden with Hide).
type MeetingSignal struct {
	Kind     string        `json:"kind" enum:"view,pointer"`
	SlideID  int64         `json:"slide_id" minimum:"1"`
	X        float64       `json:"x,omitempty" doc:"view: the centre; pointer: the point (viewport coordinates)"`
	Y        float64       `json:"y,omitempty"`
	Zoom     float64       `json:"zoom,omitempty"`
	Rotation float64       `json:"rotation,omitempty"`
	Split    []MeetingPane `json:"split,omitempty" maxItems:"4" doc:"view: the split view's panes in order, each with its view (2–4 different slides of the case, slide_id first, its view the one above); empty when one slide is shown"`
	Hide     bool          `json:"hide,omitempty" doc:"pointer: the participant's pointer left the slide"`
	Seq      int64         `json:"seq,omitempty" doc:"view: the presenter's sequence number, greater with every view it sends; a follower drops a view older than one it applied from the same presenter"`
	Sent     int64         `json:"sent,omitempty" doc:"The sender's clock, echoed as it is (latency measurements)"`
}

// MeetingPane is one pane of the presenter's split view: its slide and view.
type MeetingPane struct {
	SlideID  int64   `json:"slide_id" minimum:"1"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
	Zoom     float64 `json:"zoom"`
	Rotation float64 `json:"rotation"`
}

// valid reports whether a view is finite numbers with a zoom above zero.
func (p MeetingPane) valid() bool {
	for _, v := range []float64{p.X, p.Y, p.Zoom, p.Rotation} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return p.Zoom > 0
}

// MeetingEvent is what participants receive on their live stream (event "meeting").
type MeetingEvent struct {
	MeetingID int64          `json:"meeting_id"`
	Kind      string         `json:"kind" doc:"view, pointer, members (someone joined, left or took the lead), annotations (a participant saved their annotations of signal.slide_id), ended"`
	From      int64          `json:"from"`
	Name      string         `json:"name,omitempty"`
	Signal    *MeetingSignal `json:"signal,omitempty"`
}
