package report

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"telepath/internal/platform/i18n"
)

// photo makes a w×h JPEG that looks vaguely like stained tissue.
func photo(t testing.TB, w, h int, seed float64) []byte {
	t.Helper()
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := math.Sin(float64(x)/37+seed)*math.Cos(float64(y)/23-seed) + math.Sin(float64(x*y)/9000)
			r := uint8(200 + 40*v)
			g := uint8(120 + 50*v)
			b := uint8(170 + 30*v)
			yy, cb, cr := color.RGBToYCbCr(r, g, b)
			img.Y[img.YOffset(x, y)] = yy
			ci := img.COffset(x, y)
			img.Cb[ci], img.Cr[ci] = cb, cr
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// signature makes a transparent PNG with a scribble.
func signature(t testing.TB) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 300, 100))
	for x := 10; x < 290; x++ {
		y := 50 + int(30*math.Sin(float64(x)/18))
		for d := -2; d <= 2; d++ {
			img.Set(x, y+d, color.NRGBA{0x10, 0x20, 0x60, 0xff})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var at = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

func chineseData(t testing.TB) Data {
	return Data{
		Lang:            i18n.ZH,
		CenterName:      "华东远程病理诊断中心",
		HospitalName:    "青浦区人民医院",
		ReportNo:        "RP-2026-000123",
		ConsultNo:       "HZ20261120001",
		PathologyNumber: "P2026-4567",
		Patient: Patient{
			Name: "王秀英", Gender: "female", Age: "56", AgeUnit: "year",
			InspectionDepartment: "普外科", InspectionDoctor: "李建国", InspectionDate: "2026-11-18",
			AdmissionNumber: "ZY0098765", BedNo: "12", OutpatientNumber: "MZ556677",
			ClinicalDiagnosis: "右乳肿物，性质待查。",
		},
		Specimens: []Specimen{
			{SerialNumber: "1", Name: "右乳肿物", Part: "右乳外上象限", Blocks: []string{"A1", "A2", "A3"}},
			{SerialNumber: "2", Name: "右腋窝淋巴结", Part: "右腋窝", Blocks: []string{"B1"}},
		},
		Gross:                "（右乳肿物）灰白灰红组织一块，大小3.5×2.8×2.0cm，切面灰白，质硬，界不清。\n（右腋窝淋巴结）淋巴结样物数枚，直径0.5～1.2cm。",
		Microscopic:          "镜下见肿瘤细胞呈巢状、条索状浸润性生长，细胞异型明显，核分裂象易见，间质纤维组织增生。淋巴结未见癌转移（0/6）。",
		Immunohistochemistry: "ER(+,90%)，PR(+,60%)，HER-2(1+)，Ki-67(+,约30%)，CK5/6(-)，P63(-)。",
		Diagnosis:            "（右乳）浸润性导管癌，非特殊类型，II级。\n（右腋窝）淋巴结未见癌转移（0/6）。",
		Remark:               "建议结合临床及影像学检查。",
		CriticalValues:       "",
		Images: []Image{
			{Data: photo(t, 1024, 768, 0), Caption: "HE ×100 浸润性癌巢"},
			{Data: photo(t, 1024, 768, 1), Caption: "HE ×400 核分裂象"},
			{Data: photo(t, 800, 800, 2), Caption: "ER 免疫组化 ×200"},
		},
		Expert:         "张明华 主任医师",
		Reviewer:       "刘芳",
		SignatureImage: signature(t),
		ReportedAt:     at,
		PublishedAt:    at.Add(3 * time.Hour),
		PrintedAt:      at.Add(4 * time.Hour),
		Version:        1,
		VerifyURL:      "https://telepath.example.org/verify/RP-2026-000123?c=7KQ2M9",
		VerifyCode:     "7KQ2M9",
	}
}

func englishData(t testing.TB) Data {
	d := chineseData(t)
	d.Lang = i18n.EN
	d.CenterName = "East China Telepathology Center"
	d.HospitalName = "Qingpu District People's Hospital"
	d.Patient.Name = "Mary Johnson"
	d.Patient.InspectionDepartment = "General Surgery"
	d.Patient.InspectionDoctor = "Dr. Li"
	d.Patient.ClinicalDiagnosis = "Right breast mass, nature to be determined."
	d.Specimens = []Specimen{{SerialNumber: "1", Name: "Right breast mass", Part: "Upper outer quadrant", Blocks: []string{"A1", "A2"}}}
	d.Gross = "A grey-white mass measuring 3.5 x 2.8 x 2.0 cm; the cut surface is firm with ill-defined borders."
	d.Microscopic = "Tumour cells infiltrate in nests and cords with marked atypia and frequent mitoses. " +
		"The stroma is desmoplastic. Six lymph nodes are free of metastasis (0/6)."
	d.Immunohistochemistry = "ER (+, 90%), PR (+, 60%), HER-2 (1+), Ki-67 (+, about 30%)."
	d.Diagnosis = "Invasive ductal carcinoma of the right breast, no special type, grade II."
	d.Remark = "Please correlate with clinical and imaging findings."
	d.Images[0].Caption = "H&E x100, invasive nests"
	d.Images[1].Caption = "H&E x400, mitotic figures"
	d.Images[2].Caption = "ER immunostain x200"
	d.Expert = "Zhang Minghua, MD"
	d.Reviewer = "Liu Fang, MD"
	d.Supplementary = true
	d.Version = 2
	d.Watermark = &Watermark{Text: "Telepath confidential", FontSize: 16, Color: "#c0392b"}
	return d
}

// pdfText extracts the text of a PDF with poppler's pdftotext, skipping the
// test where it is not installed.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) not installed")
	}
	f := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(f, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-enc", "UTF-8", f, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// pages counts the pages of a PDF with pdfinfo semantics, from the text's
// form feeds.
func pages(text string) int { return strings.Count(text, "\f") }

// inOrder fails unless every want appears in text, each after the previous.
func inOrder(t *testing.T, text string, want ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), "")
	pos := 0
	for _, w := range want {
		w = strings.Join(strings.Fields(w), "")
		i := strings.Index(flat[pos:], w)
		if i < 0 {
			t.Errorf("%q missing (or out of order) in:\n%s", w, text)
			return
		}
		pos += i + len(w)
	}
}

