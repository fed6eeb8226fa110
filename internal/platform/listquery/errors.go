package listquery

import (
	"strings"
	"unicode/utf8"

	"telepath/internal/platform/apperr"
)

// Error keys, all with code apperr.Invalid.
const (
	KeyBadJSON          = "list.bad_json"          // arg param
	KeyUnknownColumn    = "list.unknown_column"    // arg column
	KeyUnknownOperator  = "list.unknown_operator"  // arg operator
	KeyUnknownCondition = "list.unknown_condition" // arg condition
	KeyBadOperator      = "list.bad_operator"      // args operator, column: operator not valid for the column's type
	KeyBadValue         = "list.bad_value"         // arg column
	KeyBadSort          = "list.bad_sort"
	KeyBadPage          = "list.bad_page"
	KeyTooComplex       = "list.too_complex"
)

// clip keeps client text in error arguments short and valid UTF-8.
func clip(s string) string {
	const max = 64
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max]) + "…"
}

func errJSON(param string) error { return apperr.New(apperr.Invalid, KeyBadJSON).With("param", param) }
func errColumn(name string) error {
	return apperr.New(apperr.Invalid, KeyUnknownColumn).With("column", clip(name))
}
func errOperator(op string) error {
	return apperr.New(apperr.Invalid, KeyUnknownOperator).With("operator", clip(op))
}
func errCondition(c string) error {
	return apperr.New(apperr.Invalid, KeyUnknownCondition).With("condition", clip(c))
}
func errOpFor(op Operator, col string) error {
	return apperr.New(apperr.Invalid, KeyBadOperator).With("operator", string(op)).With("column", clip(col))
}
func errValue(col string) error {
	return apperr.New(apperr.Invalid, KeyBadValue).With("column", clip(col))
}
func errSort() error    { return apperr.New(apperr.Invalid, KeyBadSort) }
func errPage() error    { return apperr.New(apperr.Invalid, KeyBadPage) }
func errComplex() error { return apperr.New(apperr.Invalid, KeyTooComplex) }
