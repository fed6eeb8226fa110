package apperr

import (
	"slices"
	"testing"
)

func TestFieldOrder(t *testing.T) {
	var v Validation
	for _, f := range []string{"patient_name", "age", "sex", "age", "birthday", "address"} {
		v.Add(f, "field.invalid")
	}
	err := v.Err().(*Error)
	err.Fields["zz_direct"] = []FieldMsg{{Key: "field.required"}}
	err.Fields["aa_direct"] = []FieldMsg{{Key: "field.required"}}
	want := []string{"patient_name", "age", "sex", "birthday", "address", "aa_direct", "zz_direct"}
	for range 20 { // map order must not show
		if got := err.FieldOrder(); !slices.Equal(got, want) {
			t.Fatalf("FieldOrder() = %v, want %v", got, want)
		}
	}
}
