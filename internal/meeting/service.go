package meeting

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/consultation"
	"telepath/internal/notify"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Reasons a meeting ended.
const (
	EndedByHand = "ended"
	EndedSigned = "signed"
	EndedReview = "toreview"
	EndedMoved  = "moved"
)

// LiveEvent is the name of meeting events on the live stream.
const LiveEvent = "meeting"

// Service starts, runs and ends meetings.
type Service struct {
	db    *db.DB
	deps  Deps
	clock clock.Clock

	mu     sync.Mutex
	slides map[int64]slideSet // the case slides of a meeting, by meeting
}

type slideSet struct {
	ids []int64
	at  time.Time
}

// New creates the service.
func New(d *db.DB, deps Deps) *Service {
	return &Service{db: d, deps: deps, slides: map[int64]slideSet{}}
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

func (s *Service) now() time.Time { return s.clock.Now().UTC() }

const meetingColumns = "id, consult_id, consult_no, created_by, presenter_id, view, view_by, end_reason, created_at, ended_at"

// load reads a meeting and its members.
func (s *Service) load(ctx context.Context, q db.Runner, id int64) (*Meeting, error) {
	var m Meeting
	err := db.Get(ctx, q, &m, q.Builder().Select(meetingColumns).From("meetings").Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load meeting")
	}
	// A view is served only while its sender presents: not the previous
	// presenter's after a hand-over, before the new one sends a view.
	if m.RawView != "" && m.ViewBy != nil && *m.ViewBy == m.PresenterID {
		m.View = json.RawMessage(m.RawView)
	}
	m.Members = []MeetingMember{}
	if err := db.Select(ctx, q, &m.Members, q.Builder().Select("user_id", "name", "joined_at", "left_at").From("meeting_members").
		Where("meeting_id = ?", id).OrderBy("invited_at", "user_id")); err != nil {
		return nil, apperr.Wrap(err, "load meeting members")
	}
	for i := range m.Members {
		m.Members[i].Present = m.Members[i].JoinedAt != nil && m.Members[i].LeftAt == nil
	}
	return &m, nil
}

func (m *Meeting) member(userID int64) *MeetingMember {
	for i := range m.Members {
		if m.Members[i].UserID == userID {
			return &m.Members[i]
		}
	}
	return nil
}

func (m *Meeting) present(except int64) []int64 {
	var out []int64
	for _, x := range m.Members {
		if x.Present && x.UserID != except {
			out = append(out, x.UserID)
		}
	}
	return out
}

func (m *Meeting) everyone() []int64 {
	out := make([]int64, len(m.Members))
	for i, x := range m.Members {
		out[i] = x.UserID
	}
	return out
}

// mine loads a meeting the caller was invited to (404 otherwise), still
// going unless ended is allowed.
func (s *Service) mine(ctx context.Context, q db.Runner, id int64, ended bool) (*Meeting, error) {
	m, err := s.load(ctx, q, id)
	if err != nil {
		return nil, err
	}
	p := access.FromContext(ctx)
	if m.member(p.UserID) == nil {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	if !ended && m.EndedAt != nil {
		return nil, apperr.New(apperr.Conflict, "meeting.ended")
	}
	return m, nil
}

// Switched is the guard of the life cycle's meeting action: a case lists
// it, and a meeting starts, only while meetings are on.
func (s *Service) Switched(ctx context.Context, _ db.Querier, _ *consultation.Row) error {
	if !s.deps.Enabled(ctx) {
		return apperr.New(apperr.Conflict, "meeting.disabled")
	}
	return nil
}

// Start starts a meeting on a case the caller may see (the life cycle's
// meeting action) and invites experts who may see it too; the caller
// presents. The caller's other meetings end (they moved to this case).
func (s *Service) Start(ctx context.Context, in MeetingStart) (*Meeting, error) {
	if err := s.Switched(ctx, nil, nil); err != nil {
		return nil, err
	}
	p := access.FromContext(ctx)
	invitees := map[int64]string{}
	for _, id := range in.InviteeIDs {
		if id == p.UserID {
			continue
		}
		who, err := s.deps.Person(ctx, id)
		if err != nil || !who.Has(access.Expert) || !s.deps.Cases.CanSee(access.WithPrincipal(ctx, who), in.ConsultID) {
			return nil, apperr.New(apperr.Invalid, "error.validation").Field("invitee_ids", "meeting.invitee_not_allowed")
		}
		invitees[id] = who.Name
	}
	if len(invitees) == 0 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("invitee_ids", "field.required")
	}
	now := s.now()
	var id int64
	var ended []*Meeting
	err := s.deps.Cases.Apply(ctx, in.ConsultID, consultation.ActMeeting, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		var err error
		if ended, err = s.endWhere(ctx, tx, sq.Eq{"presenter_id": p.UserID}, EndedMoved); err != nil {
			return consultation.Change{}, err
		}
		q := tx.Rebind(`INSERT INTO meetings (consult_id, consult_no, created_by, presenter_id, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`)
		if err := tx.GetContext(ctx, &id, q, r.ID, r.ConsultNo, p.UserID, p.UserID, now); err != nil {
			return consultation.Change{}, apperr.Wrap(err, "insert meeting")
		}
		ins := tx.Builder().Insert("meeting_members").Columns("meeting_id", "user_id", "name", "invited_at", "joined_at").Values(id, p.UserID, p.Name, now, now)
		notes := []notify.Note{}
		for uid, name := range invitees {
			ins = ins.Values(id, uid, name, now, nil)
			notes = append(notes, notify.Note{UserID: uid, Kind: notify.KindCase, Event: "meeting.invited", CaseID: &r.ID, ActorID: &p.UserID,
				Link: "/meeting/" + itoa(id), Key: "notify.meeting.invited", Params: map[string]any{"name": p.Name, "consult_no": r.ConsultNo}})
		}
		if _, err := db.Exec(ctx, tx, ins); err != nil {
			return consultation.Change{}, apperr.Wrap(err, "insert meeting members")
		}
		users := append(mapKeys(invitees), p.UserID)
		if err := s.deps.Notify.Raise(ctx, tx, notes, users, "meetings"); err != nil {
			return consultation.Change{}, err
		}
		return consultation.Change{}, audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "meeting.start", ObjectType: "meeting", ObjectID: id, CaseID: r.ID, After: in})
	})
	if err != nil {
		return nil, err
	}
	s.tellEnded(ctx, ended)
	return s.Get(ctx, id)
}

