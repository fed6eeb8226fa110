package app_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"telepath/internal/report"
)

type templateOut struct {
	Data report.ReportTemplate `json:"data"`
}

type templateList struct {
	Data []report.ReportTemplate `json:"data"`
}

// inUseTemplate returns the report template in use for kind, as the admin
// reads it.
func (e *env) inUseTemplate(admin, kind string) report.ReportTemplate {
	e.t.Helper()
	var l templateList
	e.decode(e.expect(e.do("GET", `/api/setting/report/list?params={"kind":"`+kind+`","active":1}`, admin, nil), 200), &l)
	if len(l.Data) != 1 {
		e.t.Fatalf("%d %s templates in use", len(l.Data), kind)
	}
	return l.Data[0]
}

func clone(l report.Layout) report.Layout {
	var c report.Layout
	b, _ := json.Marshal(l)
	_ = json.Unmarshal(b, &c)
	return c
}

func sectionAt(l report.Layout, key string) int {
	for i, s := range l.Sections {
		if s.Key == key {
			return i
		}
	}
	return -1
}

func TestReportTemplates(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")

		t.Run("SeededDefaultsEqualTheBuiltInLayout", func(t *testing.T) {
			var l templateList
			e.decode(e.expect(e.do("GET", "/api/setting/report/list", admin, nil), 200), &l)
			if len(l.Data) != 3 {
				t.Fatalf("%d seeded templates, want 3", len(l.Data))
			}
			for _, tp := range l.Data {
				if !tp.Active {
					t.Errorf("seeded %s template not in use", tp.Kind)
				}
				if !reflect.DeepEqual(tp.Layout, report.DefaultLayout(tp.Kind)) {
					t.Errorf("seeded %s layout differs from report.DefaultLayout:\n%+v\n%+v", tp.Kind, tp.Layout, report.DefaultLayout(tp.Kind))
				}
			}
			var c struct {
				Data map[string]int64 `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/setting/report/count", admin, nil), 200), &c)
			if c.Data["all"] != 3 || c.Data["routine"] != 1 || c.Data["frozen"] != 1 || c.Data["cell"] != 1 {
				t.Errorf("counts %v", c.Data)
			}
			var d struct {
				Data report.Layout `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/setting/report/default/frozen", admin, nil), 200), &d)
			if !reflect.DeepEqual(d.Data, report.DefaultLayout(report.KindFrozen)) {
				t.Error("default/frozen is not the built-in frozen layout")
			}
			e.expect(e.do("GET", "/api/setting/report/default/autopsy", admin, nil), 404)
		})

		t.Run("CreateUpdateAndUse", func(t *testing.T) {
			seeded := e.inUseTemplate(admin, "cell")
			l := clone(seeded.Layout)
			l.TitleZH = "宫颈细胞学报告"
			var created templateOut
			e.decode(e.expect(e.do("POST", "/api/setting/report/add", admin, map[string]any{"kind": "cell", "name": " TCT 模板 ", "layout": l}), 200), &created)
			if created.Data.Name != "TCT 模板" || created.Data.Active || created.Data.Layout.TitleZH != "宫颈细胞学报告" {
				t.Fatalf("created %+v", created.Data)
			}
			if e.inUseTemplate(admin, "cell").ID != seeded.ID {
				t.Fatal("a template created out of use took the kind over")
			}
			id := itoa(created.Data.ID)
			e.expect(e.do("POST", "/api/setting/report/"+id, admin, map[string]any{"name": "TCT", "active": true, "layout": l}), 200)
			if got := e.inUseTemplate(admin, "cell"); got.ID != created.Data.ID || got.Name != "TCT" {
				t.Fatalf("in use: %+v", got)
			}
			var old templateOut
			e.decode(e.expect(e.do("GET", "/api/setting/report/"+itoa(seeded.ID), admin, nil), 200), &old)
			if old.Data.Active {
				t.Error("the former template is still in use")
			}
			r := e.expect(e.do("POST", "/api/setting/report/"+id, admin, map[string]any{"kind": "frozen", "name": "TCT", "layout": l}), 422)
			if !strings.Contains(r.String(), "报告类型") {
				t.Errorf("kind change: %s", r)
			}
			if e.count("audit_logs", "action = 'report_template.update'") != 1 || e.count("audit_logs", "action = 'report_template.create'") != 1 {
				t.Error("writes are not audited")
			}
		})

		t.Run("InvalidLayoutsWriteNothing", func(t *testing.T) {
			base := e.inUseTemplate(admin, "routine")
			type mutation func(l *report.Layout)
			cases := []struct {
				name  string
				kind  string
				tname string
				mut   mutation
				field string
				zh    string
				en    string
			}{
				{"ErrDiagnosisHidden", "routine", "x", func(l *report.Layout) { l.Sections[sectionAt(*l, "diagnosis")].Show = false },
					"layout.sections[6].show", "诊断", "diagnosis section"},
				{"ErrDiagnosisMissing", "routine", "x", func(l *report.Layout) {
					i := sectionAt(*l, "diagnosis")
					l.Sections = append(l.Sections[:i], l.Sections[i+1:]...)
				}, "layout.sections", "诊断", "diagnosis section"},
				{"ErrSignaturesHidden", "routine", "x", func(l *report.Layout) { l.Sections[sectionAt(*l, "signatures")].Show = false },
					"layout.sections[10].show", "签名", "signature section"},
				{"ErrVerifyHidden", "routine", "x", func(l *report.Layout) { l.Header.Verify = false },
					"layout.header.verify", "验证码", "verification code"},
				{"ErrUnknownSection", "routine", "x", func(l *report.Layout) { l.Sections[0].Key = "autopsy" },
					"layout.sections[0].key", "autopsy", "autopsy"},
				{"ErrDuplicateSection", "routine", "x", func(l *report.Layout) { l.Sections[2] = l.Sections[3] },
					"layout.sections[3].key", "重复", "twice"},
				{"ErrEmptyHeading", "routine", "x", func(l *report.Layout) { l.Sections[sectionAt(*l, "gross")].HeadingEN = "  " },
					"layout.sections[3].heading_en", "标题不能为空", "heading is required"},
				{"ErrUnknownField", "routine", "x", func(l *report.Layout) { l.Sections[0].Fields[1] = "blood_type" },
					"layout.sections[0].fields[1]", "blood_type", "blood_type"},
				{"ErrDuplicateField", "routine", "x", func(l *report.Layout) { l.Sections[0].Fields[1] = "name" },
					"layout.sections[0].fields[1]", "重复", "twice"},
				{"ErrTitleEmpty", "routine", "x", func(l *report.Layout) { l.TitleEN = "" },
					"layout.title_en", "名称不能为空", "title is required"},
				{"ErrNameRequired", "routine", " ", func(l *report.Layout) {}, "name", "", ""},
				{"ErrKindUnknown", "autopsy", "x", func(l *report.Layout) {}, "kind", "autopsy", "autopsy"},
			}
			before := e.count("report_templates", "1=1")
			audits := e.count("audit_logs", "action LIKE 'report_template.%'")
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					l := clone(base.Layout)
					tc.mut(&l)
					body := map[string]any{"kind": tc.kind, "name": tc.tname, "active": true, "layout": l}
					for _, lang := range []string{"zh-CN", "en-US"} {
						for _, call := range [][2]string{{"POST", "/api/setting/report/add"}, {"POST", "/api/setting/report/" + itoa(base.ID)}} {
							if tc.kind != "routine" && call[1] != "/api/setting/report/add" {
								continue
							}
							r := e.expect(e.do(call[0], call[1], admin, body, "user-language", lang), 422)
							var out struct {
								Message string              `json:"message"`
								Errors  map[string][]string `json:"errors"`
							}
							e.decode(r, &out)
							msgs := out.Errors[tc.field]
							if len(msgs) == 0 {
								t.Fatalf("%s %s: no error on %s: %s", lang, call[1], tc.field, r)
							}
							want := tc.zh
							if lang == "en-US" {
								want = tc.en
							}
							if !strings.Contains(strings.Join(msgs, " "), want) {
								t.Errorf("%s: %s says %q, want %q", lang, tc.field, msgs, want)
							}
						}
					}
				})
			}
			if n := e.count("report_templates", "1=1"); n != before {
				t.Errorf("%d templates after refused writes, want %d", n, before)
			}
			if n := e.count("audit_logs", "action LIKE 'report_template.%'"); n != audits {
				t.Error("a refused write left an audit record")
			}
			if got := e.inUseTemplate(admin, "routine"); !reflect.DeepEqual(got.Layout, base.Layout) || got.Name != base.Name {
				t.Error("a refused update changed the template")
			}
		})

		t.Run("OnlyAdministrators", func(t *testing.T) {
			l := report.DefaultLayout("routine")
			for _, name := range []string{"center_admin", "expert", "site", "publisher", "allocator"} {
				tok := e.login(name)
				e.expect(e.do("GET", "/api/setting/report/list", tok, nil), 403)
				e.expect(e.do("GET", "/api/setting/report/1", tok, nil), 403)
				e.expect(e.do("POST", "/api/setting/report/add", tok, map[string]any{"kind": "routine", "name": "x", "layout": l}), 403)
				e.expect(e.do("POST", "/api/setting/report/1", tok, map[string]any{"name": "x", "layout": l}), 403)
			}
			e.expect(e.do("GET", "/api/setting/report/999999", admin, nil), 404)
		})
	})
}

