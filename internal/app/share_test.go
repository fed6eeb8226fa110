package app_test

import (
	"bytes"
	"image/jpeg"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"telepath/internal/app"
	"telepath/internal/platform/httpx"
	"telepath/internal/slide/slidegen"
)

type shareOut struct {
	Data struct {
		ID     int64    `json:"id"`
		Token  string   `json:"token"`
		Code   string   `json:"code"`
		Phase  string   `json:"phase"`
		Visits int      `json:"visits"`
		Action []string `json:"actions"`
	} `json:"data"`
}

type viewOut struct {
	Data struct {
		Ticket    string `json:"ticket"`
		Number    string `json:"number"`
		ReportURL string `json:"report_url"`
		Watermark string `json:"watermark"`
		Slides    []struct {
			Viewer         viewerOut `json:"viewer"`
			AnnotationsURL string    `json:"annotations_url"`
		} `json:"slides"`
		Attachments []struct {
			URL string `json:"url"`
		} `json:"attachments"`
	} `json:"data"`
}

// sharedCase is a case with a real slide, diagnosed and published by
// expert; it returns the case and slide ids.
func (e *env) sharedCase(t *testing.T) (string, int64) {
	var file struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	e.decode(e.expect(e.upload(e.login("site"), "王芳-申请单.pdf", letterPDF(t)), 200), &file)
	slide := e.grantedCase(genSlide(t, slidegen.Options{Width: 600, Height: 400, Seed: 15}), file.Data.ID)
	var caseID int64
	e.app.DB.Get(&caseID, e.app.DB.Rebind("SELECT consult_id FROM slides WHERE id = ?"), slide)
	id, expert := itoa(caseID), e.login("expert")
	d := "/api/diagnosis/" + id
	e.expect(e.do("POST", d+"/lock", expert, nil), 200)
	e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
	e.expect(e.do("POST", d+"/publish", expert, map[string]any{"delayed": false, "confirm_unviewed": true}), 200)
	return id, slide
}

func (e *env) share(token string, body map[string]any) shareOut {
	e.t.Helper()
	var s shareOut
	e.decode(e.expect(e.do("POST", "/api/share", token, body), 200), &s)
	return s
}

func (e *env) openShare(token, code, ip string) resp {
	e.t.Helper()
	return e.do("POST", "/api/share/open", "", map[string]any{"c": token, "code": code}, "X-Forwarded-For", ip, "user-language", "en-US")
}

func trustProxy(c *app.Config) { c.Proxies, _ = httpx.ParseProxies("1", "") }

