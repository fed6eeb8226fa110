package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"telepath/internal/app"
	"telepath/internal/platform/httpx"
	"telepath/internal/platform/i18n"
	"telepath/internal/slide/slidegen"
)

// auditRow is an operation log record as stored.
type auditRow struct {
	ID         int64   `db:"id"`
	Username   string  `db:"username"`
	Action     string  `db:"action"`
	ObjectType string  `db:"object_type"`
	ObjectID   string  `db:"object_id"`
	CaseID     *int64  `db:"case_id"`
	IP         string  `db:"ip"`
	UserAgent  string  `db:"user_agent"`
	Outcome    string  `db:"outcome"`
	Message    string  `db:"message"`
	Seq        *int64  `db:"seq"`
	Hash       *string `db:"hash"`
}

// flushAudit writes the buffered read records.
func (e *env) flushAudit() {
	e.t.Helper()
	if err := e.app.Audit.Flush(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) lastAuditID() int64 {
	var id int64
	e.app.DB.Get(&id, "SELECT COALESCE(MAX(id), 0) FROM audit_logs")
	return id
}

// auditSince returns the records after id.
func (e *env) auditSince(id int64) []auditRow {
	e.t.Helper()
	var rows []auditRow
	if err := e.app.DB.Select(&rows, e.app.DB.Rebind("SELECT id, username, action, object_type, object_id, case_id, ip, user_agent, outcome, message, seq, hash FROM audit_logs WHERE id > ? ORDER BY id"), id); err != nil {
		e.t.Fatal(err)
	}
	return rows
}

// auditedCase is a published case of site with a real slide, an
// attachment, a screenshot and a message, for reading.
type auditedCase struct {
	id, slide, file, shot int64
	consultNo             string
}

func (e *env) auditedCase(f caseFixture, patient string) auditedCase {
	e.t.Helper()
	site, alloc, expert := e.login("site"), e.login("allocator"), e.login("expert")
	var c auditedCase
	c.slide = e.uploadAll(site, "HE-9.tif", genSlide(e.t.(*testing.T), slidegen.Options{Width: 600, Height: 400, Seed: 5}))
	if sl := e.waitSlide(site, c.slide); sl.Viewable != 1 {
		e.t.Fatalf("slide: %+v", sl)
	}
	var file struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	e.decode(e.expect(e.upload(site, "申请单.pdf", []byte("%PDF-1.4 form")), 200), &file)
	c.file = file.Data.ID
	reg := registration(f, "BL2026-07001", c.slide)
	reg["name"] = patient
	reg["attachments"] = []any{map[string]any{"file_id": c.file, "type": 2}}
	var out caseOut
	e.decode(e.expect(e.do("POST", "/api/consultation", site, reg), 200), &out)
	c.id, c.consultNo = out.Data.ID, out.Data.ConsultNo
	id := itoa(c.id)
	e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
	e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
	e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}), 200)
	d := "/api/diagnosis/" + id
	e.expect(e.do("POST", d+"/lock", expert, nil), 200)
	var shot struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	e.decode(e.expect(e.saveShot(id, expert, testImage(e.t.(*testing.T), 64, 48)), 200), &shot)
	c.shot = shot.Data.ID
	e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
	e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
	e.expect(e.do("POST", "/api/consultation/resources/"+id+"/message", site, map[string]any{"content": "报告已收到"}), 200)
	if c.consultNo == "" {
		e.app.DB.Get(&c.consultNo, e.app.DB.Rebind("SELECT consult_no FROM consultations WHERE id = ?"), c.id)
	}
	return c
}

