package app_test

import (
	"os"
	"testing"

	"telepath/internal/auth"
)

func TestMain(m *testing.M) {
	// Every test server seeds the demo users and makes a login key.
	auth.UseTestCosts()
	os.Exit(m.Run())
}