func writeSample(t *testing.T, name string, pdf []byte) {
	if dir := os.Getenv("REPORT_SAMPLE_DIR"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), pdf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRenderChinese(t *testing.T) {
	d := chineseData(t)
	pdf, err := Render(DefaultTemplate(KindRoutine, i18n.ZH), d)
	if err != nil {
		t.Fatal(err)
	}
	writeSample(t, "zh.pdf", pdf)
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatal("not a PDF")
	}
	if len(pdf) > 600<<10 {
		t.Errorf("PDF is %d bytes: font subsetting or image handling is off", len(pdf))
	}
	text := pdfText(t, pdf)
	inOrder(t, text, "华东远程病理诊断中心", "远程病理会诊报告", "RP-2026-000123",
		"王秀英", "女", "56岁", "临床诊断", "右乳肿物，性质待查",
		"送检标本", "右腋窝淋巴结", "大体所见", "镜下所见", "免疫组化", "病理诊断",
		"浸润性导管癌，非特殊类型，II级", "图像", "HE ×100", "备注", "诊断医师", "张明华")
	for _, w := range []string{"本报告仅对送检标本负责", "第 1/", "验证码 7KQ2M9", "2026-11-20 13:30"} {
		if !strings.Contains(text, w) {
			t.Errorf("%q missing", w)
		}
	}
	if strings.Contains(text, "危急值") {
		t.Error("an empty critical-values section is printed")
	}
}

func TestRenderEnglish(t *testing.T) {
	d := englishData(t)
	// The diagonal watermark's letters would interleave with the text
	// pdftotext extracts; TestRenderHostileInput covers watermarks.
	d.Watermark = nil
	pdf, err := Render(DefaultTemplate(KindRoutine, i18n.EN), d)
	if err != nil {
		t.Fatal(err)
	}
	writeSample(t, "en.pdf", pdf)
	text := pdfText(t, pdf)
	inOrder(t, text, "East China Telepathology Center", "Remote Pathology Consultation Report",
		"Supplementary report", "Version 2", "Mary Johnson",
		"Gross description", "Microscopic description", "Immunohistochemistry",
		"Pathological diagnosis", "Invasive ductal carcinoma of the right breast", "Images",
		"Remarks", "Pathologist", "Zhang Minghua")
	// The signature block wraps long names, so its labels are checked for
	// presence only.
	for _, w := range []string{"Reviewed", "Liu Fang", "This report applies only to the specimens examined", "Page 1 of", "Report No. RP-2026-000123"} {
		if !strings.Contains(text, w) {
			t.Errorf("%q missing", w)
		}
	}
}

