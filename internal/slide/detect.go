package slide

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Detect reports the format of the slide at path from its content (and,
// for formats with no reliable magic, its extension): "svs", "tiff",
// "bigtiff" and "dicom" are supported; "ndpi", "kfb", "sdpc", "mrxs" and
// "unknown" are not. A directory is a DICOM series when it holds DICOM files.
func Detect(path string) (format string, supported bool, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", false, fmt.Errorf("detect slide format: %w", err)
	}
	if st.IsDir() {
		files, err := dicomFiles(path)
		if err != nil || len(files) == 0 {
			return "unknown", false, nil
		}
		return "dicom", true, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false, fmt.Errorf("detect slide format: %w", err)
	}
	defer f.Close()
	var hdr [132]byte
	n, err := f.ReadAt(hdr[:], 0)
	if err != nil && err != io.EOF {
		return "", false, fmt.Errorf("detect slide format: %w", err)
	}
	b := hdr[:n]
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case len(b) >= 132 && string(b[128:132]) == "DICM":
		return "dicom", true, nil
	case bytes.HasPrefix(b, []byte("KFB")):
		return "kfb", false, nil
	case bytes.HasPrefix(b, []byte("II*\x00")) || bytes.HasPrefix(b, []byte("MM\x00*")) ||
		bytes.HasPrefix(b, []byte("II+\x00")) || bytes.HasPrefix(b, []byte("MM\x00+")):
		return detectTIFF(f, st.Size(), ext, b[2] == '+' || b[3] == '+')
	}
	switch ext {
	case ".kfb":
		return "kfb", false, nil
	case ".sdpc":
		return "sdpc", false, nil
	case ".mrxs":
		return "mrxs", false, nil
	case ".ndpi":
		return "ndpi", false, nil
	case ".dcm":
		return "unknown", false, nil
	}
	return "unknown", false, nil
}

func detectTIFF(f *os.File, size int64, ext string, big bool) (string, bool, error) {
	if ext == ".ndpi" {
		return "ndpi", false, nil
	}
	t, err := parseTIFF(f, size)
	if err != nil {
		return "unknown", false, nil
	}
	d := t.ifds[0]
	format := "tiff"
	switch {
	case d.ndpi:
		return "ndpi", false, nil
	case strings.HasPrefix(d.description, "Aperio"):
		format = "svs"
	case big:
		format = "bigtiff"
	}
	// A file whose full-resolution image cannot be decoded (e.g. JPEG 2000
	// SVS) is recognized but not viewable; Open's error says why.
	if _, err := newLevel(d); err != nil && errors.Is(err, ErrUnsupportedFormat) {
		return format, false, nil
	}
	return format, true, nil
}
