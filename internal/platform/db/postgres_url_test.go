package db

import (
	"strings"
	"testing"
)

func TestWithPostgresDefaults(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://u:p@h:5432/db?sslmode=disable", "postgres://u:p@h:5432/db?max_parallel_workers_per_gather=0&sslmode=disable"},
		{"postgres://h/db?max_parallel_workers_per_gather=2", "postgres://h/db?max_parallel_workers_per_gather=2"},
	} {
		got, err := withPostgresDefaults(c.in)
		if err != nil || got != c.want {
			t.Errorf("withPostgresDefaults(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := withPostgresDefaults("postgres://u:secret@h:bad/db"); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("bad URL: %v", err)
	}
}
