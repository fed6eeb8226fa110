package httpx

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// The headline of a multi-field error is the first wrong field of the form.
func TestLocalizeHeadlineIsFirstField(t *testing.T) {
	for range 20 { // map order must not show
		err := apperr.New(apperr.Invalid, "error.validation").
			Field("patient_name", "field.required").
			Field("age", "field.invalid").
			Field("sex", "field.invalid")
		out := Localize(context.Background(), i18n.EN, err)
		if want := out.Errors["patient_name"][0]; out.Message != want {
			t.Fatalf("headline %q, want %q (the first field's)", out.Message, want)
		}
	}
}

// huma's refusals are classified by kind: an undecodable body, a missing
// property, any other invalid value.
func TestSchemaRefusals(t *testing.T) {
	mux := http.NewServeMux()
	api := NewAPI(mux, nil, nil)
	type in struct {
		Body struct {
			Name string `json:"name" maxLength:"5"`
			Age  int    `json:"age,omitempty"`
		}
	}
	api.Mount("Test", []Route{{Method: "POST", Path: "/api/test", Public: true, ID: "test",
		Handler: Action(func(context.Context, *in) error { return nil })}})
	for _, c := range []struct{ body, message, field, fieldMsg string }{
		{`{"name":`, "error.bad_json", "", ""},
		{`{"age":3}`, "error.validation", "name", "field.required"},
		{`{"name":"toolongname"}`, "error.validation", "name", "field.invalid"},
		{`{"name":"ok","age":"x"}`, "error.validation", "age", "field.invalid"},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/api/test", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("user-language", "en-US")
		mux.ServeHTTP(rec, req)
		var got Error
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatalf("%s: %v %s", c.body, err, rec.Body)
		}
		if c.message = i18n.T(i18n.EN, c.message, nil); got.Message != c.message {
			t.Errorf("%s: message %q, want %q", c.body, got.Message, c.message)
		}
		if c.field != "" && (len(got.Errors[c.field]) == 0 || got.Errors[c.field][0] != i18n.T(i18n.EN, c.fieldMsg, nil)) {
			t.Errorf("%s: errors %v, want %s: %s", c.body, got.Errors, c.field, c.fieldMsg)
		}
	}
}

// Work cut short because the client went away is not logged as a server
// fault; the same error without a finished request is.
func TestAbandonedRequestIsNotAnInternalError(t *testing.T) {
	var buf strings.Builder
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(prev)

	gone, cancel := context.WithCancel(context.Background())
	cancel()
	out := Localize(gone, i18n.EN, apperr.Wrap(context.Canceled, "report: stamp"))
	if out.GetStatus() != http.StatusInternalServerError {
		t.Fatalf("status %d", out.GetStatus())
	}
	if strings.Contains(buf.String(), "level=ERROR") || !strings.Contains(buf.String(), "abandoned") {
		t.Fatalf("abandoned request logged as %q", buf.String())
	}
	buf.Reset()
	Localize(context.Background(), i18n.EN, apperr.Wrap(context.Canceled, "report: stamp"))
	if !strings.Contains(buf.String(), "level=ERROR") {
		t.Fatalf("a cancellation while the request lives must stay an error, logged %q", buf.String())
	}
}