// TestEveryReadOfPatientDataIsAudited: each read of a patient's data writes
// exactly one record naming the reader, the object, the case, the outcome
// and where the request came from; lists and exports record their filter;
// refusals and misses are recorded as such. The annotation save (a write)
// is recorded too.
func TestEveryReadOfPatientDataIsAudited(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		c := e.auditedCase(f, "审计患者")
		id, sid, fid := itoa(c.id), itoa(c.slide), itoa(c.file)
		tokens := map[string]string{}
		for _, u := range []string{"site", "site2", "expert", "third"} {
			tokens[u] = e.login(u)
		}
		e.flushAudit()
		const agent = "audit-test/1"
		for _, r := range []struct {
			who, method, path string
			body              any
			action, object    string
			objectID          string // "" for lists
			caseID            int64  // 0: none
			outcome, filter   string
		}{
			{"site", "GET", "/api/consultation/list?search=" + url.QueryEscape("审计患者"), nil, "read.case_list", "case_list", "", 0, "success", "审计患者"},
			{"site", "GET", "/api/consultation/resources/" + id, nil, "read.case", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/consultation/resources/" + id + "/slides", nil, "read.case_slides", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/consultation/resources/" + id + "/annexs", nil, "read.case_attachments", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/consultation/resources/" + id + "/message", nil, "read.case_messages", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/consultation/resources/" + id + "/log", nil, "read.case_log", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/diagnosis/" + id, nil, "read.diagnosis", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/diagnosis/report/preview/" + id, nil, "read.report", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/slides/" + sid + "/viewer", nil, "read.slide", "slide", sid, c.id, "success", ""},
			{"site", "GET", "/api/slides/" + sid + "/download", nil, "read.slide_original", "slide", sid, c.id, "success", ""},
			{"site", "GET", "/api/files/" + fid, nil, "read.file", "file", fid, c.id, "success", ""},
			{"site", "GET", "/api/charge/list?search=" + url.QueryEscape(c.consultNo), nil, "read.charge_list", "charge_list", "", 0, "success", c.consultNo},
			{"site", "POST", "/api/charge/export", map[string]any{"search": "审计患者"}, "export.charges", "charge_list", "", 0, "success", "审计患者"},
			{"site", "GET", "/api/diagnosis/" + id + "/shots", nil, "read.shots", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/diagnosis/" + id + "/shots/" + itoa(c.shot) + "/image", nil, "read.shot_image", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/diagnosis/" + id + "/advice", nil, "read.case_advice", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/consultation/advice/" + id, nil, "read.case_advice", "consultation", id, c.id, "success", ""},
			{"site", "GET", "/api/consultation/advice_list?params=" + url.QueryEscape(`{"kind":"special"}`), nil, "read.advice_list", "advice_list", "", 0, "success", "special"},
			{"site", "GET", "/api/consultation/advice_list/export", nil, "export.advice", "advice_list", "", 0, "success", ""},
			{"expert", "GET", "/api/diagnosis/" + id + "/invited", nil, "read.invitations", "consultation", id, c.id, "success", ""},
			{"expert", "GET", "/api/diagnosis/" + id + "/same_case", nil, "read.same_case", "consultation", id, c.id, "success", ""},
			// Misses and refusals name the case all the same.
			{"site2", "GET", "/api/consultation/resources/" + id, nil, "read.case", "consultation", id, c.id, "not_found", ""},
			{"site2", "GET", "/api/diagnosis/report/preview/" + id, nil, "read.report", "consultation", id, c.id, "not_found", ""},
			{"site2", "GET", "/api/slides/" + sid + "/viewer", nil, "read.slide", "slide", sid, c.id, "not_found", ""},
			{"site2", "GET", "/api/files/" + fid, nil, "read.file", "file", fid, c.id, "not_found", ""},
			{"third", "GET", "/api/consultation/resources/" + id, nil, "read.case", "consultation", id, c.id, "denied", ""},
			{"site", "GET", "/api/consultation/resources/999999", nil, "read.case", "consultation", "999999", 999999, "not_found", ""},
		} {
			name := r.who + " " + r.method + " " + r.path
			before := e.lastAuditID()
			res := e.do(r.method, r.path, tokens[r.who], r.body, "User-Agent", agent)
			if (r.outcome == "success") != (res.Status == 200) {
				t.Errorf("%s: %d %.200s", name, res.Status, res)
				continue
			}
			e.flushAudit()
			rows := e.auditSince(before)
			if len(rows) != 1 {
				t.Errorf("%s: %d records, want 1: %+v", name, len(rows), rows)
				continue
			}
			got := rows[0]
			var gotCase int64
			if got.CaseID != nil {
				gotCase = *got.CaseID
			}
			if got.Action != r.action || got.ObjectType != r.object || got.ObjectID != r.objectID || gotCase != r.caseID ||
				got.Outcome != r.outcome || got.Username != r.who || got.IP != "127.0.0.1" || got.UserAgent != agent ||
				!strings.Contains(got.Message, r.filter) || got.Seq == nil {
				t.Errorf("%s: %+v", name, got)
			}
		}

		t.Run("AnnotationSave", func(t *testing.T) {
			before := e.lastAuditID()
			e.expect(e.do("PUT", "/api/slides/"+sid+"/annotations", tokens["expert"], map[string]any{"labels": []any{rectLabel(1, 10, 10)}}), 200)
			rows := e.auditSince(before)
			if len(rows) != 1 || rows[0].Action != "slide.annotations_save" || rows[0].ObjectID != sid || rows[0].CaseID == nil || *rows[0].CaseID != c.id {
				t.Fatalf("%+v", rows)
			}
		})
		t.Run("NoRecordIsChangedThroughTheProduct", func(t *testing.T) {
			for path, item := range e.app.API.OpenAPI().Paths {
				if strings.HasPrefix(path, "/api/log/") || strings.HasPrefix(path, "/api/audit/") {
					for method := range operations(item) {
						if method != "GET" {
							t.Errorf("%s %s changes the operation log", method, path)
						}
					}
				}
			}
		})
	})
}

