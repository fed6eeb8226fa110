// Package migrations embeds the versioned SQL schema. Files run in name order;
// {{ID}}, {{TS}}, {{JSON}} and {{BLOB}} expand to each dialect's types.
package migrations

import "embed"

//go:embed *.sql
var FS embed.FS