func TestRenderFollowsTemplateOrder(t *testing.T) {
	d := chineseData(t)
	tpl := Template{Kind: KindFrozen, Title: "冰冻报告", Sections: []Section{
		{Key: SectionDiagnosis, Heading: "冰冻结果"},
		{Key: SectionPatient, Fields: []string{"pathology_number", "name"}},
		{Key: SectionGross},
	}}
	text := pdfText(t, must(t, tpl, d))
	inOrder(t, text, "冰冻报告", "冰冻结果", "浸润性导管癌", "病理号", "P2026-4567", "姓名", "王秀英", "大体所见")
	if strings.Contains(text, "镜下所见") || strings.Contains(text, "性别") {
		t.Error("sections or fields outside the template are printed")
	}
}

func must(t *testing.T, tpl Template, d Data) []byte {
	t.Helper()
	pdf, err := Render(tpl, d)
	if err != nil {
		t.Fatal(err)
	}
	return pdf
}

func TestRenderLongReportFlowsOverPages(t *testing.T) {
	d := chineseData(t)
	para := "镜下见肿瘤细胞呈巢状、条索状浸润性生长，细胞异型明显，核分裂象易见，间质纤维组织增生伴淋巴细胞浸润。"
	d.Microscopic = strings.Repeat(para+"\n", 60) + "镜下所见结束标记"
	d.Diagnosis = strings.Repeat("诊断", 5000) // 10,000 characters, no break opportunities but CJK
	d.Images = append(d.Images, d.Images...)
	pdf := must(t, DefaultTemplate(KindRoutine, i18n.ZH), d)
	writeSample(t, "long.pdf", pdf)
	text := pdfText(t, pdf)
	n := pages(text)
	if n < 5 {
		t.Fatalf("%d pages for a very long report", n)
	}
	inOrder(t, text, "镜下所见", "镜下所见（续）", "镜下所见结束标记", "病理诊断", "病理诊断（续）", "诊断医师")
	if !strings.Contains(text, "第 "+itoa(n)+"/"+itoa(n)+" 页") {
		t.Errorf("last page footer missing for %d pages", n)
	}
	// The running header names the patient on later pages.
	if strings.Count(text, "王秀英") < n {
		t.Errorf("patient name on %d of %d pages", strings.Count(text, "王秀英"), n)
	}
}

func TestRenderHostileInput(t *testing.T) {
	long := strings.Repeat("x", 3000)
	cases := map[string]Data{
		"Empty":          {},
		"EnglishEmpty":   {Lang: i18n.EN},
		"UnknownLang":    {Lang: "fr", Diagnosis: "ok"},
		"LongWords":      {Diagnosis: long, Microscopic: long + " " + long, Patient: Patient{Name: long, ClinicalDiagnosis: long}, ReportNo: long, CenterName: long, HospitalName: long, Expert: long, Reviewer: long},
		"Control":        {Diagnosis: "a\x00b\x07c\r\nd\te\xff\xfe", Patient: Patient{Name: "\u200b\ufeff"}},
		"Emoji":          {Diagnosis: "😀 🧪 ok", Remark: "\U0002F800"},
		"BadImages":      {Images: []Image{{Data: []byte("not an image"), Caption: "broken"}, {Data: nil}, {Data: photo(t, 64, 48, 0)[:200], Caption: "truncated"}}, SignatureImage: []byte{0x89, 'P', 'N', 'G'}},
		"ManyImages":     {Images: make([]Image, 50)},
		"HugeVerifyURL":  {VerifyURL: strings.Repeat("u", 10000), VerifyCode: long},
		"Watermark":      {Watermark: &Watermark{Text: long, FontSize: -5, Color: "rgba(300, x)"}},
		"WatermarkBlank": {Watermark: &Watermark{Text: " \n "}},
		"ManySpecimens": {Specimens: func() []Specimen {
			s := make([]Specimen, 200)
			for i := range s {
				s[i] = Specimen{Name: long[:40], Blocks: strings.Split(strings.Repeat("A1,", 100), ",")}
			}
			return s
		}()},
	}
	for name, d := range cases {
		t.Run(name, func(t *testing.T) {
			pdf, err := Render(DefaultTemplate(KindRoutine, i18n.ZH), d)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
				t.Fatal("not a PDF")
			}
			if name == "BadImages" {
				writeSample(t, "bad-images.pdf", pdf)
				text := pdfText(t, pdf)
				if c := strings.Count(text, "图像不可用"); c != 3 {
					t.Errorf("%d unavailable images, want 3", c)
				}
			}
		})
	}
}

