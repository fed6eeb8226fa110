package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/phpdave11/gofpdi"
	"github.com/signintech/gopdf"
)

// pagesPDF is a PDF, as another program would have written it, of the
// given pages, each saying its number.
func pagesPDF(t *testing.T, sizes ...gopdf.Rect) []byte {
	t.Helper()
	gp, err := newDoc(gofpdi.NewImporter())
	if err != nil {
		t.Fatal(err)
	}
	for i, size := range sizes {
		gp.AddPageWithOption(gopdf.PageOption{PageSize: &size})
		_ = gp.SetFont(latinFamily, "", 14)
		gp.SetXY(60, 60)
		if err := gp.Cell(nil, fmt.Sprintf("content of page %d", i+1)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := gp.GetBytesPdfReturnErr()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// handPDF is a PDF of the given objects (numbered from 1) and trailer,
// with a correct cross-reference table.
func handPDF(trailer string, objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailer, xref)
	return b.Bytes()
}

// poppler is the output of one of poppler's tools run on a PDF.
func poppler(t *testing.T, pdf []byte, tool string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skip(tool + " (poppler-utils) not installed")
	}
	f := filepath.Join(t.TempDir(), "x.pdf")
	if err := os.WriteFile(f, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	args = append(args, f)
	if tool == "pdftotext" {
		args = append(args, "-") // to stdout
	}
	out, err := exec.Command(tool, args...).Output()
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return string(out)
}

const stampText = "Telepath · 由 李医生 于 2026-11-27 分享"

// A stamped PDF keeps its pages, their sizes and their content, and
// carries the watermark text on every page.
func TestStamp(t *testing.T) {
	src := pagesPDF(t, *gopdf.PageSizeA4, gopdf.Rect{W: 595.28, H: 419.53}, *gopdf.PageSizeA4Landscape)
	keep := bytes.Clone(src)
	out, err := stamp(src, Watermark{Text: stampText, FontSize: 16, Color: "#9ca3af"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, keep) {
		t.Fatal("the source changed")
	}
	info := poppler(t, out, "pdfinfo", "-f", "1", "-l", "3")
	for _, want := range []string{"Pages:           3", "Page    1 size:  595 x 842 pts", "Page    2 size:  595.28 x 419.53 pts", "Page    3 size:  842 x 595 pts"} {
		if !strings.Contains(info, want) {
			t.Errorf("pdfinfo lacks %q:\n%s", want, info)
		}
	}
	// Each page's own text sits where it was drawn, neither moved nor
	// stretched (60 pt from the left, 14 pt type).
	words := regexp.MustCompile(`xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">content<`).FindAllStringSubmatch(poppler(t, out, "pdftotext", "-bbox"), -1)
	if len(words) != 3 {
		t.Fatalf("the word 'content' found %d times", len(words))
	}
	for n, w := range words {
		x, _ := strconv.ParseFloat(w[1], 64)
		y0, _ := strconv.ParseFloat(w[2], 64)
		y1, _ := strconv.ParseFloat(w[3], 64)
		if x < 58 || x > 62 || y1-y0 < 12 || y1-y0 > 20 {
			t.Errorf("page %d: 'content' at x %.1f, %.1f pt high", n+1, x, y1-y0)
		}
	}
	// -raw keeps the order the text is drawn in, so the diagonal marks
	// come out whole, a line for each run of one font.
	for n := 1; n <= 3; n++ {
		page := poppler(t, out, "pdftotext", "-raw", "-enc", "UTF-8", "-f", fmt.Sprint(n), "-l", fmt.Sprint(n))
		if !strings.Contains(page, fmt.Sprintf("content of page %d", n)) || !strings.Contains(squeeze(page), squeeze(stampText)) {
			t.Errorf("page %d:\n%s", n, page)
		}
	}
}

// A page turned by /Rotate comes out as it is shown: upright, its width
// and height swapped.
func TestStampRotated(t *testing.T) {
	text := "BT /F1 24 Tf 20 40 Td (turned page) Tj ET"
	src := handPDF("/Root 1 0 R", "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Rotate 90 /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(text), text), "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	if info := poppler(t, src, "pdfinfo"); !strings.Contains(info, "Page rot:        90") {
		t.Fatalf("the source is not turned:\n%s", info)
	}
	out, err := stamp(src, Watermark{Text: stampText})
	if err != nil {
		t.Fatal(err)
	}
	info := poppler(t, out, "pdfinfo")
	if !strings.Contains(info, "Page size:       200 x 400 pts") || !strings.Contains(info, "Page rot:        0") {
		t.Errorf("stamped:\n%s", info)
	}
	if text := poppler(t, out, "pdftotext", "-raw"); !strings.Contains(squeeze(text), "turnedpage") {
		t.Errorf("text: %s", text)
	}
}

// A PDF that cannot be read, is encrypted or has too many pages is
// refused, without a panic and without reading forever.
func TestStampRefused(t *testing.T) {
	src := pagesPDF(t, *gopdf.PageSizeA4, *gopdf.PageSizeA4)
	many := make([]gopdf.Rect, MaxStampPages+1)
	for i := range many {
		many[i] = *gopdf.PageSizeA5
	}
	page := "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"
	for name, c := range map[string]struct {
		pdf  []byte
		want error
	}{
		"Empty":     {nil, ErrUnreadablePDF},
		"Text":      {[]byte("minutes of the tumour board"), ErrUnreadablePDF},
		"Header":    {[]byte("%PDF-1.7\n"), ErrUnreadablePDF},
		"Truncated": {src[:len(src)*2/3], ErrUnreadablePDF},
		"NoPages":   {handPDF("/Root 1 0 R", "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"), ErrUnreadablePDF},
		"CyclicTree": {handPDF("/Root 1 0 R", "<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"), ErrUnreadablePDF},
		"CyclicParent": {handPDF("/Root 1 0 R", "<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 2 0 R >>", strings.Replace(page, "/MediaBox [0 0 200 200]", "", 1)), ErrUnreadablePDF},
		"Encrypted": {handPDF("/Root 1 0 R /Encrypt 4 0 R /ID [<01> <01>]", "<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page, "<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>"), ErrEncryptedPDF},
		"TooManyPages": {pagesPDF(t, many...), ErrTooManyPages},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := stamp(c.pdf, Watermark{Text: stampText}); !errors.Is(err, c.want) {
				t.Errorf("%v, want %v", err, c.want)
			}
		})
	}
	// The hand-made page itself is readable: the refusals above are theirs.
	ok := handPDF("/Root 1 0 R", "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page)
	if _, err := stamp(ok, Watermark{Text: stampText}); err != nil {
		t.Errorf("hand-made PDF: %v", err)
	}
}

// squeeze is s without white space.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }
