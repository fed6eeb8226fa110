package report

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// widthFunc returns the advance of one rune at font size 1.
type widthFunc func(r rune) float64

// wrap breaks text into lines no wider than width at the given font size.
// Paragraph breaks are kept (a blank line stays blank). Chinese, Japanese and
// Korean text may break between any two characters, other text breaks at
// spaces; a word longer than a line is cut where it must be. Closing
// punctuation never starts a line: it hangs at the end of the previous one.
func wrap(text string, width, size float64, w widthFunc) []string {
	text = cleanText(text)
	if width <= size {
		width = size // a line holds at least one character
	}
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		lines = append(lines, wrapParagraph(para, width, size, w)...)
	}
	return lines
}

// cleanText normalises line ends and tabs and drops control characters and
// invalid UTF-8, which the font cannot draw.
func cleanText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n == 1:
		case r == '\n':
			b.WriteByte('\n')
		case r == '\r' || r == '\v' || r == '\f' || r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
		case r == '\t' || r == 0xA0:
			b.WriteByte(' ')
		case unicode.IsControl(r) || r == 0xFEFF || r == 0x200B:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func wrapParagraph(para string, width, size float64, w widthFunc) []string {
	if strings.TrimSpace(para) == "" {
		return []string{""}
	}
	var (
		lines []string
		line  []rune
		lineW float64
	)
	flush := func() {
		lines = append(lines, strings.TrimRight(string(line), " "))
		line, lineW = line[:0], 0
	}
	for _, tok := range tokens(para) {
		tw := 0.0
		for _, r := range tok {
			tw += w(r) * size
		}
		switch {
		case lineW+tw <= width:
			line = append(line, tok...)
			lineW += tw
		case tok[0] == ' ':
			flush() // break at the space, which disappears
		case isClosing(tok[0]) && len(line) > 0 && lineW+tw <= width+size*1.05:
			line = append(line, tok...) // hang the punctuation
			lineW += tw
			flush()
		default:
			if len(line) > 0 {
				flush()
			}
			// A word wider than the line is cut where it must be.
			for _, r := range tok {
				rw := w(r) * size
				if lineW+rw > width && len(line) > 0 {
					flush()
				}
				line = append(line, r)
				lineW += rw
			}
		}
	}
	if len(line) > 0 || len(lines) == 0 {
		flush()
	}
	return lines
}

// tokens splits a paragraph into units that stay on one line: a run of
// spaces, a word, or one CJK character (with the closing punctuation that
// follows it, which must not start a line).
func tokens(s string) [][]rune {
	var out [][]rune
	rs := []rune(s)
	for i := 0; i < len(rs); {
		j := i + 1
		switch {
		case rs[i] == ' ':
			for j < len(rs) && rs[j] == ' ' {
				j++
			}
		case isCJK(rs[i]):
			for j < len(rs) && isClosing(rs[j]) && isCJK(rs[j]) {
				j++
			}
		default:
			for j < len(rs) && rs[j] != ' ' && !isCJK(rs[j]) {
				j++
			}
		}
		out = append(out, rs[i:j])
		i = j
	}
	return out
}

// isCJK reports whether a line may break before and after r.
func isCJK(r rune) bool {
	switch {
	case r >= 0x2E80 && r <= 0x9FFF, // radicals, punctuation, kana, CJK unified
		r >= 0xAC00 && r <= 0xD7AF, // Hangul
		r >= 0xF900 && r <= 0xFAFF, // compatibility ideographs
		r >= 0xFE30 && r <= 0xFE4F, // compatibility forms
		r >= 0xFF00 && r <= 0xFFEF, // full-width forms
		r >= 0x20000 && r <= 0x3FFFF:
		return true
	}
	return false
}

// isClosing reports punctuation that must not begin a line.
func isClosing(r rune) bool {
	return strings.ContainsRune("，。、；：？！）》」』】〕〉”’…%,.;:?!)]}·～", r)
}
