package report

import (
	"os"
	"strings"
	"testing"
	"time"

	"telepath/internal/platform/i18n"
)

// A slip prints its title, rows (long values wrapped) and signature lines
// in either language, Chinese and Latin text alike.
func TestRenderSlip(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.ZH, i18n.EN} {
		s := Slip{Lang: lang, Title: "切片蜡块借阅单 Loan slip", Org: "华东远程病理会诊中心", Number: "No. JY2026112700001",
			Rows: [][2]string{{"借阅人", "王医生（外院）"}, {"Purpose", strings.Repeat("second opinion at another hospital ", 12)}},
			Note: "借阅人应妥善保管切片和蜡块并按期归还。", Signatures: []string{"借阅人签字", "经办人签字", "日期"},
			PrintedAt: time.Date(2026, 11, 27, 9, 30, 0, 0, time.UTC)}
		b, err := RenderSlip(s)
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("SLIP_OUT") != "" {
			os.WriteFile(os.Getenv("SLIP_OUT")+"-"+string(lang)+".pdf", b, 0o644)
		}
		text := pdfText(t, b)
		for _, want := range []string{"切片蜡块借阅单", "JY2026112700001", "王医生（外院）", "经办人签字", "another hospital"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q missing from the slip:\n%s", lang, want, text)
			}
		}
	}
}
