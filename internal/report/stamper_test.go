package report

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signintech/gopdf"
)

// SpinPDF is a PDF whose cross-reference table is one 1 MB word: the reader
// builds it a byte at a time, copying what it has each time, about an hour
// of CPU for a handful of reads.
func SpinPDF() []byte {
	return []byte("%PDF-1.4\n" + strings.Repeat("x", 1<<20) + "\nstartxref\n9\n%%EOF\n")
}

// The child stamps as stamp does, and refuses alike; a PDF that makes the
// reader spin is killed at the time limit, and a request that ends kills
// its child.
func TestStamper(t *testing.T) {
	s := NewStamper(2 * time.Second)
	ctx := context.Background()
	src := pagesPDF(t, *gopdf.PageSizeA4, *gopdf.PageSizeA4Landscape)
	keep := bytes.Clone(src)
	out, err := s.Stamp(ctx, src, Watermark{Text: stampText, FontSize: 16, Color: "#9ca3af"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, keep) {
		t.Fatal("the source changed")
	}
	info := poppler(t, out, "pdfinfo", "-f", "1", "-l", "2")
	page := poppler(t, out, "pdftotext", "-raw", "-enc", "UTF-8", "-f", "2", "-l", "2")
	if !strings.Contains(info, "Page    2 size:  842 x 595 pts") || !strings.Contains(page, "content of page 2") || !strings.Contains(squeeze(page), squeeze(stampText)) {
		t.Errorf("stamped in the child:\n%s\n%s", info, page)
	}
	enc := handPDF("/Root 1 0 R /Encrypt 2 0 R", "<< /Type /Catalog >>", "<< /Filter /Standard >>")
	for name, c := range map[string]struct {
		pdf  []byte
		want error
	}{
		"Unreadable": {src[:len(src)/2], ErrUnreadablePDF},
		"Encrypted":  {enc, ErrEncryptedPDF},
		"Spinning":   {SpinPDF(), ErrStampTooCostly},
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			if _, err := s.Stamp(ctx, c.pdf, Watermark{Text: stampText}); !errors.Is(err, c.want) {
				t.Errorf("%v, want %v", err, c.want)
			}
			t.Logf("refused after %s", time.Since(start))
		})
	}
	t.Run("Cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(200*time.Millisecond, cancel)
		if _, err := NewStamper(time.Hour).Stamp(ctx, SpinPDF(), Watermark{Text: stampText}); !errors.Is(err, context.Canceled) {
			t.Errorf("%v, want %v", err, context.Canceled)
		}
	})
}
