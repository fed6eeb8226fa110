package app_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

type caseOut struct {
	Data struct {
		ID          int64    `json:"id"`
		ConsultNo   string   `json:"consult_no"`
		SlideCount  int      `json:"slide_count"`
		Actions     []string `json:"actions"`
		StatusLabel struct {
			Key   string `json:"key"`
			Label string `json:"label"`
			Color string `json:"color"`
		} `json:"status_label"`
	} `json:"data"`
}

// caseFixture is what a registration needs: ids the demo data gives.
type caseFixture struct {
	library, center, hospital, item, expert, expert2 int64
}

func (e *env) fixture() caseFixture {
	var f caseFixture
	get := func(dst *int64, q string) {
		if err := e.app.DB.Get(dst, q); err != nil {
			e.t.Fatalf("%s: %v", q, err)
		}
	}
	get(&f.library, "SELECT id FROM libraries WHERE prefix = 'BL' AND parent_id IS NULL")
	get(&f.center, "SELECT id FROM centers WHERE code = 'EC'")
	get(&f.hospital, "SELECT id FROM hospitals WHERE code = 'H001'")
	get(&f.item, "SELECT MIN(id) FROM charge_items")
	get(&f.expert, "SELECT id FROM users WHERE username = 'expert'")
	get(&f.expert2, "SELECT id FROM users WHERE username = 'expert2'")
	return f
}

// slide adds an uploaded slide of the hospital, as the upload flow leaves it.
func (e *env) slide(hospital int64, owner string) int64 {
	var id int64
	now := time.Now().UTC()
	err := e.app.DB.Get(&id, e.app.DB.Rebind(`INSERT INTO slides (owner_id, hospital_id, filename, filesize, status, format, viewable, created_at, updated_at)
		SELECT id, ?, 'HE-1.svs', 1024, 1, 'svs', 1, ?, ? FROM users WHERE username = ? RETURNING id`), hospital, now, now, owner)
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) upload(token, name string, body []byte) resp {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", name)
	fw.Write(body)
	w.Close()
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/common/upload", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return resp{Status: res.StatusCode, Body: b.Bytes()}
}

func registration(f caseFixture, number string, slides ...int64) map[string]any {
	return map[string]any{
		"pathology_number": number, "original_pathology_number": "Y2026-0451", "library_id": f.library,
		"name": "王芳", "age": "45", "gender": "female", "phone": "13800138000", "id_number": "11010519491231002X",
		"inspection_hospital": "明州市第一人民医院", "inspection_date": "2026-11-01", "center_id": f.center,
		"clinical_diagnosis": "胃窦溃疡，待排恶性",
		"specimens": []any{
			map[string]any{"name": "胃窦", "blocks": []any{map[string]any{"name": "A1"}, map[string]any{"name": "A2"}}},
			map[string]any{"name": "胃角", "blocks": []any{map[string]any{"name": "B1"}}},
		},
		"slide_ids": slides,
	}
}

