package slide

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// OpenDICOM opens a DICOM WSI series from a folder of instance files, or
// from one instance file together with its siblings of the same series.
func OpenDICOM(path string) (Slide, error) {
	files, err := dicomFiles(path)
	if err != nil {
		return nil, err
	}
	return OpenDICOMFiles(files)
}

// OpenDICOMFiles opens the given instance files of one series.
func OpenDICOMFiles(files []string) (Slide, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("open DICOM: no files")
	}
	var ins []*dcmInstance
	var firstErr error
	for _, p := range files {
		in, err := readDICOMInstance(p)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		ins = append(ins, in)
	}
	s, err := newDICOMSlide(ins)
	if err != nil {
		for _, in := range ins {
			in.f.Close()
		}
		if firstErr != nil && len(ins) == 0 {
			return nil, fmt.Errorf("open DICOM: %w", firstErr)
		}
		return nil, fmt.Errorf("open DICOM: %w", err)
	}
	return s, nil
}

// OpenDICOMReader reads a single-instance DICOM WSI from r (for tests and
// fuzzing). The caller keeps ownership of r.
func OpenDICOMReader(r io.ReaderAt, size int64) (Slide, error) {
	in, err := parseDICOMInstance(r, size)
	if err != nil {
		return nil, err
	}
	return newDICOMSlide([]*dcmInstance{in})
}

// dicomFiles lists the DICOM files of a folder, or of the series of one file.
func dicomFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open DICOM: %w", err)
	}
	dir, only := path, ""
	if !st.IsDir() {
		dir, only = filepath.Dir(path), path
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("open DICOM: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if isDICOMFile(p) {
			out = append(out, p)
			if len(out) > maxDICOMFiles {
				return nil, fmt.Errorf("open DICOM: more than %d files in %s", maxDICOMFiles, dir)
			}
		}
	}
	if only == "" {
		return out, nil
	}
	// Keep the named file's series: put it first so newDICOMSlide picks it.
	sort.SliceStable(out, func(i, j int) bool { return out[i] == only && out[j] != only })
	return out, nil
}

func isDICOMFile(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [132]byte
	n, _ := f.ReadAt(b[:], 0)
	return n == 132 && string(b[128:]) == "DICM"
}
