package app_test

import (
	"bytes"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

type invitedRow struct {
	ID          int64   `json:"id"`
	ConsultNo   string  `json:"consult_no"`
	InviterID   int64   `json:"inviter_id"`
	InviteeID   int64   `json:"invitee_id"`
	InviteeName string  `json:"invitee_name"`
	Status      int     `json:"status"`
	Reply       string  `json:"reply"`
	RepliedAt   *string `json:"replied_at"`
}

// /admin/invited-manage: every invitation on the cases of the centers the
// caller manages, with filters, tab counts and the Excel export.
func TestInvitedManage(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, expert2 := e.login("expert"), e.login("expert2")
		third := e.cloneUser("expert2", "expert3", "王三 主治医师")
		a := e.submittedCase(f, "BL2026-16001", f.expert)
		b := e.submittedCase(f, "BL2026-16002", f.expert)
		e.expect(e.do("POST", "/api/diagnosis/"+a+"/invited", expert, map[string]any{"invitee_ids": []int64{f.expert2, third}, "message": "请会诊"}), 200)
		e.expect(e.do("POST", "/api/diagnosis/"+b+"/invited", expert, map[string]any{"invitee_ids": []int64{f.expert2}, "message": "看一下"}), 200)
		onB := data[[]invitedRow](e, e.expect(e.do("GET", "/api/diagnosis/"+b+"/invited/info", expert2, nil), 200))
		e.expect(e.do("POST", "/api/diagnosis/"+b+"/invited/"+itoa(onB[0].ID), expert2, map[string]any{"reply": "同意，腺癌"}), 200)

		// A center admin of another center manages none of them.
		now := time.Now().UTC()
		var other int64
		if err := e.app.DB.Get(&other, e.app.DB.Rebind("INSERT INTO centers (name, created_at, updated_at) VALUES ('另一中心', ?, ?) RETURNING id"), now, now); err != nil {
			t.Fatal(err)
		}
		ca2 := e.cloneUser("center_admin", "center_admin2", "另一中心管理员")
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE user_centers SET center_id = ? WHERE user_id = ?"), other, ca2); err != nil {
			t.Fatal(err)
		}

		list := func(token string, params string) []invitedRow {
			t.Helper()
			q := ""
			if params != "" {
				q = "?params=" + url.QueryEscape(params)
			}
			return data[[]invitedRow](e, e.expect(e.do("GET", "/api/admin/invited/list"+q, token, nil), 200))
		}
		admin, ca := e.login("admin"), e.login("center_admin")
		for who, tok := range map[string]string{"admin": admin, "center_admin": ca} {
			if l := list(tok, ""); len(l) != 3 {
				t.Fatalf("%s sees %d invitations, want 3: %+v", who, len(l), l)
			}
		}
		other2 := e.login("center_admin2")
		if l := list(other2, ""); len(l) != 0 {
			t.Fatalf("another center's admin sees %+v", l)
		}
		if c := data[map[string]int64](e, e.expect(e.do("GET", "/api/admin/invited/count", other2, nil), 200)); c["all"] != 0 {
			t.Fatalf("another center's counts: %v", c)
		}
		if p := data[[]struct{ ID int64 }](e, e.expect(e.do("GET", "/api/admin/invited/people", other2, nil), 200)); len(p) != 0 {
			t.Fatalf("another center's people: %v", p)
		}

		// Filters, tabs and counts.
		answered := list(ca, `{"tab":"answered"}`)
		if len(answered) != 1 || answered[0].Reply != "同意，腺癌" || answered[0].RepliedAt == nil || answered[0].InviteeID != f.expert2 {
			t.Fatalf("answered: %+v", answered)
		}
		if l := list(ca, fmt.Sprintf(`{"invitee_id":%d}`, third)); len(l) != 1 || l[0].InviteeID != third || l[0].Status != 0 {
			t.Fatalf("invitee filter: %+v", l)
		}
		if l := list(ca, fmt.Sprintf(`{"inviter_id":%d,"tab":"unanswered"}`, f.expert)); len(l) != 2 {
			t.Fatalf("inviter + unanswered: %+v", l)
		}
		if l := list(ca, fmt.Sprintf(`{"inviter_id":%d}`, f.expert2)); len(l) != 0 {
			t.Fatalf("expert2 invited nobody: %+v", l)
		}
		day := now.Add(-48 * time.Hour).Format("2006-01-02")
		if l := list(ca, `{"created_at":["2020-01-01","2020-01-02"]}`); len(l) != 0 {
			t.Fatalf("date range in the past: %+v", l)
		}
		if l := list(ca, `{"created_at":["`+day+`","`+now.Add(48*time.Hour).Format("2006-01-02")+`"]}`); len(l) != 3 {
			t.Fatalf("date range today: %+v", l)
		}
		r := e.expect(e.do("GET", "/api/admin/invited/list?search="+url.QueryEscape("王三"), ca, nil), 200)
		if l := data[[]invitedRow](e, r); len(l) != 1 || l[0].InviteeID != third {
			t.Fatalf("search by invitee name: %+v", l)
		}
		c := data[map[string]int64](e, e.expect(e.do("GET", "/api/admin/invited/count?params="+url.QueryEscape(fmt.Sprintf(`{"invitee_id":%d}`, f.expert2)), ca, nil), 200))
		if c["all"] != 2 || c["answered"] != 1 || c["unanswered"] != 1 {
			t.Fatalf("counts for expert2: %v", c)
		}
		e.expect(e.do("GET", "/api/admin/invited/list?params="+url.QueryEscape(`{"tab":"nope"}`), ca, nil), 400)
		if p := data[[]struct{ ID int64 }](e, e.expect(e.do("GET", "/api/admin/invited/people", ca, nil), 200)); len(p) != 3 {
			t.Fatalf("people: %v", p)
		}

		// The export holds the filtered rows, in the caller's language.
		for lang, head := range map[string]string{"zh-CN": "受邀专家", "en-US": "Invited expert"} {
			x := e.expect(e.do("GET", "/api/admin/invited/export?params="+url.QueryEscape(`{"tab":"unanswered"}`), ca, nil, "user-language", lang), 200)
			xf, err := excelize.OpenReader(bytes.NewReader(x.Body))
			if err != nil {
				t.Fatal(err)
			}
			rows, _ := xf.GetRows(xf.GetSheetName(0))
			if len(rows) != 3 || rows[0][3] != head {
				t.Fatalf("%s export: %v", lang, rows)
			}
		}
		x := e.expect(e.do("GET", "/api/admin/invited/export", other2, nil), 200)
		xf, _ := excelize.OpenReader(bytes.NewReader(x.Body))
		if rows, _ := xf.GetRows(xf.GetSheetName(0)); len(rows) != 1 {
			t.Fatalf("another center's export: %v", rows)
		}
	})
}