// Get returns a meeting the caller was invited to, with the case's slides.
func (s *Service) Get(ctx context.Context, id int64) (*Meeting, error) {
	m, err := s.mine(ctx, s.db, id, true)
	if err != nil {
		return nil, err
	}
	d, err := s.deps.Cases.Detail(ctx, m.ConsultID)
	if err != nil {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	m.Slides = []MeetingSlide{}
	for _, sl := range d.Slides {
		if sl.Viewable == 1 {
			m.Slides = append(m.Slides, MeetingSlide{ID: sl.ID, Filename: sl.Filename})
		}
	}
	return m, nil
}

// Mine lists the meetings going on that the caller was invited to.
func (s *Service) Mine(ctx context.Context) ([]Meeting, error) {
	p := access.FromContext(ctx)
	var ids []int64
	if err := db.Select(ctx, s.db, &ids, s.db.Builder().Select("m.id").From("meetings m").Join("meeting_members mm ON mm.meeting_id = m.id").
		Where("mm.user_id = ? AND m.ended_at IS NULL", p.UserID).OrderBy("m.created_at DESC")); err != nil {
		return nil, apperr.Wrap(err, "list meetings")
	}
	out := []Meeting{}
	for _, id := range ids {
		m, err := s.load(ctx, s.db, id)
		if err != nil {
			return nil, err
		}
		out = append(out, *m)
	}
	return out, nil
}

// Join marks the caller present; the others see the participant list change.
func (s *Service) Join(ctx context.Context, id int64) (*Meeting, error) {
	if err := s.presence(ctx, id, true); err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// Quit marks the caller gone (POST /user/meeting/quit/{id}); when the
// presenter leaves, the meeting ends.
func (s *Service) Quit(ctx context.Context, id int64) error { return s.presence(ctx, id, false) }

func (s *Service) presence(ctx context.Context, id int64, join bool) error {
	p := access.FromContext(ctx)
	var m *Meeting
	var ended []*Meeting
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		if m, err = s.mine(ctx, tx, id, false); err != nil {
			return err
		}
		set := map[string]any{"left_at": s.now()}
		if join {
			set = map[string]any{"joined_at": s.now(), "left_at": nil}
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("meeting_members").SetMap(set).Where("meeting_id = ? AND user_id = ?", id, p.UserID)); err != nil {
			return apperr.Wrap(err, "meeting presence")
		}
		if !join && m.PresenterID == p.UserID {
			if ended, err = s.endWhere(ctx, tx, sq.Eq{"id": id}, EndedByHand); err != nil {
				return err
			}
		}
		action := "meeting.quit"
		if join {
			action = "meeting.join"
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: action, ObjectType: "meeting", ObjectID: id, CaseID: m.ConsultID})
	})
	if err != nil {
		return err
	}
	if len(ended) > 0 {
		s.tellEnded(ctx, ended)
		return nil
	}
	return s.tellMembers(ctx, id)
}