// A share shows no more than its options say; a de-identified one holds the
// patient's name, ID number, phone and birthday nowhere (JSON, slide label,
// report PDF); cancelled and expired links answer like unknown ones, and
// the slide URLs issued to them stop at once.
func TestShareLinks(t *testing.T) {
	eachDB(t, trustProxy, func(t *testing.T, e *env) {
		id, slide := e.sharedCase(t)
		cid, _ := strconv.ParseInt(id, 10, 64)
		expert, expert2, site, admin := e.login("expert"), e.login("expert2"), e.login("site"), e.login("admin")
		opts := map[string]any{"consult_id": cid, "secret": true, "expiry_days": 7, "with_report": true, "with_attachments": true, "with_clinical": false,
			"with_annotations": true, "deidentify": true}
		e.expect(e.do("PUT", "/api/slides/"+itoa(slide)+"/annotations", expert, map[string]any{"labels": []any{
			map[string]any{"id": 1, "tool": "rect", "points": []any{map[string]any{"x": 10, "y": 10}, map[string]any{"x": 90, "y": 60}}, "color": "#ff0000", "lineWidth": 2, "description": "focus"},
		}}), 200)

		t.Run("Scope", func(t *testing.T) {
			e.expect(e.do("POST", "/api/share", site, opts), 403)
			e.expect(e.do("POST", "/api/share", expert2, opts), 404) // not the case's expert
			bad := map[string]any{"consult_id": cid, "expiry_days": 3}
			e.expect(e.do("POST", "/api/share", expert, bad), 422)
			if n := e.count("shares", "1=1"); n != 0 {
				t.Fatalf("%d shares written by refused calls", n)
			}
		})

		s := e.share(expert, opts)
		if len(s.Data.Token) < 22 || len(s.Data.Code) != 6 || s.Data.Phase != "sharing" {
			t.Fatalf("created: %+v", s.Data)
		}
		if n := e.count("shares", "token_hash = ?", s.Data.Token); n != 0 {
			t.Fatal("token stored in clear")
		}

		t.Run("Code", func(t *testing.T) {
			r := e.expect(e.openShare(s.Data.Token, "", "10.0.0.1"), 403)
			if !strings.Contains(message(r), "share code") {
				t.Fatalf("no code: %s", r)
			}
			r = e.expect(e.openShare(s.Data.Token, "WRONG1", "10.0.0.1"), 403)
			if message(r) != "The share code is wrong" {
				t.Fatalf("wrong code: %s", r)
			}
			zh := e.do("POST", "/api/share/open", "", map[string]any{"c": s.Data.Token, "code": "WRONG1"}, "X-Forwarded-For", "10.0.0.1")
			if message(zh) != "分享码错误" {
				t.Fatalf("wrong code in Chinese: %s", zh)
			}
		})

		var v viewOut
		r := e.expect(e.openShare(s.Data.Token, s.Data.Code, "10.0.0.1"), 200)
		e.decode(r, &v)
		t.Run("Deidentified", func(t *testing.T) {
			for _, leak := range []string{"王芳", "13800138000", "11010519491231002X", "HE-9.tif", "BL2026-09077", "label.jpg", "/download"} {
				if strings.Contains(string(r.Body), leak) {
					t.Errorf("shared JSON holds %q: %s", leak, r)
				}
			}
			if !strings.HasPrefix(v.Data.Number, "SH-") || !strings.Contains(v.Data.Watermark, "Shared by") {
				t.Errorf("number %q, watermark %q", v.Data.Number, v.Data.Watermark)
			}
			if len(v.Data.Slides) != 1 || v.Data.ReportURL == "" {
				t.Fatalf("view: %s", r)
			}
			dzi := v.Data.Slides[0].Viewer.DZIURL
			base := strings.TrimSuffix(dzi, "/slide.dzi")
			e.expect(e.do("GET", dzi, "", nil), 200)
			for _, part := range []string{"/label.jpg", "/macro.jpg", "/download"} {
				e.expect(e.do("GET", base+part, "", nil), 403)
			}
			iiif := strings.Replace(base, "/api/slides/", "/api/iiif/", 1)
			e.expect(e.do("GET", iiif+"/info.json", "", nil), 403)
			e.expect(e.do("GET", iiif+"/full/max/0/default.jpg", "", nil), 403)
			if v.Data.Slides[0].Viewer.IIIFURL != "" || v.Data.Slides[0].Viewer.LabelURL != "" {
				t.Errorf("a de-identified share lists IIIF or label URLs: %+v", v.Data.Slides[0].Viewer)
			}
			if len(v.Data.Attachments) != 1 {
				t.Fatalf("attachments: %+v", v.Data.Attachments)
			}
			a := e.expect(e.do("GET", v.Data.Attachments[0].URL, "", nil), 200)
			// Sent stamped (TestSharePDFAttachments reads the stamp) and
			// under a name without the patient's.
			if bytes.Equal(a.Body, letterPDF(t)) || !bytes.HasPrefix(a.Body, []byte("%PDF-")) || strings.Contains(a.Header.Get("Content-Disposition"), "%E7%8E%8B") {
				t.Errorf("attachment: %s %.40q", a.Header.Get("Content-Disposition"), a.Body)
			}
			pdf := e.expect(e.do("GET", v.Data.ReportURL, "", nil), 200)
			if text, ok := pdfText(t, pdf.Body); ok {
				if strings.Contains(text, "王芳") || strings.Contains(text, "13800138000") || !strings.Contains(text, v.Data.Number) {
					t.Errorf("de-identified report text: %s", text)
				}
			}
		})

		t.Run("Watermarked", func(t *testing.T) {
			// The share's tile and thumbnail are the owner's with the watermark drawn in.
			own := e.tileURL(expert, slide)
			shared := strings.TrimSuffix(v.Data.Slides[0].Viewer.DZIURL, ".dzi") + own[strings.Index(own, "_files/"):]
			for _, pair := range [][2]string{{own, shared}, {
				strings.TrimSuffix(own[:strings.Index(own, "_files/")], "/slide") + "/thumbnail.jpg",
				strings.TrimSuffix(v.Data.Slides[0].Viewer.DZIURL, "/slide.dzi") + "/thumbnail.jpg"}} {
				a, b := e.expect(e.do("GET", pair[0], expert, nil), 200), e.expect(e.do("GET", pair[1], "", nil), 200)
				if a.Header.Get("ETag") == b.Header.Get("ETag") {
					t.Errorf("%s: same ETag as the owner's", pair[1])
				}
				if d := meanDiff(t, a.Body, b.Body); d < 0.5 {
					t.Errorf("%s: no watermark drawn in (mean difference %.2f)", pair[1], d)
				}
			}
		})

		t.Run("Annotations", func(t *testing.T) {
			u := v.Data.Slides[0].AnnotationsURL
			var sets struct {
				Data []struct {
					Name   string `json:"name"`
					Labels []struct {
						Tool string `json:"tool"`
					} `json:"labels"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", u, "", nil), 200), &sets)
			if len(sets.Data) != 1 || len(sets.Data[0].Labels) != 1 || sets.Data[0].Labels[0].Tool != "rect" {
				t.Fatalf("shared annotations: %+v", sets.Data)
			}
			e.expect(e.do("GET", strings.Replace(u, "/slides/"+itoa(slide)+"/", "/slides/"+itoa(slide+1000)+"/", 1), "", nil), 404)
			e.expect(e.do("PUT", u, "", map[string]any{"labels": []any{}}), 404) // read-only: no such call
		})

		t.Run("Identified", func(t *testing.T) {
			o := map[string]any{"consult_id": cid, "expiry_days": 0, "with_report": true}
			p := e.share(expert, o)
			if p.Data.Code != "" || p.Data.Phase != "permanent" {
				t.Fatalf("public permanent share: %+v", p.Data)
			}
			var pv viewOut
			e.decode(e.expect(e.openShare(p.Data.Token, "", "10.0.0.9"), 200), &pv)
			pdf := e.expect(e.do("GET", pv.Data.ReportURL, "", nil), 200)
			if text, ok := pdfText(t, pdf.Body); ok && !strings.Contains(text, "王芳") {
				t.Errorf("identified report lacks the name: %s", text)
			}
			if len(pv.Data.Attachments) != 0 {
				t.Errorf("attachments not shared, yet listed: %+v", pv.Data.Attachments)
			}
			if u := pv.Data.Slides[0].AnnotationsURL; u != "" {
				t.Errorf("annotations not shared, yet listed: %s", u)
			}
			u := "/api/share/v/" + pv.Data.Ticket + "/slides/" + itoa(slide) + "/annotations"
			e.expect(e.do("GET", u, "", nil), 404)
		})

		t.Run("List", func(t *testing.T) {
			l := e.list("/api/share/list", expert, nil)
			if l.Meta.Pagination.Total != 2 {
				t.Fatalf("expert's shares: %d", l.Meta.Pagination.Total)
			}
			if l := e.list("/api/share/list", expert2, nil); l.Meta.Pagination.Total != 0 {
				t.Fatalf("expert2 sees %d shares of others", l.Meta.Pagination.Total)
			}
			var c struct{ Data map[string]int64 }
			e.decode(e.expect(e.do("GET", "/api/share/count", expert, nil), 200), &c)
			if c.Data["sharing"] != 1 || c.Data["permanent"] != 1 || c.Data["cancelled"] != 0 {
				t.Fatalf("counts: %v", c.Data)
			}
			var visits int
			e.app.DB.Get(&visits, e.app.DB.Rebind("SELECT visits FROM shares WHERE id = ?"), s.Data.ID)
			if visits != 4 { // opened, the attachment, the report, the annotations
				t.Fatalf("visits: %d", visits)
			}
		})

		t.Run("Cancel", func(t *testing.T) {
			tile := strings.TrimSuffix(v.Data.Slides[0].Viewer.DZIURL, ".dzi") + "_files/0/0_0.jpeg"
			e.expect(e.do("GET", tile, "", nil), 200)
			sid := itoa(s.Data.ID)
			e.expect(e.do("PATCH", "/api/share/cancel/"+sid, expert2, nil), 404)
			e.expect(e.do("PATCH", "/api/share/cancel/"+sid, expert, nil), 200)
			e.expect(e.do("GET", tile, "", nil), 403)
			e.expect(e.do("GET", v.Data.ReportURL, "", nil), 404)
			e.expect(e.do("GET", v.Data.Slides[0].AnnotationsURL, "", nil), 404)
			gone := e.expect(e.openShare(s.Data.Token, s.Data.Code, "10.0.0.1"), 404)
			unknown := e.expect(e.openShare("no-such-token-at-all", "", "10.0.0.1"), 404)
			if message(gone) != message(unknown) {
				t.Fatalf("cancelled %q, unknown %q", message(gone), message(unknown))
			}
			e.expect(e.do("PATCH", "/api/share/cancel/"+sid, admin, nil), 409)
		})

		t.Run("Expired", func(t *testing.T) {
			x := e.share(expert, map[string]any{"consult_id": cid, "expiry_days": 1, "with_annotations": true})
			var xv viewOut
			e.decode(e.expect(e.openShare(x.Data.Token, "", "10.0.0.2"), 200), &xv)
			// The share ends in 1.5 s: its tiles stop then, though the slide
			// server would otherwise trust its check for GrantCheckTTL (2 s).
			end := time.Now().Add(1500 * time.Millisecond)
			if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE shares SET expires_at = ? WHERE id = ?"), end.UTC(), x.Data.ID); err != nil {
				t.Fatal(err)
			}
			tile := strings.TrimSuffix(xv.Data.Slides[0].Viewer.DZIURL, ".dzi") + "_files/0/0_0.jpeg"
			e.expect(e.do("GET", tile, "", nil), 200)
			time.Sleep(time.Until(end) + 200*time.Millisecond)
			e.expect(e.do("GET", tile, "", nil), 403)
			e.expect(e.do("GET", xv.Data.Slides[0].AnnotationsURL, "", nil), 404)
			e.expect(e.openShare(x.Data.Token, "", "10.0.0.2"), 404)
			l := e.list("/api/share/list", expert, url.Values{"params": {`{"tab":"expired"}`}})
			if len(l.Data) != 1 || l.Data[0]["phase"] != "expired" {
				t.Fatalf("expired tab: %+v", l.Data)
			}
		})
	})
}

// meanDiff is the mean absolute difference of two JPEGs' pixels (0–255).
func meanDiff(t *testing.T, a, b []byte) float64 {
	t.Helper()
	ia, err1 := jpeg.Decode(bytes.NewReader(a))
	ib, err2 := jpeg.Decode(bytes.NewReader(b))
	if err1 != nil || err2 != nil || ia.Bounds() != ib.Bounds() {
		t.Fatalf("images: %v %v %v %v", err1, err2, ia, ib)
	}
	var sum, n float64
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := ia.At(x, y).RGBA()
			r2, g2, b2, _ := ib.At(x, y).RGBA()
			sum += math.Abs(float64(r1)-float64(r2)) + math.Abs(float64(g1)-float64(g2)) + math.Abs(float64(b1)-float64(b2))
			n += 3
		}
	}
	return sum / n / 257
}

// Wrong codes are throttled per address and per share; the owner is never
// held back.
func TestShareThrottle(t *testing.T) {
	eachDB(t, trustProxy, func(t *testing.T, e *env) {
		f := e.fixture()
		cid, _ := strconv.ParseInt(e.submittedCase(f, "BL2026-09501", f.expert), 10, 64)
		expert := e.login("expert")
		s := e.share(expert, map[string]any{"consult_id": cid, "secret": true, "expiry_days": 30})
		for i := range 5 {
			e.expect(e.openShare(s.Data.Token, "WRONG"+itoa(int64(i)), "10.1.0.1"), 403)
		}
		r := e.expect(e.openShare(s.Data.Token, s.Data.Code, "10.1.0.1"), 429)
		if !strings.Contains(message(r), "Too many wrong codes") {
			t.Fatalf("throttled: %s", r)
		}
		// Another address still gets in, and its right code clears nothing of the first's.
		e.expect(e.openShare(s.Data.Token, s.Data.Code, "10.1.0.2"), 200)
		e.expect(e.openShare(s.Data.Token, s.Data.Code, "10.1.0.1"), 429)
		// Twenty wrong codes from all addresses slow the share itself.
		for i := range 15 {
			e.expect(e.openShare(s.Data.Token, "WRONG0", "10.2.0."+itoa(int64(i+1))), 403)
		}
		e.expect(e.openShare(s.Data.Token, s.Data.Code, "10.3.0.1"), 429)
		// The owner lists and cancels as always.
		if l := e.list("/api/share/list", expert, nil); l.Meta.Pagination.Total != 1 {
			t.Fatalf("owner's list: %d", l.Meta.Pagination.Total)
		}
		e.expect(e.do("PATCH", "/api/share/cancel/"+itoa(s.Data.ID), expert, nil), 200)
	})
}