func TestRenderConcurrently(t *testing.T) {
	d := chineseData(t)
	tpl := DefaultTemplate(KindRoutine, i18n.ZH)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Render(tpl, d); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
}

func BenchmarkRender(b *testing.B) {
	d := chineseData(b)
	d.Images = nil
	for i := range 4 {
		d.Images = append(d.Images, Image{Data: photo(b, 1024, 768, float64(i)), Caption: "HE ×200"})
	}
	tpl := DefaultTemplate(KindRoutine, i18n.ZH)
	var size int
	b.ReportAllocs()
	for b.Loop() {
		pdf, err := Render(tpl, d)
		if err != nil {
			b.Fatal(err)
		}
		size = len(pdf)
	}
	b.ReportMetric(float64(size), "pdf-bytes")
}

// The problems seen on paper stay fixed: labels do not wrap mid-word, no
// field prints twice, bold text is extracted once, the watermark is
// translucent with the configured alpha.
func TestRenderQuality(t *testing.T) {
	zh := must(t, DefaultTemplate(KindRoutine, i18n.ZH), chineseData(t))
	text := pdfText(t, zh)
	for _, label := range []string{"送检日期：", "送检科室：", "送检医生："} {
		if !strings.Contains(text, label) {
			t.Errorf("label %q is broken across lines:\n%s", label, text)
		}
	}
	if n := strings.Count(text, "送检医院"); n != 1 {
		t.Errorf("送检医院 printed %d times", n)
	}
	d := englishData(t)
	d.Watermark = nil
	en := pdfText(t, must(t, DefaultTemplate(KindRoutine, i18n.EN), d))
	for _, bold := range []string{"Invasive ductal carcinoma", "Zhang Minghua, MD", "Pathological diagnosis", "Immunohistochemistry"} {
		if n := strings.Count(en, bold); n != 1 {
			t.Errorf("bold %q extracted %d times:\n%s", bold, n, en)
		}
	}
	d = chineseData(t)
	d.Watermark = &Watermark{Text: "仅供参考", FontSize: 16, Color: "rgba(0,0,0,0.12)"}
	if pdf := must(t, DefaultTemplate(KindRoutine, i18n.ZH), d); !bytes.Contains(pdf, []byte("/ca 0.120")) {
		t.Error("the watermark is not translucent")
	}
}

// BenchmarkReportPDF renders a complete report as the preview does: the
// template in use (a Layout, localized), four images captured from slides
// (1600×1200 JPEG, scaled down for print), the signature and the watermark.
// It reports the time per PDF (wall clock, and CPU time, which the load of
// a shared machine does not inflate) and the PDF's size.
func BenchmarkReportPDF(b *testing.B) {
	d := chineseData(b)
	d.Images = nil
	for i := range 4 {
		d.Images = append(d.Images, Image{Data: photo(b, 1600, 1200, float64(i)), Caption: "HE ×200 截图"})
	}
	d.Watermark = &Watermark{Text: "远程会诊 仅供临床参考", FontSize: 16, Color: "rgba(0,0,0,0.12)"}
	tpl := DefaultLayout(KindRoutine).Template(KindRoutine, i18n.ZH)
	var size int
	b.ReportAllocs()
	start, cpu0 := time.Now(), cpuTime()
	for b.Loop() {
		pdf, err := Render(tpl, d)
		if err != nil {
			b.Fatal(err)
		}
		size = len(pdf)
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/pdf")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/pdf")
	b.ReportMetric(float64(size)/1024, "KiB/pdf")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The report class the expert chose is printed in the header under the
// report number; none, nothing.
func TestRenderReportClass(t *testing.T) {
	d := chineseData(t)
	d.ReportClass = "疑难会诊"
	text := pdfText(t, must(t, DefaultTemplate(KindRoutine, i18n.ZH), d))
	inOrder(t, text, "远程病理会诊报告", "RP-2026-000123", "报告分类：疑难会诊", "王秀英")
	d.ReportClass = ""
	if text := pdfText(t, must(t, DefaultTemplate(KindRoutine, i18n.ZH), d)); strings.Contains(text, "报告分类") {
		t.Error("a report without a class prints the label")
	}
}
