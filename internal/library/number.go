package library

import (
	"context"
	"strings"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// CheckNumber tells whether number is a valid pathology number for the
// library: only digits, letters, underscore and hyphen (spec 2 §5), and the
// library's rule (prefix, middle digits, symbol, serial length). It does not
// check that the number is unused: the consultation domain does that in its
// own write transaction, where it knows which case is being edited.
//
// It returns nil, or an *apperr.Error with code Invalid and one field error:
//   - library_id: library.unknown when the library (or one above it) does
//     not exist, is deleted or is disabled;
//   - pathology_number: field.required, library.number_chars, or
//     library.number_rule (the message shows an example such as
//     BL2026-00001).
//
// Other errors are internal (database).
func (s *Service) CheckNumber(ctx context.Context, libraryID int64, number string) error {
	l, err := s.usable(ctx, libraryID)
	if err != nil {
		return err
	}
	return l.Rule().Check(number)
}

// NextNumber suggests the next free pathology number of the library for
// the given middle part (e.g. the year "2026"): one above the highest serial
// in use with the same prefix, middle and symbol, padded to the serial
// length. An empty middle means today's (DefaultMiddle: 2 digits "26",
// 4 "2026", 6 "202601", 8 "20260102"); a library without middle digits takes
// no middle.
//
// The numbers in use are read with SELECT pathology_number FROM
// consultations WHERE library_id = ? (narrowed by the head of the number):
// the one place this package reads the consultation tables. Deleted cases
// count, so their numbers are not handed out again. Nothing is reserved:
// two callers may get the same suggestion, and the consultation domain's
// uniqueness check on save decides.
//
// Errors (*apperr.Error): Invalid with a field error on library_id
// (library.unknown) or on middle (field.required when the middle has no
// default, library.bad_middle when it is not middle_digits digits);
// Conflict library.number_exhausted when the serial length is used up.
func (s *Service) NextNumber(ctx context.Context, libraryID int64, middle string) (string, error) {
	l, err := s.usable(ctx, libraryID)
	if err != nil {
		return "", err
	}
	middle = strings.TrimSpace(middle)
	if l.MiddleDigits == 0 {
		middle = ""
	} else {
		if middle == "" {
			middle = DefaultMiddle(l.MiddleDigits, s.clock.Local(s.clock.Now()))
		}
		if middle == "" {
			return "", apperr.New(apperr.Invalid, "error.validation").Field("middle", "field.required")
		}
		if len(middle) != l.MiddleDigits || !allDigits(middle) {
			return "", apperr.New(apperr.Invalid, "error.validation").Field("middle", "library.bad_middle", "digits", l.MiddleDigits)
		}
	}
	head := l.Prefix + middle + l.Symbol
	var used []string
	err = db.Select(ctx, s.db, &used, s.db.Builder().Select("pathology_number").From("consultations").
		Where("library_id = ?", libraryID).Where("pathology_number LIKE ? ESCAPE '\\'", likePrefix(head)))
	if err != nil {
		return "", apperr.Wrap(err, "pathology numbers in use")
	}
	return l.Rule().Next(middle, used)
}

// likePrefix is the LIKE pattern of the strings starting with s; _ is
// allowed in numbers and must not act as a wildcard.
func likePrefix(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s) + "%"
}