// Update ends a meeting (its presenter or whoever started it) or hands its
// lead to a present participant (the presenter).
func (s *Service) Update(ctx context.Context, id int64, in MeetingUpdate) (*Meeting, error) {
	p := access.FromContext(ctx)
	var ended []*Meeting
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		m, err := s.mine(ctx, tx, id, false)
		if err != nil {
			return err
		}
		switch in.Action {
		case "end":
			if p.UserID != m.PresenterID && p.UserID != m.CreatedBy {
				return apperr.New(apperr.Conflict, "meeting.not_presenter")
			}
			ended, err = s.endWhere(ctx, tx, sq.Eq{"id": id}, EndedByHand)
			if err != nil {
				return err
			}
		case "lead":
			if p.UserID != m.PresenterID {
				return apperr.New(apperr.Conflict, "meeting.not_presenter")
			}
			if to := m.member(in.PresenterID); to == nil || !to.Present {
				return apperr.New(apperr.Invalid, "error.validation").Field("presenter_id", "meeting.not_present")
			}
			// The new presenter numbers its views afresh.
			if _, err := db.Exec(ctx, tx, tx.Builder().Update("meetings").Set("presenter_id", in.PresenterID).Set("view_seq", nil).Where("id = ?", id)); err != nil {
				return apperr.Wrap(err, "hand the lead")
			}
		default:
			return apperr.New(apperr.Invalid, "error.validation").Field("action", "field.invalid")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "meeting." + in.Action, ObjectType: "meeting", ObjectID: id, CaseID: m.ConsultID, After: in})
	})
	if err != nil {
		return nil, err
	}
	if len(ended) > 0 {
		s.tellEnded(ctx, ended)
	} else if err := s.tellMembers(ctx, id); err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// Signal sends the presenter's viewer state, or a participant's pointer,
// to the others present. A view of a slide the case does not hold, or a
// view from someone who does not present, is refused.
func (s *Service) Signal(ctx context.Context, id int64, sig MeetingSignal) error {
	p := access.FromContext(ctx)
	m, err := s.mine(ctx, s.db, id, false)
	if err != nil {
		return err
	}
	if me := m.member(p.UserID); me == nil || !me.Present {
		return apperr.New(apperr.Conflict, "meeting.not_joined")
	}
	if sig.Kind == "view" && p.UserID != m.PresenterID {
		return apperr.New(apperr.Conflict, "meeting.not_presenter")
	}
	ok, err := s.caseSlide(ctx, m, sig.SlideID)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.New(apperr.Invalid, "error.validation").Field("slide_id", "meeting.bad_slide")
	}
	if sig.Kind != "view" {
		sig.Split = nil
	} else if err := s.checkView(ctx, m, sig); err != nil {
		return err
	}
	if sig.Kind == "view" {
		if err := s.storeView(ctx, id, p.UserID, sig); err != nil {
			return err
		}
	}
	to := m.present(p.UserID)
	if len(to) == 0 {
		return nil
	}
	return s.deps.Notify.Live(ctx, to, LiveEvent, MeetingEvent{MeetingID: id, Kind: sig.Kind, From: p.UserID, Name: p.Name, Signal: &sig})
}

