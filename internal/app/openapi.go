package app

import (
	"context"
	"io"
	"log/slog"
	"os"

	"github.com/danielgtaylor/huma/v2"
)

// OpenAPI builds the API on a throw-away database and returns its document.
func OpenAPI(ctx context.Context) (*huma.OpenAPI, error) {
	dir, err := os.MkdirTemp("", "telepath-openapi")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cfg, _ := ConfigFromEnv(func(string) string { return "" })
	cfg.DataDir = dir
	a, err := New(ctx, cfg, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return nil, err
	}
	defer a.Close()
	return a.API.OpenAPI(), nil
}
