package httpx

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/validation"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// Error is the error body every endpoint returns: a localized message and,
// for validation, localized messages per field.
type Error struct {
	status  int
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors,omitempty"`
}

func (e *Error) Error() string  { return e.Message }
func (e *Error) GetStatus() int { return e.status }

var statusOf = map[apperr.Code]int{
	apperr.Invalid:      http.StatusUnprocessableEntity,
	apperr.Unauthorized: http.StatusUnauthorized,
	apperr.Forbidden:    http.StatusForbidden,
	apperr.NotFound:     http.StatusNotFound,
	apperr.Conflict:     http.StatusConflict,
	apperr.TooLarge:     http.StatusRequestEntityTooLarge,
	apperr.TooMany:      http.StatusTooManyRequests,
	apperr.Locked:       http.StatusLocked,
	apperr.Internal:     http.StatusInternalServerError,
}

// Localize turns any error into the client's error body in lang. Internal
// errors are logged with their detail and reach the client as a generic text.
func Localize(ctx context.Context, lang i18n.Lang, err error) *Error {
	var he *Error
	if errors.As(err, &he) {
		return he
	}
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		ae = apperr.Wrap(err, "unexpected").(*apperr.Error)
	}
	if ae.Code == apperr.Internal {
		logInternal(ctx, err)
	}
	status := statusOf[ae.Code]
	if status == 0 {
		status = http.StatusInternalServerError
	}
	// List and parameter errors are plain bad requests.
	if ae.Code == apperr.Invalid && len(ae.Fields) == 0 {
		status = http.StatusBadRequest
	}
	out := &Error{status: status, Message: i18n.T(lang, ae.Key, apperr.LocalArgs(lang, ae.Args))}
	if len(ae.Fields) > 0 {
		out.Errors = map[string][]string{}
		for field, msgs := range ae.Fields {
			for _, m := range msgs {
				out.Errors[field] = append(out.Errors[field], i18n.T(lang, m.Key, apperr.LocalArgs(lang, m.Args)))
			}
		}
		// The first wrong field of the form is the headline (spec 1 §8).
		for _, f := range ae.FieldOrder() {
			if msgs := out.Errors[f]; len(msgs) > 0 {
				out.Message = msgs[0]
				break
			}
		}
	}
	return out
}

// humaError localizes huma's own errors (request decoding and schema validation).
func humaError(ctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
	slog.Debug("request refused by the API schema", "status", status, "msg", msg, "errs", errs)
	lang := i18n.Parse(ctx.Header("user-language"))
	switch {
	case status == http.StatusUnauthorized:
		return &Error{status: status, Message: i18n.T(lang, "error.unauthorized", nil)}
	case status == http.StatusForbidden:
		return &Error{status: status, Message: i18n.T(lang, "error.forbidden", nil)}
	case status == http.StatusTooManyRequests:
		return &Error{status: status, Message: i18n.T(lang, "error.too_many", nil)}
	case status == http.StatusRequestEntityTooLarge:
		return &Error{status: status, Message: i18n.T(lang, "error.body_too_large", nil)}
	case status == http.StatusNotFound:
		return &Error{status: status, Message: i18n.T(lang, "error.not_found", nil)}
	case status >= 500:
		slog.Error("request failed", "status", status, "msg", msg)
		return &Error{status: status, Message: i18n.T(lang, "error.internal", nil)}
	}
	out := &Error{status: status, Message: i18n.T(lang, "error.validation", nil)}
	for _, e := range errs {
		var d *huma.ErrorDetail
		if !errors.As(e, &d) {
			continue
		}
		kind, prop := detailKind(d)
		if kind == badJSON {
			out.Message = i18n.T(lang, "error.bad_json", nil)
			continue
		}
		field := fieldName(d.Location)
		if prop != "" {
			if field == "_" {
				field = prop
			} else {
				field += "." + prop
			}
		}
		key := "field.invalid"
		if kind == missing {
			key = "field.required"
		}
		if out.Errors == nil {
			out.Errors = map[string][]string{}
		}
		out.Errors[field] = append(out.Errors[field], i18n.T(lang, key, nil))
	}
	if status == http.StatusUnprocessableEntity && out.Errors == nil && out.Message == i18n.T(lang, "error.validation", nil) {
		out.status = http.StatusBadRequest
	}
	return out
}

// errBadJSON is what the API's JSON decoder returns for any body it cannot
// decode; huma passes on only its text, which detailKind recognizes.
var errBadJSON = errors.New("httpx: the request body is not valid JSON for this operation")

// jsonFormat is huma's JSON format with a decoder whose failures are errBadJSON.
var jsonFormat = huma.Format{
	Marshal: huma.DefaultJSONFormat.Marshal,
	Unmarshal: func(data []byte, v any) error {
		if err := huma.DefaultJSONFormat.Unmarshal(data, v); err != nil {
			return errBadJSON
		}
		return nil
	},
}

const (
	invalid = iota // any other refusal of huma's validator
	missing        // a required property is absent
	badJSON        // the body did not decode
)

// detailKind classifies one of huma's error details by its origin: the
// decoder's sentinel, or the message of huma's validation catalogue it was
// made from (for a missing property, also the property's name).
func detailKind(d *huma.ErrorDetail) (kind int, prop string) {
	if d.Message == errBadJSON.Error() {
		return badJSON, ""
	}
	if n, _ := fmt.Sscanf(d.Message, validation.MsgExpectedRequiredProperty, &prop); n == 1 {
		return missing, prop
	}
	return invalid, ""
}

// fieldName turns huma's "body.roles[1]" into the form field "roles" and
// "body.site_info.hisip" into "site_info.hisip".
func fieldName(loc string) string {
	for _, p := range []string{"body.", "query.", "path.", "header."} {
		loc = strings.TrimPrefix(loc, p)
	}
	if i := strings.Index(loc, "["); i > 0 {
		loc = loc[:i]
	}
	if loc == "body" {
		return "_"
	}
	return loc
}

// logInternal logs an internal error, except work cut short because the
// client went away (a closed tab, a cancelled download): that is no fault
// of the server and is logged as information.
func logInternal(ctx context.Context, err error) {
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		slog.InfoContext(ctx, "request abandoned by the client", "err", err)
		return
	}
	slog.ErrorContext(ctx, "internal error", "err", err)
}
