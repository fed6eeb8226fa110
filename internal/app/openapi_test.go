package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"telepath/internal/app"
)

// The web app's API types are generated from web/src/lib/api/openapi.json;
// this test fails when that file no longer matches the server.
// UPDATE_OPENAPI=1 go test ./internal/app -run TestOpenAPIFile rewrites it.
func TestOpenAPIFile(t *testing.T) {
	doc, err := app.OpenAPI(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "web", "src", "lib", "api", "openapi.json")
	if os.Getenv("UPDATE_OPENAPI") != "" {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, buf.Bytes()) {
		t.Fatalf("%s is stale: run `make api` (UPDATE_OPENAPI=1 go test ./internal/app -run TestOpenAPIFile, then npm run gen:api in web/)", path)
	}
}