// storeView keeps a view of from as the meeting's last, unless a
// later-numbered one of the same presenter was stored already (the
// presenter's requests may arrive out of order); an unnumbered view is always
// stored. A view whose sender no longer presents (it arrived after a
// hand-over) is not stored.
func (s *Service) storeView(ctx context.Context, id, from int64, sig MeetingSignal) error {
	b, _ := json.Marshal(sig)
	q := s.db.Builder().Update("meetings").Set("view", string(b)).Set("view_by", from).Where("id = ? AND presenter_id = ?", id, from)
	if sig.Seq > 0 {
		q = q.Set("view_seq", sig.Seq).Where("(view_seq IS NULL OR view_seq < ?)", sig.Seq)
	} else {
		q = q.Set("view_seq", nil)
	}
	if _, err := db.Exec(ctx, s.db, q); err != nil {
		return apperr.Wrap(err, "store meeting view")
	}
	return nil
}

// checkView checks a view: finite numbers and a zoom above zero, for its
// slide and for every pane of its split view; the split view none, or 2 to 4
// different slides of the case, the viewed one first.
func (s *Service) checkView(ctx context.Context, m *Meeting, sig MeetingSignal) error {
	if !(MeetingPane{SlideID: sig.SlideID, X: sig.X, Y: sig.Y, Zoom: sig.Zoom, Rotation: sig.Rotation}).valid() {
		return apperr.New(apperr.Invalid, "error.validation").Field("zoom", "meeting.bad_view")
	}
	if len(sig.Split) == 0 {
		return nil
	}
	bad := apperr.New(apperr.Invalid, "error.validation").Field("split", "meeting.bad_split")
	if len(sig.Split) < 2 || len(sig.Split) > 4 || sig.Split[0].SlideID != sig.SlideID {
		return bad
	}
	for i, p := range sig.Split {
		if !p.valid() {
			return apperr.New(apperr.Invalid, "error.validation").Field("split", "meeting.bad_view")
		}
		if slices.ContainsFunc(sig.Split[:i], func(q MeetingPane) bool { return q.SlideID == p.SlideID }) {
			return bad
		}
		ok, err := s.caseSlide(ctx, m, p.SlideID)
		if err != nil {
			return err
		}
		if !ok {
			return bad
		}
	}
	return nil
}

// AnnotationsSaved tells the others present in the meetings on a case
// that the caller, present there, saved their annotations of a slide: their
// viewers read them again (a slide server hook, after commit).
func (s *Service) AnnotationsSaved(ctx context.Context, consultID, slideID int64) {
	p := access.FromContext(ctx)
	if p == nil {
		return
	}
	var ids []int64
	if err := db.Select(ctx, s.db, &ids, s.db.Builder().Select("m.id").From("meetings m").Join("meeting_members mm ON mm.meeting_id = m.id").
		Where("m.consult_id = ? AND m.ended_at IS NULL AND mm.user_id = ? AND mm.joined_at IS NOT NULL AND mm.left_at IS NULL", consultID, p.UserID)); err != nil {
		return
	}
	for _, id := range ids {
		m, err := s.load(ctx, s.db, id)
		if err != nil {
			continue
		}
		if to := m.present(p.UserID); len(to) > 0 {
			sig := MeetingSignal{Kind: "annotations", SlideID: slideID}
			_ = s.deps.Notify.Live(ctx, to, LiveEvent, MeetingEvent{MeetingID: id, Kind: "annotations", From: p.UserID, Name: p.Name, Signal: &sig})
		}
	}
}