func TestConsultationWorkflow(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		site, site2, alloc, admin, expert := e.login("site"), e.login("site2"), e.login("allocator"), e.login("admin"), e.login("expert")
		var c caseOut
		reg := registration(f, "BL2026-00001", e.slide(f.hospital, "site"))
		up := e.expect(e.upload(site, "申请单.pdf", []byte("%PDF-1.4 application form")), 200)
		var file struct {
			Data struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(up, &file)
		reg["attachments"] = []any{map[string]any{"file_id": file.Data.ID, "type": 2}}

		t.Run("Register", func(t *testing.T) {
			e.decode(e.expect(e.do("POST", "/api/consultation", site, reg), 200), &c)
			if !strings.HasPrefix(c.Data.ConsultNo, "TP") || c.Data.SlideCount != 1 || c.Data.StatusLabel.Key != "to_be_submitted" {
				t.Fatalf("registered: %+v", c.Data)
			}
		})
		id := itoa(c.Data.ID)
		t.Run("OtherHospitalSeesNothing", func(t *testing.T) {
			e.expect(e.do("GET", "/api/consultation/resources/"+id, site2, nil), 404)
			e.expect(e.do("POST", "/api/consultation/"+id, site2, reg), 404)
			e.expect(e.do("POST", "/api/consultation/submit/"+id, site2, nil), 404)
			e.expect(e.do("GET", "/api/files/"+itoa(file.Data.ID), site2, nil), 404)
			var counts struct {
				Data map[string]int `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/count", site2, nil), 200), &counts)
			if counts.Data["all"] != 0 {
				t.Fatalf("site2 counts %v", counts.Data)
			}
		})
		t.Run("ErrSubmitWithoutCharge", func(t *testing.T) {
			r := e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 422)
			if !strings.Contains(message(r), "收费") {
				t.Fatalf("%s", r)
			}
		})
		t.Run("ChargeAndSubmit", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
			e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, site, nil), 200), &c)
			if c.Data.StatusLabel.Key != "to_allot" || c.Data.StatusLabel.Color != "purple" {
				t.Fatalf("after submit: %+v", c.Data.StatusLabel)
			}
		})
		t.Run("ErrWrongState", func(t *testing.T) {
			r := e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 409)
			if !strings.Contains(message(r), "待分配") {
				t.Fatalf("%s", r)
			}
		})
		t.Run("AllocatorAssigns", func(t *testing.T) {
			l := e.list("/api/consultation/list", alloc, url.Values{"params": {`{"tab":"to_allot"}`}})
			if l.Meta.Pagination.Total != 1 {
				t.Fatalf("to allot: %d", l.Meta.Pagination.Total)
			}
			e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 404)
			e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}), 200)
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, expert, nil), 200), &c)
			if c.Data.StatusLabel.Key != "pending_diagnosis" {
				t.Fatalf("after assignment: %+v", c.Data.StatusLabel)
			}
			r := e.expect(e.do("POST", "/api/distribute/"+id+"/referral", alloc, map[string]any{"expert_id": f.expert}), 422)
			if !strings.Contains(r.String(), "expert_id") {
				t.Fatalf("referral to the same expert: %s", r)
			}
			e.expect(e.do("POST", "/api/distribute/"+id+"/referral", alloc, map[string]any{"expert_id": f.expert2}), 200)
		})
		t.Run("RecallAndAgree", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/recall/"+id, site, map[string]any{"reason": " "}), 422)
			e.expect(e.do("POST", "/api/consultation/recall/"+id, site, map[string]any{"reason": "临床资料有误"}), 200)
			var why struct {
				Data string `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/admin/consultation/"+id+"/recall/reason", admin, nil), 200), &why)
			if why.Data != "临床资料有误" {
				t.Fatalf("reason %q", why.Data)
			}
			e.expect(e.do("POST", "/api/admin/consultation/"+id+"/recall/agree", site, nil), 403)
			e.expect(e.do("POST", "/api/admin/consultation/"+id+"/recall/agree", admin, nil), 200)
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, site, nil), 200), &c)
			if c.Data.StatusLabel.Key != "recalled" {
				t.Fatalf("after agree: %+v", c.Data.StatusLabel)
			}
			e.expect(e.do("POST", "/api/consultation/consult_again/"+id, site, nil), 200)
		})
		t.Run("ReturnToSite", func(t *testing.T) {
			e.expect(e.do("POST", "/api/distribute/"+id+"/return", alloc, map[string]any{"reason": ""}), 422)
			e.expect(e.do("POST", "/api/distribute/"+id+"/return", alloc, map[string]any{"reason": "切片不清晰，请重新扫描"}), 200)
			l := e.list("/api/consultation/list", site, url.Values{"params": {`{"tab":"returned_site"}`}})
			if l.Meta.Pagination.Total != 1 || l.Data[0]["return_reason"] != "切片不清晰，请重新扫描" {
				t.Fatalf("returned list: %+v", l)
			}
		})
		t.Run("CaseLog", func(t *testing.T) {
			var log struct {
				Data []struct {
					Action     string `json:"action"`
					ActionText string `json:"action_text"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id+"/log", site, nil, "user-language", "en-US"), 200), &log)
			var actions []string
			for _, l := range log.Data {
				actions = append(actions, l.Action)
			}
			want := "create,charge,submit,bind_expert,referral,recall,recall_agree,consult_again,return_to_site"
			if strings.Join(actions, ",") != want || log.Data[0].ActionText != "Registered" {
				t.Fatalf("log %v", actions)
			}
		})
		t.Run("Messages", func(t *testing.T) {
			e.expect(e.do("POST", "/api/consultation/resources/"+id+"/message", site, map[string]any{"content": strings.Repeat("字", 151)}), 422)
			var m struct {
				Data struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("POST", "/api/consultation/resources/"+id+"/message", site, map[string]any{"content": strings.Repeat("字", 150)}), 200), &m)
			e.expect(e.do("DELETE", "/api/consultation/resources/0/message/"+itoa(m.Data.ID), alloc, nil), 403)
			e.expect(e.do("DELETE", "/api/consultation/resources/0/message/"+itoa(m.Data.ID), site, nil), 200)
		})
		t.Run("ChargeExport", func(t *testing.T) {
			r := e.expect(e.do("POST", "/api/charge/export", site, map[string]any{}), 200)
			if !bytes.HasPrefix(r.Body, []byte("PK")) {
				t.Fatal("not an xlsx file")
			}
			rows := xlsxRows(t, r.Body)
			if len(rows) != 2 || !strings.Contains(strings.Join(rows[1], " "), "BL2026-00001") {
				t.Fatalf("site's export: %v", rows)
			}
			// Another hospital's export has the header row only.
			if rows := xlsxRows(t, e.expect(e.do("POST", "/api/charge/export", site2, map[string]any{}), 200).Body); len(rows) != 1 {
				t.Fatalf("site2's export: %v", rows)
			}
		})
	})
}

func TestRegistrationBadInput(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		site := e.login("site")
		e.expect(e.do("POST", "/api/consultation/draft", site, map[string]any{"library_id": f.library, "pathology_number": "BL2026-00009"}), 200)
		before := e.count("consultations", "")
		for name, change := range map[string]func(map[string]any){
			"IDCheckDigit": func(r map[string]any) { r["id_number"] = "110105194912310021" },
			"LibraryRule":  func(r map[string]any) { r["pathology_number"] = "XX-1" },
			"NoSpecimen":   func(r map[string]any) { r["specimens"] = []any{} },
			"OtherCenter":  func(r map[string]any) { r["center_id"] = 999 },
			"OtherSlide":   func(r map[string]any) { r["slide_ids"] = []int64{e.slide(f.hospital+1, "site2")} },
			"TwoFullBodies": func(r map[string]any) {
				r["attachments"] = []any{map[string]any{"file_id": 1, "type": 5}, map[string]any{"file_id": 2, "type": 5}}
			},
		} {
			t.Run(name, func(t *testing.T) {
				reg := registration(f, "BL2026-00002")
				change(reg)
				r := e.do("POST", "/api/consultation", site, reg, "user-language", "en-US")
				if r.Status != 422 || message(r) == "" {
					t.Fatalf("%d %s", r.Status, r)
				}
			})
		}
		// A 201 MB attachment: TestCaseBadInputWritesNothing streams one.
		if e.count("consultations", "") != before {
			t.Fatal("bad input wrote a case")
		}
		_ = json.Marshal
	})
}

// xlsxRows opens an xlsx file as a spreadsheet program would (a zip with the
// workbook parts) and returns the first sheet's rows.
func xlsxRows(t *testing.T, b []byte) [][]string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	parts := map[string]bool{}
	for _, f := range z.File {
		parts[f.Name] = true
	}
	for _, p := range []string{"[Content_Types].xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml"} {
		if !parts[p] {
			t.Fatalf("xlsx without %s: %v", p, parts)
		}
	}
	x, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := x.GetRows(x.GetSheetList()[0])
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
