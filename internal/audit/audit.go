// Package audit keeps the append-only record of who did what, to which
// object, from where, and with what outcome: every change, written in the
// transaction of the change, and every read of patient data, buffered and
// written in batches off the request path. Nothing in the application
// updates or deletes a record; each is sealed into one hash chain (chain.go)
// so that a record changed or removed in the database is detected.
package audit

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Outcomes of an audited action.
const (
	Success  = "success"
	Failure  = "failure"
	Denied   = "denied"
	NotFound = "not_found"
)

// Entry is one audit record; Write fills who, when and from where.
type Entry struct {
	Action     string // e.g. "user.create", "auth.login", "read.case"
	ObjectType string
	ObjectID   any
	// CaseID names the case (and so the patient) the action touched, if any.
	CaseID  int64
	Before  any
	After   any
	Outcome string // Success when empty
	Message string
	// UserID, Username and Role name the actor when there is no principal yet (sign-in).
	UserID   int64
	Username string
	Role     string
}

// record is a row as written, before the chain seals it.
type record struct {
	createdAt                                    time.Time
	userID, caseID, before, after                any
	username, role, action, objectType, objectID string
	ip, userAgent, outcome, message              string
}

var columns = []string{"created_at", "user_id", "username", "role", "action", "object_type", "object_id", "case_id",
	"before_data", "after_data", "ip", "user_agent", "outcome", "message"}

// newRecord fills e's actor, time and origin from ctx.
func newRecord(ctx context.Context, e Entry) record {
	p := access.FromContext(ctx)
	m := access.MetaFrom(ctx)
	r := record{createdAt: clock.From(ctx).Now(), username: e.Username, role: e.Role, action: e.Action, objectType: e.ObjectType,
		ip: m.IP, userAgent: truncate(m.UserAgent, 300), outcome: e.Outcome, message: truncate(e.Message, 500),
		before: jsonOrNil(e.Before), after: jsonOrNil(e.After)}
	if r.outcome == "" {
		r.outcome = Success
	}
	if p != nil {
		r.userID, r.username, r.role = p.UserID, p.Username, p.PrimaryRole()
	} else if e.UserID != 0 {
		r.userID = e.UserID
	}
	if e.CaseID != 0 {
		r.caseID = e.CaseID
	} else if id, ok := e.ObjectID.(int64); ok && e.ObjectType == "consultation" {
		r.caseID = id // a change of a case is a change of its patient's record
	}
	if e.ObjectID != nil {
		b, _ := json.Marshal(e.ObjectID)
		r.objectID = string(trimQuotes(b))
	}
	return r
}

// insert writes rs in one statement.
func insert(ctx context.Context, q db.Querier, dialect db.Dialect, rs []record) error {
	if len(rs) == 0 {
		return nil
	}
	b := (&db.DB{Dialect: dialect}).Builder().Insert("audit_logs").Columns(columns...)
	for _, r := range rs {
		b = b.Values(r.createdAt, r.userID, r.username, r.role, r.action, r.objectType, r.objectID, r.caseID,
			r.before, r.after, r.ip, r.userAgent, r.outcome, r.message)
	}
	_, err := db.Exec(ctx, q, b)
	return err
}

// Write appends e to the audit log within q (usually the change's transaction).
func Write(ctx context.Context, q db.Querier, dialect db.Dialect, e Entry) error {
	return insert(ctx, q, dialect, []record{newRecord(ctx, e)})
}

// Log is the operation log: records written on their own (sign-ins,
// refusals), reads of patient data, the chain that seals them all, and the
// administrator's view of it.
type Log struct {
	DB *db.DB
	// Cases resolves the log's patient filter and names cases for people.
	Cases CaseFinder
	q     *queue
}

// CaseFinder is what the log asks of the consultation domain.
type CaseFinder interface {
	// FindCases returns the ids of the cases a text names: a case id, a
	// consultation or pathology number, a patient's name or ID number.
	FindCases(ctx context.Context, text string) ([]int64, error)
	// CaseLabels names cases for people ("HZ2026… 王芳").
	CaseLabels(ctx context.Context, ids []int64) (map[int64]string, error)
}

// Record writes e on its own; a failure is logged, never returned, so that
// auditing a refusal cannot turn it into a different error.
func (l *Log) Record(ctx context.Context, e Entry) {
	if err := Write(ctx, l.DB, l.DB.Dialect, e); err != nil {
		slog.ErrorContext(ctx, "audit write failed", "action", e.Action, "err", err)
	}
}

// RecordDenied records a refused call (httpx.DenialRecorder).
func (l *Log) RecordDenied(ctx context.Context, p *access.Principal, method, path string, status int) {
	if p != nil {
		ctx = access.WithPrincipal(ctx, p)
	}
	msg := "unauthenticated"
	if status == 403 {
		msg = "forbidden"
	}
	l.Record(ctx, Entry{Action: "access." + msg, ObjectType: "route", ObjectID: method + " " + path, Outcome: Denied, Message: msg})
}

// RecordRead records a read of patient data (httpx.ReadRecorder). The row
// is queued: the request does not wait for the database.
func (l *Log) RecordRead(ctx context.Context, ev access.ReadEvent) {
	e := Entry{Action: ev.Action, ObjectType: ev.Object, CaseID: ev.CaseID, Outcome: OutcomeOf(ev.Err), Message: ev.Filter}
	if ev.ObjectID != 0 {
		e.ObjectID = ev.ObjectID
	}
	r := newRecord(ctx, e)
	if l.q == nil {
		if err := insert(ctx, l.DB, l.DB.Dialect, []record{r}); err != nil {
			lost(r, err)
		}
		return
	}
	l.q.add(r)
}

// OutcomeOf names the outcome of a call that returned err.
func OutcomeOf(err error) string {
	switch {
	case err == nil:
		return Success
	case apperr.CodeOf(err) == apperr.Forbidden:
		return Denied
	case apperr.CodeOf(err) == apperr.NotFound:
		return NotFound
	}
	return Failure
}

func jsonOrNil(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return nil
	}
	var generic any
	if json.Unmarshal(b, &generic) != nil {
		return nil
	}
	b, _ = json.Marshal(mask(generic))
	return string(b)
}

// secretKeys never reach the audit log as they are: passwords and tokens
// are dropped, identity numbers keep only their first and last characters.
var secretKeys = map[string]bool{"password": true, "password_hash": true, "token": true, "old_password": true, "new_password": true}

func mask(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			switch {
			case secretKeys[k]:
				t[k] = "***"
			case k == "id_number":
				if s, ok := x.(string); ok {
					t[k] = MaskID(s)
				}
			default:
				t[k] = mask(x)
			}
		}
	case []any:
		for i := range t {
			t[i] = mask(t[i])
		}
	}
	return v
}

// MaskID hides the middle of an identity number: 110105********002X.
func MaskID(s string) string {
	r := []rune(s)
	if len(r) <= 7 {
		return strings.Repeat("*", len(r))
	}
	return string(r[:6]) + strings.Repeat("*", len(r)-10) + string(r[len(r)-4:])
}

func trimQuotes(b []byte) []byte {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		return b[1 : len(b)-1]
	}
	return b
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}
