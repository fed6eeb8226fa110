package share

import (
	"testing"

	"telepath/internal/consultation"
)

// Every written form of the patient's identifiers is replaced; the rest of
// the text, and a Chinese name's parts alone, are kept.
func TestRedactor(t *testing.T) {
	zh := redactorOf(consultation.CaseInput{Name: "王芳", IDNumber: "11010519491231002X", Phone: "138-0013-8000", Birthday: "1949-01-05"})
	en := redactorOf(consultation.CaseInput{Name: "Li  Smith", Phone: "12345"})
	for _, c := range []struct {
		r        redactor
		in, want string
	}{
		{zh, "王芳 胃窦活检", "# 胃窦活检"},
		{zh, "患者王 芳，王·芳", "患者#，#"},
		{zh, "王医生看过，芳香", "王医生看过，芳香"},
		{zh, "身份证 110105 1949 1231 002x", "身份证 #"},
		{zh, "id 11010519491231002X.", "id #."},
		{zh, "电话13800138000或138 0013 8000", "电话#或#"},
		{zh, "生于1949-01-05、1949/1/5、1949.01.05、1949年1月5日、19490105", "生于#、#、#、#、#"},
		{zh, "1949-11-05 is another day", "1949-11-05 is another day"},
		{en, "seen by LI SMITH, mr smith, Smithson", "seen by #, mr #, Smithson"},
		{en, "li went home; call 12345", "li went home; call 12345"},
	} {
		if got := c.r.apply(c.in, "#"); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}
