package app_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"strings"
	"testing"
)

// uploadSignature posts an image as the signed-in expert's signature.
func (e *env) uploadSignature(token string, img []byte) resp {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", "signature.png")
	fw.Write(img)
	w.Close()
	return e.do("POST", "/api/user/signature", token, buf.Bytes(), "Content-Type", w.FormDataContentType())
}

func signaturePNG(t *testing.T, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := 5; x < w-5; x++ {
		img.Set(x, h/2+(x%9)-4, color.NRGBA{0x10, 0x20, 0x60, 0xff})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestExpertSignature(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00701", f.expert)
		expert, site := e.login("expert"), e.login("site")
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
		preview := func() []byte { return e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, site, nil), 200).Body }
		if bytes.Contains(preview(), []byte("/Subtype /Image")) {
			t.Fatal("an image in a report without signature or captures")
		}

		e.expect(e.do("GET", "/api/user/signature", expert, nil), 404)
		sig := signaturePNG(t, 300, 100)
		e.expect(e.uploadSignature(expert, sig), 200)
		got := e.expect(e.do("GET", "/api/user/signature", expert, nil), 200)
		if !bytes.Equal(got.Body, sig) || got.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("signature read back: %s, %d bytes", got.Header.Get("Content-Type"), len(got.Body))
		}
		if !bytes.Contains(preview(), []byte("/Subtype /Image")) {
			t.Error("the report does not print the expert's signature")
		}

		t.Run("ErrBadImage", func(t *testing.T) {
			audits := e.count("audit_logs", "action LIKE 'user.signature.%'")
			for _, tc := range []struct {
				name   string
				img    []byte
				zh, en string
			}{
				{"NotAnImage", []byte("%PDF-1.4 not an image"), "PNG 或 JPEG", "PNG or JPEG"},
				{"Truncated", sig[:len(sig)/2], "PNG 或 JPEG", "PNG or JPEG"},
				{"TooSmall", signaturePNG(t, 10, 10), "像素", "pixels"},
				{"Empty", []byte{}, "不能为空", "required"},
			} {
				for _, lang := range []string{"zh-CN", "en-US"} {
					var buf bytes.Buffer
					w := multipart.NewWriter(&buf)
					fw, _ := w.CreateFormFile("file", "s.png")
					fw.Write(tc.img)
					w.Close()
					r := e.expect(e.do("POST", "/api/user/signature", expert, buf.Bytes(), "Content-Type", w.FormDataContentType(), "user-language", lang), 422)
					want := tc.zh
					if lang == "en-US" {
						want = tc.en
					}
					if !strings.Contains(r.String(), want) {
						t.Errorf("%s %s: %s", tc.name, lang, r)
					}
				}
			}
			if e.count("audit_logs", "action LIKE 'user.signature.%'") != audits {
				t.Error("a refused upload was recorded")
			}
			if got := e.expect(e.do("GET", "/api/user/signature", expert, nil), 200); !bytes.Equal(got.Body, sig) {
				t.Error("a refused upload replaced the signature")
			}
		})

		t.Run("OnlyExperts", func(t *testing.T) {
			for _, name := range []string{"site", "admin", "allocator", "publisher"} {
				tok := e.login(name)
				e.expect(e.do("GET", "/api/user/signature", tok, nil), 403)
				e.expect(e.uploadSignature(tok, sig), 403)
				e.expect(e.do("DELETE", "/api/user/signature", tok, nil), 403)
			}
		})

		e.expect(e.do("DELETE", "/api/user/signature", expert, nil), 200)
		e.expect(e.do("GET", "/api/user/signature", expert, nil), 404)
		if bytes.Contains(preview(), []byte("/Subtype /Image")) {
			t.Error("a removed signature still prints")
		}
	})
}
