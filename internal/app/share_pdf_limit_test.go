package app_test

import (
	"strings"
	"testing"
	"time"

	"telepath/internal/app"
	"telepath/internal/slide/slidegen"
)

// A PDF attachment that makes the PDF reader spin without reading (its
// cross-reference table one 1 MB word, which the reader builds a byte at a
// time, copying it each time: an hour of CPU) is refused in both languages
// once the stamping time runs out, and is no visit; meanwhile the server
// answers and stamps another PDF; the stored file is untouched.
func TestSharePDFSpinning(t *testing.T) {
	limit := func(c *app.Config) { trustProxy(c); c.PDFStampTimeout = 2 * time.Second }
	eachDB(t, limit, func(t *testing.T, e *env) {
		site := e.login("site")
		spin := []byte("%PDF-1.4\n" + strings.Repeat("x", 1<<20) + "\nstartxref\n9\n%%EOF\n")
		var ids []int64
		for i, b := range [][]byte{spin, letterPDF(t)} {
			var f struct {
				Data struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.upload(site, []string{"spin.pdf", "letter.pdf"}[i], b), 200), &f)
			ids = append(ids, f.Data.ID)
		}
		before := e.fileDigest(t, ids[0])
		slide := e.grantedCase(genSlide(t, slidegen.Options{Width: 300, Height: 200, Seed: 7}), ids...)
		var cid int64
		e.app.DB.Get(&cid, e.app.DB.Rebind("SELECT consult_id FROM slides WHERE id = ?"), slide)
		s := e.share(e.login("expert"), map[string]any{"consult_id": cid, "expiry_days": 7, "with_attachments": true})
		var v viewOut
		e.decode(e.expect(e.openShare(s.Data.Token, "", "10.0.0.5"), 200), &v)
		if len(v.Data.Attachments) != 2 {
			t.Fatalf("attachments %+v", v.Data.Attachments)
		}
		get := func(i int, lang string) resp {
			return e.do("GET", v.Data.Attachments[i].URL, "", nil, "user-language", lang)
		}
		refused := make(chan resp)
		go func() { refused <- get(0, "en-US") }()
		e.expect(get(1, "en-US"), 200) // while the other child spins
		if m := message(e.expect(<-refused, 413)); !strings.Contains(m, "too long or too much memory") {
			t.Errorf("en: %q", m)
		}
		if m := message(e.expect(get(0, "zh-CN"), 413)); !strings.Contains(m, "耗时过长") {
			t.Errorf("zh: %q", m)
		}
		var visits int
		e.app.DB.Get(&visits, e.app.DB.Rebind("SELECT visits FROM shares WHERE id = ?"), s.Data.ID)
		if visits != 2 { // opened, then the letter; refusals are no visits
			t.Errorf("visits %d, want 2", visits)
		}
		if e.fileDigest(t, ids[0]) != before {
			t.Error("the stored file changed")
		}
	})
}
