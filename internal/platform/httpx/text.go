package httpx

import (
	"bytes"
	"context"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"unicode/utf8"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// PostgreSQL stores no NUL character and no invalid UTF-8; SQLite stores
// them and every later reader trips over them. Either way such text is a
// malformed request: it is refused at the door with a 400, before any
// handler (signed in or not) passes it to the database.

// maxCheckedBody bounds the bodies read whole to be checked; larger ones
// pass on to the handler, whose own limit refuses them.
const maxCheckedBody = 32 << 20

// BadText reports whether s holds a NUL character or is not valid UTF-8.
func BadText(s string) bool { return strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) }

// badRequestText reports whether the path, the query or a JSON or URL-encoded
// body holds text the database cannot store. It leaves r.Body readable.
func badRequestText(r *http.Request) bool {
	if BadText(r.URL.Path) || badQuery(r.URL.RawQuery) {
		return true
	}
	if r.Body == nil || r.Body == http.NoBody {
		return false
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	isJSON := mt == "application/json" || strings.HasSuffix(mt, "+json")
	if !isJSON && mt != "application/x-www-form-urlencoded" {
		return false
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxCheckedBody+1))
	rest := r.Body
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), rest), rest}
	if err != nil || len(b) > maxCheckedBody {
		return false
	}
	if isJSON {
		return !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 || jsonNUL(b)
	}
	return badQuery(string(b))
}

// badQuery checks the decoded names and values of a query string.
func badQuery(raw string) bool {
	if raw == "" {
		return false
	}
	if !strings.Contains(raw, "%") && !strings.Contains(raw, "+") {
		return BadText(raw)
	}
	vals, _ := url.ParseQuery(raw)
	for k, vs := range vals {
		if BadText(k) {
			return true
		}
		for _, v := range vs {
			if BadText(v) {
				return true
			}
		}
	}
	return false
}

// jsonNUL finds the escape \u0000 in a JSON text (escaped backslashes
// before a literal "u0000" do not count).
func jsonNUL(b []byte) bool {
	for i := 0; i < len(b)-1; i++ {
		if b[i] != '\\' {
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) && string(b[i+2:i+6]) == "0000" {
			return true
		}
		i++ // skip the escaped character
	}
	return false
}

func writeBadText(w http.ResponseWriter, r *http.Request) {
	msg := i18n.T(i18n.Parse(r.Header.Get("user-language")), "error.bad_text", nil)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	b, _ := jsonMarshal(map[string]string{"message": msg})
	w.Write(b) //nolint:errcheck
}

var formType = reflect.TypeFor[multipart.Form]()

// checkForm refuses the fields and file names of a multipart input (a
// RawBody multipart.Form field), which only the handler's input holds.
func checkForm(_ context.Context, in any) error {
	v := reflect.ValueOf(in)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	f := v.FieldByName("RawBody")
	if !f.IsValid() || f.Type() != formType {
		return nil
	}
	form := f.Interface().(multipart.Form)
	for k, vs := range form.Value {
		for _, s := range append(vs, k) {
			if BadText(s) {
				return apperr.New(apperr.Invalid, "error.bad_text")
			}
		}
	}
	for k, fhs := range form.File {
		if BadText(k) {
			return apperr.New(apperr.Invalid, "error.bad_text")
		}
		for _, fh := range fhs {
			if BadText(fh.Filename) || BadText(fh.Header.Get("Content-Type")) {
				return apperr.New(apperr.Invalid, "error.bad_text")
			}
		}
	}
	return nil
}
