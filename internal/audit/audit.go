// Package audit keeps the append-only record of who did what, to which
// object, from where, and with what outcome. Records are written in the
// transaction of the change they describe; nothing in the application
// updates or deletes them.
package audit

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/db"
)

// Outcomes of an audited action.
const (
	Success = "success"
	Failure = "failure"
	Denied  = "denied"
)

// Entry is one audit record; Write fills who, when and from where.
type Entry struct {
	Action     string // e.g. "user.create", "auth.login"
	ObjectType string
	ObjectID   any
	Before     any
	After      any
	Outcome    string // Success when empty
	Message    string
	// UserID, Username and Role name the actor when there is no principal yet (sign-in).
	UserID   int64
	Username string
	Role     string
}

// Write appends e to the audit log within q (usually the change's transaction).
func Write(ctx context.Context, q db.Querier, dialect db.Dialect, e Entry) error {
	p := access.FromContext(ctx)
	m := access.MetaFrom(ctx)
	if e.Outcome == "" {
		e.Outcome = Success
	}
	var userID any
	username, role := e.Username, e.Role
	if p != nil {
		userID, username, role = p.UserID, p.Username, p.PrimaryRole()
	} else if e.UserID != 0 {
		userID = e.UserID
	}
	objectID := ""
	if e.ObjectID != nil {
		b, _ := json.Marshal(e.ObjectID)
		objectID = string(trimQuotes(b))
	}
	b := (&db.DB{Dialect: dialect}).Builder().Insert("audit_logs").
		Columns("created_at", "user_id", "username", "role", "action", "object_type", "object_id",
			"before_data", "after_data", "ip", "outcome", "message").
		Values(time.Now().UTC(), userID, username, role, e.Action, e.ObjectType, objectID,
			jsonOrNil(e.Before), jsonOrNil(e.After), m.IP, e.Outcome, truncate(e.Message, 500))
	_, err := db.Exec(ctx, q, b)
	return err
}

// Log writes records outside a change's transaction: sign-ins and refusals.
type Log struct{ DB *db.DB }

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
