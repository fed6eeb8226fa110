// Package slide reads whole-slide images (WSI) in pure Go: Aperio SVS,
// generic tiled pyramidal TIFF and BigTIFF (as libvips writes them) and DICOM
// WSI series. It exposes the pyramid levels, the stored compressed tiles
// (for pass-through serving), decoded regions, associated images and
// scanner properties.
//
// Every file is treated as hostile: offsets and sizes are checked against
// the file size, counts and dimensions are capped, decompression output
// is bounded, and every decode honours its context's cancellation and
// pixel budget and holds its buffers against a process-wide memory bound
// (budget.go), so a malformed or gigapixel-claiming file yields an error
// rather than a panic, a hang or a huge allocation.
package slide

import (
	"context"
	"errors"
	"fmt"
	"image"
	"time"
)

// Slide is an opened whole-slide image. Implementations are safe for
// concurrent use.
type Slide interface {
	// Format is "svs", "tiff" or "dicom".
	Format() string
	// Levels lists the pyramid levels, finest first.
	Levels() []Level
	// Properties returns scanner metadata.
	Properties() Properties
	// AssociatedImages names the associated images present ("label", "macro", "thumbnail").
	AssociatedImages() []string
	// AssociatedImage decodes one associated image.
	AssociatedImage(ctx context.Context, name string) (image.Image, error)
	// RawTile returns the stored tile at (col,row) of a level as a complete
	// JPEG stream a browser can decode. ok is false when the level is not
	// tiled JPEG (or the tile is absent) and the caller must use ReadRegion.
	RawTile(level, col, row int) (jpegBytes []byte, ok bool, err error)
	// AppendRawTile is RawTile appending to dst, so hot paths can reuse
	// pooled buffers instead of allocating one per tile.
	AppendRawTile(dst []byte, level, col, row int) (out []byte, ok bool, err error)
	// ReadRegion decodes the w×h region at (x,y) of a level, in that level's
	// pixel coordinates. Pixels outside the level are white. It stops when
	// ctx is done and fails with ErrBudget beyond ctx's budget (WithBudget).
	ReadRegion(ctx context.Context, level, x, y, w, h int) (*image.RGBA, error)
	// Close releases the file handles.
	Close() error
}

// Level describes one pyramid level.
type Level struct {
	Width, Height int
	// TileWidth and TileHeight are the stored tile size; for a stripped
	// level they are the strip size and Tiled is false.
	TileWidth, TileHeight int
	Tiled                 bool
	// Downsample is relative to level 0.
	Downsample float64
}

// Properties is the metadata known about a slide. Zero values mean unknown.
type Properties struct {
	MPPX, MPPY  float64 // microns per pixel at level 0
	Objective   float64 // scanning objective power, e.g. 40
	Vendor      string  // "aperio", "generic-tiff", "dicom"
	ScanDate    time.Time
	Description string
	// Raw holds every key/value the reader found (Aperio description
	// fields, TIFF tags, DICOM attributes), for display.
	Raw map[string]string
}

// Limits on hostile input.
const (
	maxDimension     = 1 << 20 // pixels a side of one level
	maxLevelPixels   = 1 << 36 // total pixels of one level
	maxTileDimension = 1 << 14 // pixels a side of one tile or strip width
	maxChunks        = 1 << 21 // tiles or strips per level
	maxRegionPixels  = 1 << 24 // pixels of one ReadRegion call
	maxAssocPixels   = 1 << 24 // pixels of one associated image
)

// maxChunkPixels caps the decoded pixels of one tile or strip (a variable
// so the fuzz test can lower it and stay fast).
var maxChunkPixels = 1 << 24

// ErrUnsupportedFormat is returned (wrapped) for slides whose format is
// recognized but cannot be read, or not recognized at all.
var ErrUnsupportedFormat = errors.New("unsupported slide format")

// ErrNotFound is returned (wrapped) for a level, tile or associated image
// that does not exist.
var ErrNotFound = errors.New("not found")

// UnsupportedError names the format that cannot be read.
type UnsupportedError struct {
	Format string // e.g. "kfb", "ndpi", "unknown"
	Reason string
}

func (e *UnsupportedError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("unsupported slide format %q: %s", e.Format, e.Reason)
	}
	return fmt.Sprintf("unsupported slide format %q", e.Format)
}

func (e *UnsupportedError) Unwrap() error { return ErrUnsupportedFormat }

func unsupported(format, reason string) error {
	return &UnsupportedError{Format: format, Reason: reason}
}

// Open detects the format of the file (or DICOM folder) at path and opens it.
func Open(path string) (Slide, error) {
	format, ok, err := Detect(path)
	if err != nil {
		return nil, err
	}
	if !ok {
		if format == "svs" || format == "tiff" || format == "bigtiff" {
			if s, err := openTIFFPath(path); err != nil {
				return nil, err // names the reason, e.g. JPEG 2000
			} else {
				s.Close()
			}
		}
		return nil, unsupported(format, "")
	}
	switch format {
	case "dicom":
		return OpenDICOM(path)
	default:
		return openTIFFPath(path)
	}
}
