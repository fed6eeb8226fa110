package report

import (
	"bytes"
	"errors"
	"io"

	"github.com/phpdave11/gofpdi"
	"github.com/signintech/gopdf"

	"telepath/internal/platform/apperr"
)

// MaxStampPages bounds the pages of a PDF that Stamp watermarks.
const MaxStampPages = 500

// Why Stamp refuses a PDF.
var (
	ErrUnreadablePDF = errors.New("report: the PDF cannot be read")
	ErrEncryptedPDF  = errors.New("report: the PDF is encrypted")
	ErrTooManyPages  = errors.New("report: the PDF has too many pages")
)

// The reader (gofpdi) spins at the end of some truncated files and
// recurses without end on a cyclic page tree, rereading the file each
// time; Stamp gives up on a file once it has been read this often or
// this much. An ordinary file is read far less: once, plus each object a
// page uses once per page.
const (
	maxReads     = 1 << 16
	maxReadBytes = 1 << 30
)

// shownSize is the size of an imported page as it is shown: its media
// box, turned by its /Rotate. The importer keeps it to itself but scales
// a 1×1 placement by its inverse.
func shownSize(imp *gofpdi.Importer, tpl int) (w, h float64) {
	_, sx, sy, _, _ := imp.UseTemplate(tpl, 0, 0, 1, 1)
	return 1 / sx, 1 / sy
}

// budgetReader is a file that panics when its reads run out.
type budgetReader struct {
	*bytes.Reader
	calls, bytes int
}

func (r *budgetReader) Read(b []byte) (int, error) {
	n, err := r.Reader.Read(b)
	r.calls--
	r.bytes -= n
	if r.calls < 0 || r.bytes < 0 {
		panic(ErrUnreadablePDF)
	}
	return n, err
}

// stamp returns a copy of the PDF src with wm's text tiled over every
// page the way a report's watermark is, each page keeping its size. The
// reader (gofpdi) panics on malformed files; such a file, like one it
// reads beyond its budget, is ErrUnreadablePDF. An encrypted file is
// ErrEncryptedPDF and one of more than MaxStampPages pages
// ErrTooManyPages. src is not changed. It runs in a child process
// (Stamper): a crafted file can still make the reader spin without
// reading, or take all memory.
func stamp(src []byte, wm Watermark) (out []byte, err error) {
	if bytes.Contains(src, []byte("/Encrypt")) {
		return nil, ErrEncryptedPDF
	}
	defer func() {
		if recover() != nil {
			out, err = nil, ErrUnreadablePDF
		}
	}()
	imp := gofpdi.NewImporter()
	gp, err := newDoc(imp)
	if err != nil {
		return nil, err
	}
	rs := io.ReadSeeker(&budgetReader{Reader: bytes.NewReader(src), calls: maxReads, bytes: maxReadBytes})
	sizes := gp.GetStreamPageSizes(&rs)
	switch {
	case len(sizes) == 0:
		return nil, ErrUnreadablePDF
	case len(sizes) > MaxStampPages:
		return nil, ErrTooManyPages
	}
	p := &pdf{gp: gp, widths: map[rune]float64{}, boldWidths: map[rune]float64{}}
	for n := 1; n <= len(sizes); n++ {
		tpl := gp.ImportPageStream(&rs, n, "/MediaBox")
		w, h := shownSize(imp, tpl)
		if !(w > 0 && h > 0 && w < 1e5 && h < 1e5) {
			return nil, ErrUnreadablePDF
		}
		gp.AddPageWithOption(gopdf.PageOption{PageSize: &gopdf.Rect{W: w, H: h}})
		gp.UseImportedTemplate(tpl, 0, 0, w, h)
		p.watermark(&wm, w, h)
	}
	if out, err = gp.GetBytesPdfReturnErr(); err != nil {
		return nil, apperr.Wrap(err, "report: write stamped pdf")
	}
	return out, nil
}
