// Package apperr defines the application's error type: a code that decides the
// HTTP status, a message key that is localized for the client, and optional
// field errors. Only internal errors carry detail that must not reach clients.
package apperr

import (
	"errors"
	"fmt"
	"slices"

	"telepath/internal/platform/i18n"
)

// Code classifies an error; httpx maps it to an HTTP status.
type Code string

const (
	Invalid      Code = "invalid"      // 400/422: bad input
	Unauthorized Code = "unauthorized" // 401: no or expired session
	Forbidden    Code = "forbidden"    // 403: role or data scope refuses
	NotFound     Code = "not_found"    // 404
	Conflict     Code = "conflict"     // 409: state does not allow it, duplicates
	TooLarge     Code = "too_large"    // 413
	TooMany      Code = "too_many"     // 429: rate limited
	Locked       Code = "locked"       // 423: the session's screen is locked
	Internal     Code = "internal"     // 500: logged with detail, client sees a generic message
)

// Error is a client-safe error. Key names a message in the i18n catalogue;
// Args fill its placeholders. Fields holds per-field message keys.
type Error struct {
	Code   Code
	Key    string
	Args   map[string]any
	Fields map[string][]FieldMsg
	order  []string // fields in the order their first error was added
	cause  error
}

// FieldMsg is one localized message for one field.
type FieldMsg struct {
	Key  string
	Args map[string]any
}

func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Key
	if len(e.Args) > 0 {
		s += fmt.Sprint(e.Args)
	}
	if e.cause != nil {
		s += ": " + e.cause.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.cause }

// New returns an error with a code and a message key.
func New(code Code, key string) *Error { return &Error{Code: code, Key: key} }

// With returns a copy of e with a message argument set.
func (e *Error) With(name string, value any) *Error {
	c := *e
	c.Args = make(map[string]any, len(e.Args)+1)
	for k, v := range e.Args {
		c.Args[k] = v
	}
	c.Args[name] = value
	return &c
}

// Field adds a field error (key is a message key) and returns e.
func (e *Error) Field(field, key string, args ...any) *Error {
	if e.Fields == nil {
		e.Fields = map[string][]FieldMsg{}
	}
	if _, seen := e.Fields[field]; !seen {
		e.order = append(e.order, field)
	}
	e.Fields[field] = append(e.Fields[field], FieldMsg{Key: key, Args: pairs(args)})
	return e
}

// FieldOrder lists the fields with errors in the order they were added:
// validators check a form from top to bottom, so the first is the first
// wrong field of the form.
func (e *Error) FieldOrder() []string {
	out := make([]string, 0, len(e.Fields))
	for _, f := range e.order {
		if len(e.Fields[f]) > 0 {
			out = append(out, f)
		}
	}
	var rest []string // set on Fields directly, without Field: after the others, by name
	for f := range e.Fields {
		if !slices.Contains(out, f) {
			rest = append(rest, f)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// Wrap records an internal cause; the client only sees the generic message.
func Wrap(err error, format string, a ...any) error {
	if err == nil {
		return nil
	}
	var ae *Error
	if errors.As(err, &ae) {
		return err
	}
	return &Error{Code: Internal, Key: "error.internal", cause: fmt.Errorf(format+": %w", append(a, err)...)}
}

// Validation collects field errors; Err returns nil when there are none.
type Validation struct{ err *Error }

// Add records a field error.
func (v *Validation) Add(field, key string, args ...any) {
	if v.err == nil {
		v.err = New(Invalid, "error.validation")
	}
	v.err.Field(field, key, args...)
}

// Has reports whether field already has an error.
func (v *Validation) Has(field string) bool { return v.err != nil && len(v.err.Fields[field]) > 0 }

// Err returns the collected error or nil.
func (v *Validation) Err() error {
	if v.err == nil {
		return nil
	}
	return v.err
}

// CodeOf returns the code of err, Internal for foreign errors.
func CodeOf(err error) Code {
	var ae *Error
	if errors.As(err, &ae) {
		return ae.Code
	}
	return Internal
}

// Is reports whether err is an application error with the given key.
func Is(err error, key string) bool {
	var ae *Error
	return errors.As(err, &ae) && ae.Key == key
}

func pairs(args []any) map[string]any {
	if len(args) == 0 {
		return nil
	}
	m := make(map[string]any, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		m[fmt.Sprint(args[i])] = args[i+1]
	}
	return m
}

// MsgKey is a message argument that is itself a message key, localized in
// the client's language too (e.g. the name of a status inside a refusal).
type MsgKey string

// Text is err's message in lang: for field errors, the first wrong field's
// (the headline). Foreign errors read as the internal error.
func Text(lang i18n.Lang, err error) string {
	var ae *Error
	if !errors.As(err, &ae) {
		return i18n.T(lang, "error.internal", nil)
	}
	for _, f := range ae.FieldOrder() {
		if msgs := ae.Fields[f]; len(msgs) > 0 {
			return i18n.T(lang, msgs[0].Key, LocalArgs(lang, msgs[0].Args))
		}
	}
	return i18n.T(lang, ae.Key, LocalArgs(lang, ae.Args))
}

// LocalArgs translates the arguments that are message keys themselves.
func LocalArgs(lang i18n.Lang, args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if key, ok := v.(MsgKey); ok {
			v = i18n.T(lang, string(key), nil)
		}
		out[k] = v
	}
	return out
}