// TestWhoLookedAtThisPatient: the administrator filters the operation log by
// a case id, a consultation number, the patient's name or ID number, and
// reads every access to that patient's record in plain words.
func TestWhoLookedAtThisPatient(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		c := e.auditedCase(f, "查询患者")
		other := e.submittedCase(f, "BL2026-07002", f.expert)
		site, site2, admin := e.login("site"), e.login("site2"), e.login("admin")
		e.expect(e.do("GET", "/api/consultation/resources/"+itoa(c.id), site, nil), 200)
		e.expect(e.do("GET", "/api/consultation/resources/"+itoa(c.id), site2, nil), 404)
		e.expect(e.do("GET", "/api/consultation/resources/"+other, site, nil), 200)
		e.flushAudit()
		e.app.DB.MustExec(e.app.DB.Rebind("UPDATE consultations SET case_data = REPLACE(case_data, '11010519491231002X', '44030119800101001X') WHERE id = ?"), other)

		want := e.count("audit_logs", "case_id = ?", c.id)
		for _, text := range []string{itoa(c.id), c.consultNo, "查询患者", "11010519491231002x"} {
			q := url.Values{"params": {`{"patient":` + quote(text) + `}`}, "page_size": {"200"}}
			l := e.list("/api/log/operation", admin, q)
			if l.Meta.Pagination.Total != want || want < 5 {
				t.Fatalf("patient %q: %d records, want %d", text, l.Meta.Pagination.Total, want)
			}
			seen := map[string]bool{}
			for _, r := range l.Data {
				if fmt.Sprint(r["case_id"]) != itoa(c.id) || !strings.Contains(r["case_text"].(string), "查询患者") {
					t.Fatalf("patient %q: %v", text, r)
				}
				seen[fmt.Sprint(r["username"], " ", r["action"], " ", r["outcome"])] = true
			}
			if !seen["site read.case success"] || !seen["site2 read.case not_found"] || !seen["expert consultation.publish success"] {
				t.Fatalf("patient %q: %v", text, seen)
			}
			var counts struct {
				Data map[string]int `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/log/operation/count?"+q.Encode(), admin, nil), 200), &counts)
			if counts.Data["all"] != want {
				t.Fatalf("patient %q: count %v, want %d", text, counts.Data, want)
			}
		}
		if l := e.list("/api/log/operation", admin, url.Values{"params": {`{"patient":"无此患者"}`}}); l.Meta.Pagination.Total != 0 {
			t.Fatalf("unknown patient: %d records", l.Meta.Pagination.Total)
		}
		for lang, words := range map[string]string{"zh-CN": "查看病例", "en-US": "Viewed a case"} {
			q := url.Values{"params": {`{"patient":"查询患者","outcome":"not_found"}`}}.Encode()
			var l struct{ Data []map[string]any }
			e.decode(e.expect(e.do("GET", "/api/log/operation?"+q, admin, nil, "user-language", lang), 200), &l)
			if len(l.Data) != 1 || l.Data[0]["action_text"] != words {
				t.Fatalf("%s: %v", lang, l.Data)
			}
		}
	})
}

// TestAuditVerify: the chain holds after real use; a record changed or
// removed in the database is reported, first broken record first, by the
// endpoint and by `telepath audit-verify`.
func TestAuditVerify(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin, site := e.login("admin"), e.login("site")
		id := e.submittedCase(f, "BL2026-07101", f.expert)
		e.expect(e.do("GET", "/api/consultation/resources/"+id, site, nil), 200)
		e.flushAudit()
		type report struct {
			Data struct {
				OK      bool  `json:"ok"`
				Checked int64 `json:"checked"`
				Broken  *struct {
					ID      int64  `json:"id"`
					Reason  string `json:"reason"`
					Message string `json:"message"`
				} `json:"broken"`
			} `json:"data"`
		}
		var r report
		e.decode(e.expect(e.do("GET", "/api/audit/verify", admin, nil), 200), &r)
		if !r.Data.OK || r.Data.Checked < 5 {
			t.Fatalf("after use: %+v", r.Data)
		}
		e.expect(e.do("GET", "/api/audit/verify", site, nil), 403)

		var read, change int64
		e.app.DB.Get(&read, e.app.DB.Rebind("SELECT id FROM audit_logs WHERE action = 'read.case' AND case_id = ?"), id)
		e.app.DB.Get(&change, e.app.DB.Rebind("SELECT MIN(id) FROM audit_logs WHERE action = 'consultation.submit' AND object_id = ?"), id)
		// Someone with database access hides that site read the case and
		// removes the submission.
		e.app.DB.MustExec(e.app.DB.Rebind("UPDATE audit_logs SET username = 'admin', user_agent = '' WHERE id = ?"), read)
		e.app.DB.MustExec(e.app.DB.Rebind("DELETE FROM audit_logs WHERE id = ?"), change)
		first := min(read, change)
		e.decode(e.expect(e.do("GET", "/api/audit/verify", admin, nil, "user-language", "en-US"), 200), &r)
		if r.Data.OK || r.Data.Broken == nil || r.Data.Broken.Message == "" {
			t.Fatalf("after tampering: %+v", r.Data)
		}
		localized(t, "en-US", r.Data.Broken.Message, "verify")
		if first == read && (r.Data.Broken.ID != read || r.Data.Broken.Reason != "modified") {
			t.Fatalf("want the changed read %d first: %+v", read, r.Data.Broken)
		}
		if first == change && r.Data.Broken.Reason != "missing" {
			t.Fatalf("want the removed change first: %+v", r.Data.Broken)
		}
		rep, err := app.VerifyAudit(context.Background(), e.app.Config)
		if err != nil || rep.OK || rep.Broken.ID != r.Data.Broken.ID {
			t.Fatalf("audit-verify: %+v %v", rep, err)
		}
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestReadActionsHaveNames: every read a route declares is named for people
// in both languages, its action and its object.
func TestReadActionsHaveNames(t *testing.T) {
	e := newEnv(t, "sqlite", nil)
	n := 0
	for path, item := range e.app.API.OpenAPI().Paths {
		for method, op := range operations(item) {
			r := httpx.ReadOf(op)
			if r == nil {
				continue
			}
			n++
			obj := r.Object
			if obj == "" {
				obj = "consultation"
			}
			for _, lang := range i18n.Langs {
				for _, key := range []string{"audit.action." + r.Action, "audit.object." + obj} {
					if i18n.T(lang, key, nil) == key {
						t.Errorf("%s %s: no %s text for %s", method, path, lang, key)
					}
				}
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d read routes", n)
	}
}