// slideTTL bounds how long a process trusts the case slides it loaded for a meeting.
const slideTTL = 30 * time.Second

// caseSlide reports whether slide is one of the meeting's case's slides.
func (s *Service) caseSlide(ctx context.Context, m *Meeting, slide int64) (bool, error) {
	now := s.now()
	s.mu.Lock()
	set, ok := s.slides[m.ID]
	s.mu.Unlock()
	if !ok || now.Sub(set.at) > slideTTL {
		d, err := s.deps.Cases.Detail(ctx, m.ConsultID)
		if err != nil {
			return false, apperr.New(apperr.NotFound, "error.not_found")
		}
		set = slideSet{at: now}
		for _, sl := range d.Slides {
			set.ids = append(set.ids, sl.ID)
		}
		s.mu.Lock()
		if len(s.slides) > 10000 {
			clear(s.slides)
		}
		s.slides[m.ID] = set
		s.mu.Unlock()
	}
	return slices.Contains(set.ids, slide), nil
}

// endWhere ends the meetings going on that match where, in tx, and
// returns them (their members are told after commit, by tellEnded).
func (s *Service) endWhere(ctx context.Context, tx *db.Tx, where sq.Sqlizer, reason string) ([]*Meeting, error) {
	var ids []int64
	if err := db.Select(ctx, tx, &ids, tx.Builder().Select("id").From("meetings").Where(where).Where("ended_at IS NULL")); err != nil {
		return nil, apperr.Wrap(err, "meetings to end")
	}
	var out []*Meeting
	for _, id := range ids {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("meetings").Set("ended_at", s.now()).Set("end_reason", reason).Where("id = ?", id)); err != nil {
			return nil, apperr.Wrap(err, "end meeting")
		}
		m, err := s.load(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		if err := s.deps.Notify.Raise(ctx, tx, nil, m.everyone(), "meetings"); err != nil {
			return nil, err
		}
		if err := audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "meeting.end", ObjectType: "meeting", ObjectID: id, CaseID: m.ConsultID, Message: reason}); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// tellEnded tells the members of ended meetings, live.
func (s *Service) tellEnded(ctx context.Context, ended []*Meeting) {
	for _, m := range ended {
		_ = s.deps.Notify.Live(ctx, m.everyone(), LiveEvent, MeetingEvent{MeetingID: m.ID, Kind: "ended", Name: m.EndReason})
	}
}

// tellMembers tells the present members that the participant list or the lead changed.
func (s *Service) tellMembers(ctx context.Context, id int64) error {
	m, err := s.load(ctx, s.db, id)
	if err != nil {
		return err
	}
	return s.deps.Notify.Live(ctx, m.everyone(), LiveEvent, MeetingEvent{MeetingID: id, Kind: "members", From: m.PresenterID})
}

// CaseEnded ends the meetings of a case in the life cycle's transaction
// (it was signed or sent for review); returned as a consultation listener.
func (s *Service) CaseEnded(reason string) consultation.Listener {
	return func(ctx context.Context, tx *db.Tx, e consultation.Event) error {
		ended, err := s.endWhere(ctx, tx, sq.Eq{"consult_id": e.CaseID}, reason)
		if len(ended) > 0 {
			tx.AfterCommit(func() { s.tellEnded(context.WithoutCancel(ctx), ended) })
		}
		return err
	}
}

// PresenterMoved ends the meetings the caller presents on other cases
// when they start working on this one (a consultation listener on lock).
func (s *Service) PresenterMoved(ctx context.Context, tx *db.Tx, e consultation.Event) error {
	p := access.FromContext(ctx)
	ended, err := s.endWhere(ctx, tx, sq.And{sq.Eq{"presenter_id": p.UserID}, sq.NotEq{"consult_id": e.CaseID}}, EndedMoved)
	if len(ended) > 0 {
		tx.AfterCommit(func() { s.tellEnded(context.WithoutCancel(ctx), ended) })
	}
	return err
}

func mapKeys(m map[int64]string) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