// The preview prints with the template in use for the case's report kind:
// a renamed heading shows, a hidden section does not, the order is the
// template's.
func TestReportFollowsTemplate(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00601", f.expert)
		expert, site, admin := e.login("expert"), e.login("site"), e.login("admin")
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{
			"microscopic": "镜下见腺体增生排列紊乱。", "opinion": "（胃窦）慢性萎缩性胃炎伴肠化。", "remark": "建议三个月后复查胃镜。"}), 200)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)

		before := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, site, nil), 200)
		tp := e.inUseTemplate(admin, "routine")
		l := clone(tp.Layout)
		micro, diag := sectionAt(l, "microscopic"), sectionAt(l, "diagnosis")
		l.Sections[micro].HeadingZH, l.Sections[micro].HeadingEN = "显微镜下观察", "Under the microscope"
		l.Sections[sectionAt(l, "remark")].Show = false
		l.Sections[micro], l.Sections[diag] = l.Sections[diag], l.Sections[micro] // diagnosis first
		e.expect(e.do("POST", "/api/setting/report/"+itoa(tp.ID), admin, map[string]any{"name": tp.Name, "active": true, "layout": l}), 200)
		// Another kind's template does not touch a routine report.
		frozen := e.inUseTemplate(admin, "frozen")
		fl := clone(frozen.Layout)
		fl.TitleZH = "冰冻专用标题"
		e.expect(e.do("POST", "/api/setting/report/"+itoa(frozen.ID), admin, map[string]any{"name": frozen.Name, "active": true, "layout": fl}), 200)

		// Without pdftotext, the layout the preview uses is checked directly.
		got := report.Layout{}
		if err := e.app.DB.Get(&got, e.app.DB.Rebind("SELECT layout FROM report_templates WHERE id = ?"), tp.ID); err != nil {
			t.Fatal(err)
		}
		zh := got.Template("routine", "zh-CN")
		keys := []string{}
		for _, s := range zh.Sections {
			keys = append(keys, s.Key+":"+s.Heading)
		}
		flat := strings.Join(keys, ",")
		if !strings.Contains(flat, "diagnosis:病理诊断,immunohistochemistry:免疫组化,microscopic:显微镜下观察") || strings.Contains(flat, "remark") {
			t.Fatalf("stored layout: %s", flat)
		}

		after := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, site, nil), 200)
		en := e.expect(e.do("GET", "/api/diagnosis/report/preview/"+id, site, nil, "user-language", "en-US"), 200)
		old, ok := pdfText(t, before.Body)
		if !ok {
			return
		}
		text, _ := pdfText(t, after.Body)
		if !strings.Contains(old, "镜下所见") || !strings.Contains(old, "建议三个月后复查胃镜") {
			t.Fatalf("the report before the change: %s", old)
		}
		if strings.Contains(text, "镜下所见") || !strings.Contains(text, "显微镜下观察") {
			t.Errorf("renamed heading not printed: %s", text)
		}
		if strings.Contains(text, "冰冻专用标题") || !strings.Contains(text, "远程病理会诊报告") {
			t.Errorf("the routine report took the frozen template's title: %s", text)
		}
		if strings.Contains(text, "建议三个月后复查胃镜") {
			t.Errorf("hidden remark printed: %s", text)
		}
		di, mi := strings.Index(text, "慢性萎缩性胃炎伴肠化"), strings.Index(text, "镜下见腺体增生")
		if di < 0 || mi < 0 || di > mi {
			t.Errorf("diagnosis (at %d) should print before the microscopic findings (at %d): %s", di, mi, text)
		}
		entext, _ := pdfText(t, en.Body)
		if !strings.Contains(entext, "Underthemicroscope") {
			t.Errorf("English heading not printed: %s", entext)
		}
	})
}
