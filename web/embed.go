// Package web embeds the built single-page app (web/dist, made by `make build`).
package web

import "embed"

// Dist holds the built app under "dist".
//
//go:embed all:dist
var Dist embed.FS
