package app_test

import (
	"bytes"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"telepath/internal/borrow"
)

// actionBody is a valid body of each loan action.
var actionBody = map[borrow.Action]map[string]any{
	borrow.ActApprove: {},
	borrow.ActReject:  {"reason": "材料不全"},
	borrow.ActLend:    {"deposit": 200, "payee": "周敏"},
	borrow.ActReturn:  {"damaged": false},
	borrow.ActExtend:  {"due_date": dayFromNow(20), "reason": "外院会诊延期"},
}

type loanOut struct {
	Data struct {
		ID       int64    `json:"id"`
		BorrowNo string   `json:"borrow_no"`
		Status   string   `json:"status"`
		Overdue  bool     `json:"overdue"`
		Version  int64    `json:"version"`
		Actions  []string `json:"actions"`
	} `json:"data"`
}

type archiveOut struct {
	Data struct {
		Status  string   `json:"status"`
		Room    string   `json:"room"`
		Actions []string `json:"actions"`
	} `json:"data"`
}

func dayFromNow(days int) string {
	zone, _ := time.LoadLocation("Asia/Shanghai")
	return time.Now().In(zone).AddDate(0, 0, days).Format("2006-01-02")
}

func loanRequest(caseID string, due string) map[string]any {
	return map[string]any{"consult_id": atoi(caseID), "type": "outer", "borrower": "王医生（外院）", "borrower_phone": "13800000000",
		"purpose": "外院会诊复核", "slides": 2, "blocks": 1, "items": "HE 1-2, A1", "due_date": due}
}

func atoi(s string) int64 {
	var n int64
	for _, c := range s {
		n = n*10 + int64(c-'0')
	}
	return n
}

// borrowSessions keeps each server's site and center sessions for loanIn
// (signing in is slow; the matrix makes a hundred loans).
var borrowSessions sync.Map

// loanIn returns a new loan of caseID driven to status by the center.
func (e *env) loanIn(caseID string, status borrow.Status) string {
	e.t.Helper()
	v, ok := borrowSessions.Load(e)
	if !ok {
		v, _ = borrowSessions.LoadOrStore(e, [2]string{e.login("site"), e.login("center_admin")})
	}
	site, keeper := v.([2]string)[0], v.([2]string)[1]
	var l loanOut
	e.decode(e.expect(e.do("POST", "/api/borrow", site, loanRequest(caseID, dayFromNow(7))), 200), &l)
	id := "/api/borrow/" + itoa(l.Data.ID)
	steps := map[borrow.Status][]string{
		borrow.StatusChecking:  nil,
		borrow.StatusPassed:    {"approve"},
		borrow.StatusNotPassed: {"reject"},
		borrow.StatusBorrowing: {"approve", "lend"},
		borrow.StatusReturned:  {"approve", "lend", "return"},
	}
	for _, s := range steps[status] {
		e.expect(e.do("POST", id+"/"+s, keeper, actionBody[borrow.Action(s)]), 200)
	}
	return itoa(l.Data.ID)
}

func (e *env) loanRow(id string) string {
	var row string
	e.app.DB.Get(&row, e.app.DB.Rebind("SELECT status || '/' || due_date || '/' || CAST(version AS TEXT) || '/' || CAST(COALESCE(reviewed_by, 0) AS TEXT) || '/' || CAST(COALESCE(lent_by, 0) AS TEXT) || '/' || CAST(COALESCE(returned_by, 0) AS TEXT) FROM borrows WHERE id = ?"), atoi(id))
	return row
}

// A site asks to borrow its case's slides and blocks; the center passes,
// lends and takes them back; each step is audited and the slip prints.
func TestBorrowWalk(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		caseID := e.submittedCase(f, "BL2026-00801", f.expert)
		site, keeper := e.login("site"), e.login("center_admin")
		var l loanOut
		e.decode(e.expect(e.do("POST", "/api/borrow", site, loanRequest(caseID, dayFromNow(0))), 200), &l)
		if l.Data.Status != "checking" || !strings.HasPrefix(l.Data.BorrowNo, "JY") || len(l.Data.Actions) != 0 {
			t.Fatalf("requested: %+v", l.Data)
		}
		id := "/api/borrow/" + itoa(l.Data.ID)
		e.decode(e.expect(e.do("GET", id, keeper, nil), 200), &l)
		if !slices.Equal(l.Data.Actions, []string{"approve", "reject", "extend"}) {
			t.Fatalf("keeper's actions on checking: %v", l.Data.Actions)
		}
		e.decode(e.expect(e.do("POST", id+"/approve", keeper, map[string]any{}), 200), &l)
		e.decode(e.expect(e.do("POST", id+"/lend", keeper, map[string]any{"deposit": 300, "payee": "周敏"}), 200), &l)
		if l.Data.Status != "borrowing" || l.Data.Overdue {
			t.Fatalf("lent: %+v", l.Data)
		}
		for _, tok := range []string{site, keeper} {
			r := e.expect(e.do("GET", id+"/slip", tok, nil), 200)
			if !bytes.HasPrefix(r.Body, []byte("%PDF")) || r.Header.Get("Content-Type") != "application/pdf" {
				t.Fatalf("slip: %s %q", r.Header.Get("Content-Type"), r.Body[:min(20, len(r.Body))])
			}
		}
		e.decode(e.expect(e.do("POST", id+"/return", keeper, map[string]any{"damaged": true, "compensation": 50, "note": "一张切片边缘破损"}), 200), &l)
		if l.Data.Status != "returned" {
			t.Fatalf("returned: %+v", l.Data)
		}
		if n := e.count("audit_logs", "action LIKE 'borrow.%' AND object_id = ?", itoa(l.Data.ID)); n != 4 {
			t.Fatalf("audited %d loan writes, want 4", n)
		}

		t.Run("Overdue", func(t *testing.T) {
			lid := e.loanIn(caseID, borrow.StatusBorrowing)
			e.app.DB.Exec(e.app.DB.Rebind("UPDATE borrows SET due_date = '2020-01-01' WHERE id = ?"), atoi(lid))
			e.decode(e.expect(e.do("GET", "/api/borrow/"+lid, keeper, nil), 200), &l)
			if !l.Data.Overdue {
				t.Fatal("a loan past its due date is not overdue")
			}
			rows := e.list("/api/borrow/lists", keeper, url.Values{"params": {`{"tab":"overdue"}`}})
			if rows.Meta.Pagination.Total != 1 || rows.Data[0]["overdue"] != true {
				t.Fatalf("overdue tab: %+v", rows)
			}
			var counts struct {
				Data map[string]int `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/borrow/count", keeper, nil), 200), &counts)
			if counts.Data["overdue"] != 1 || counts.Data["borrowing"] != 1 || counts.Data["returned"] != 1 || counts.Data["all"] != 2 {
				t.Fatalf("counts: %v", counts.Data)
			}
		})
	})
}

// Every loan action from every status by every role: only the transitions
// table's moves by the case's center pass; a refusal writes nothing.
func TestBorrowMatrix(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		caseID := e.submittedCase(f, "BL2026-00802", f.expert)
		roles := []string{"site", "site2", "center_admin", "admin", "allocator", "expert", "clinical"}
		tokens := map[string]string{}
		for _, r := range roles {
			tokens[r] = e.login(r)
		}
		for _, st := range borrow.Statuses {
			for _, act := range []borrow.Action{borrow.ActApprove, borrow.ActReject, borrow.ActLend, borrow.ActReturn, borrow.ActExtend} {
				for _, role := range roles {
					id := e.loanIn(caseID, st)
					before := e.loanRow(id)
					r := e.do("POST", "/api/borrow/"+id+"/"+string(act), tokens[role], actionBody[act])
					keeper := role == "center_admin" || role == "admin"
					legal := slices.ContainsFunc(borrow.Transitions, func(tr borrow.Transition) bool {
						return tr.Action == act && tr.By == borrow.SideCenter && slices.Contains(tr.From, st)
					})
					want := 403
					switch {
					case keeper && legal:
						want = 200
					case keeper:
						want = 409
					}
					if r.Status != want {
						t.Errorf("%s %s as %s: %d, want %d: %s", act, st, role, r.Status, want, r)
					}
					if want != 200 && e.loanRow(id) != before {
						t.Errorf("%s %s as %s: refused but wrote %s → %s", act, st, role, before, e.loanRow(id))
					}
				}
			}
		}
	})
}

// Bad input is refused with a localized message and nothing is written.
func TestBorrowBadInput(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		caseID := e.submittedCase(f, "BL2026-00803", f.expert)
		site, site2, keeper := e.login("site"), e.login("site2"), e.login("center_admin")
		none := e.count("borrows", "")
		for _, lang := range []string{"zh-CN", "en-US"} {
			r := e.do("POST", "/api/borrow", site, loanRequest(caseID, dayFromNow(-1)), "user-language", lang)
			if !fieldRefusedIn(e, r, lang, "due_date") {
				t.Errorf("due date in the past (%s): %d %s", lang, r.Status, r)
			}
			r = e.do("POST", "/api/borrow", site2, loanRequest(caseID, dayFromNow(3)), "user-language", lang)
			if !fieldRefusedIn(e, r, lang, "consult_id") {
				t.Errorf("another hospital's case (%s): %d %s", lang, r.Status, r)
			}
			for field, bad := range map[string]any{"due_date": "2026-02-30", "type": "friend", "borrower": " ", "slides": 0} {
				in := loanRequest(caseID, dayFromNow(3))
				in[field] = bad
				if field == "slides" {
					in["blocks"] = 0
				}
				if r := e.do("POST", "/api/borrow", site, in, "user-language", lang); r.Status != 422 {
					t.Errorf("%s %v (%s): %d %s", field, bad, lang, r.Status, r)
				}
			}
		}
		if n := e.count("borrows", ""); n != none {
			t.Fatalf("refused requests wrote %d loans", n-none)
		}
		// A draft case (never sent to a center) and an unknown one.
		for _, id := range []int64{999999} {
			in := loanRequest("0", dayFromNow(3))
			in["consult_id"] = id
			if r := e.do("POST", "/api/borrow", site, in); !fieldRefusedIn(e, r, "zh-CN", "consult_id") {
				t.Errorf("case %d: %d %s", id, r.Status, r)
			}
		}

		id := "/api/borrow/" + e.loanIn(caseID, borrow.StatusReturned)
		for _, lang := range []string{"zh-CN", "en-US"} {
			r := e.do("POST", id+"/return", keeper, map[string]any{}, "user-language", lang)
			if r.Status != 409 || !strings.Contains(message(r), map[string]string{"zh-CN": "已归还", "en-US": "already been returned"}[lang]) {
				t.Errorf("returned twice (%s): %d %s", lang, r.Status, r)
			}
			r = e.do("POST", id+"/approve", keeper, nil, "user-language", lang)
			if r.Status != 409 || rawKey.MatchString(message(r)) || (lang == "zh-CN") != han.MatchString(message(r)) {
				t.Errorf("approving a returned loan (%s): %d %s", lang, r.Status, r)
			}
		}
		checking := "/api/borrow/" + e.loanIn(caseID, borrow.StatusChecking)
		if r := e.do("POST", checking+"/reject", keeper, map[string]any{"reason": " "}); !fieldRefusedIn(e, r, "zh-CN", "reason") {
			t.Errorf("reject without a reason: %d %s", r.Status, r)
		}
		passed := "/api/borrow/" + e.loanIn(caseID, borrow.StatusBorrowing)
		if r := e.do("POST", passed+"/return", keeper, map[string]any{"damaged": false, "compensation": 10}); r.Status != 422 {
			t.Errorf("compensation without damage: %d %s", r.Status, r)
		}
		if n := e.count("borrows", "status = 'checking'"); n != 1 {
			t.Errorf("the refused reject changed the loan: %d checking", n)
		}
	})
}

// A site sees its hospital's loans only; the center its center's; other
// roles none.
func TestBorrowScope(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		caseID := e.submittedCase(f, "BL2026-00804", f.expert)
		id := e.loanIn(caseID, borrow.StatusChecking)
		for role, want := range map[string]int{"site": 1, "site2": 0, "center_admin": 1, "admin": 1} {
			tok := e.login(role)
			if n := e.list("/api/borrow/lists", tok, nil).Meta.Pagination.Total; n != want {
				t.Errorf("%s sees %d loans, want %d", role, n, want)
			}
			wantGet := 200
			if want == 0 {
				wantGet = 404
			}
			if r := e.do("GET", "/api/borrow/"+id, tok, nil); r.Status != wantGet {
				t.Errorf("%s gets the loan: %d", role, r.Status)
			}
			if r := e.do("GET", "/api/borrow/"+id+"/slip", tok, nil); want == 0 && r.Status != 404 {
				t.Errorf("%s prints another hospital's slip: %d", role, r.Status)
			}
		}
		// The site sees no archive; the center administrator its center's cases.
		e.expect(e.do("GET", "/api/archive/lists", e.login("site"), nil), 403)
		if n := e.list("/api/archive/lists", e.login("center_admin"), nil).Meta.Pagination.Total; n != 1 {
			t.Errorf("center administrator's archive: %d cases", n)
		}
	})
}

// The archive: receive, store (the case shows Filed), undo, re-archive;
// wrong moves and missing locations are refused and write nothing.
func TestArchive(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		caseID := e.publishedCase(f, "BL2026-00805", false)
		keeper, site := e.login("center_admin"), e.login("site")
		a := "/api/archive/" + caseID
		var out archiveOut
		e.decode(e.expect(e.do("GET", a, keeper, nil), 200), &out)
		if out.Data.Status != "to_receive" || !slices.Equal(out.Data.Actions, []string{"receive"}) {
			t.Fatalf("before receiving: %+v", out.Data)
		}
		loc := map[string]any{"room": "档案室 A", "box_no": "B-12", "locker_no": "L3", "type": "slide_block"}
		e.expect(e.do("POST", a+"/store", keeper, loc), 409)
		e.expect(e.do("POST", a+"/undo", keeper, map[string]any{"reason": "借阅"}), 409)
		e.decode(e.expect(e.do("POST", a+"/receive", keeper, map[string]any{"source": "明州一院"}), 200), &out)
		if out.Data.Status != "not_archived" || !slices.Equal(out.Data.Actions, []string{"store"}) {
			t.Fatalf("received: %+v", out.Data)
		}
		e.expect(e.do("POST", a+"/receive", keeper, map[string]any{}), 409)
		for _, lang := range []string{"zh-CN", "en-US"} {
			if r := e.do("POST", a+"/store", keeper, map[string]any{"room": "档案室 A"}, "user-language", lang); !fieldRefusedIn(e, r, lang, "box_no") {
				t.Errorf("store without box or locker (%s): %d %s", lang, r.Status, r)
			}
		}
		e.expect(e.do("POST", a+"/rearchive", keeper, loc), 409)
		if lb := e.label(caseID, site); lb != "published" {
			t.Fatalf("received, not stored: %s", lb)
		}
		e.decode(e.expect(e.do("POST", a+"/store", keeper, loc), 200), &out)
		if out.Data.Status != "archived" || out.Data.Room != "档案室 A" {
			t.Fatalf("stored: %+v", out.Data)
		}
		if lb := e.label(caseID, site); lb != "filed" {
			t.Fatalf("stored case shows %s, want filed", lb)
		}
		if r := e.do("POST", a+"/undo", keeper, map[string]any{"reason": ""}); !fieldRefusedIn(e, r, "zh-CN", "reason") {
			t.Errorf("undo without reason: %d", r.Status)
		}
		e.decode(e.expect(e.do("POST", a+"/undo", keeper, map[string]any{"reason": "外院借阅"}), 200), &out)
		if !slices.Equal(out.Data.Actions, []string{"rearchive"}) || e.label(caseID, site) != "published" {
			t.Fatalf("undone: %+v", out.Data)
		}
		e.expect(e.do("POST", a+"/store", keeper, loc), 409)
		e.expect(e.do("POST", a+"/rearchive", keeper, loc), 200)
		if lb := e.label(caseID, site); lb != "filed" {
			t.Fatalf("re-archived case shows %s", lb)
		}
		if n := e.count("audit_logs", "action LIKE 'archive.%'"); n != 4 {
			t.Errorf("audited %d archive writes, want 4", n)
		}
		tabs := e.list("/api/archive/lists", keeper, url.Values{"params": {`{"tab":"archived"}`}})
		if tabs.Meta.Pagination.Total != 1 {
			t.Errorf("archived tab: %d", tabs.Meta.Pagination.Total)
		}
	})
}

// The center changes a loan's due date while it is checking, passed or lent
// out: a day today or later, other than the current one; kept in the loan's
// detail with who, when and why, audited; the overdue highlight follows the
// new date. Anything else is refused in both languages and writes nothing.
func TestBorrowExtend(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		caseID := e.submittedCase(f, "BL2026-00806", f.expert)
		site, site2, keeper := e.login("site"), e.login("site2"), e.login("center_admin")
		type detail struct {
			DueDate    string `json:"due_date"`
			Overdue    bool   `json:"overdue"`
			Status     string `json:"status"`
			DueChanges []struct {
				FromDate  string `json:"from_date"`
				ToDate    string `json:"to_date"`
				Reason    string `json:"reason"`
				ChangedBy string `json:"changed_by"`
			} `json:"due_changes"`
			Actions []string `json:"actions"`
		}

		// A loan lent out and past its due date: overdue until extended.
		lid := e.loanIn(caseID, borrow.StatusBorrowing)
		path := "/api/borrow/" + lid
		e.app.DB.Exec(e.app.DB.Rebind("UPDATE borrows SET due_date = '2020-01-01' WHERE id = ?"), atoi(lid))
		if d := data[detail](e, e.expect(e.do("GET", path, keeper, nil), 200)); !d.Overdue || !slices.Contains(d.Actions, "extend") {
			t.Fatalf("before: %+v", d)
		}
		if d := data[detail](e, e.expect(e.do("GET", path, site, nil), 200)); slices.Contains(d.Actions, "extend") {
			t.Fatalf("the site may not change the due date: %v", d.Actions)
		}
		// Bad input: localized, nothing written.
		for _, bad := range []map[string]any{
			{"due_date": dayFromNow(-1)},
			{"due_date": "2026-02-30"},
			{"due_date": ""},
			{"due_date": "2020-01-01"},
		} {
			refusedBoth(t, e, "POST", path+"/extend", keeper, bad, 422, "due_date", "borrow_due_changes")
		}
		later := "/api/borrow/" + e.loanIn(caseID, borrow.StatusBorrowing)
		refusedBoth(t, e, "POST", later+"/extend", keeper, map[string]any{"due_date": dayFromNow(7)}, 422, "due_date", "borrow_due_changes")
		refusedBoth(t, e, "POST", path+"/extend", site, map[string]any{"due_date": dayFromNow(5)}, 403, "", "borrow_due_changes")
		refusedBoth(t, e, "POST", path+"/extend", site2, map[string]any{"due_date": dayFromNow(5)}, 403, "", "borrow_due_changes")
		for _, st := range []borrow.Status{borrow.StatusReturned, borrow.StatusNotPassed} {
			refusedBoth(t, e, "POST", "/api/borrow/"+e.loanIn(caseID, st)+"/extend", keeper, map[string]any{"due_date": dayFromNow(5)}, 409, "", "borrow_due_changes")
		}
		if d := data[detail](e, e.expect(e.do("GET", path, keeper, nil), 200)); d.DueDate != "2020-01-01" || len(d.DueChanges) != 0 {
			t.Fatalf("refused changes wrote: %+v", d)
		}

		audits := e.count("audit_logs", "action = 'borrow.extend'")
		due := dayFromNow(5)
		e.expect(e.do("POST", path+"/extend", keeper, map[string]any{"due_date": due, "reason": " 外院会诊延期 "}), 200)
		d := data[detail](e, e.expect(e.do("GET", path, site, nil), 200))
		if d.DueDate != due || d.Overdue || d.Status != "borrowing" || len(d.DueChanges) != 1 {
			t.Fatalf("extended: %+v", d)
		}
		if c := d.DueChanges[0]; c.FromDate != "2020-01-01" || c.ToDate != due || c.Reason != "外院会诊延期" || c.ChangedBy == "" {
			t.Fatalf("change kept: %+v", c)
		}
		if n := e.count("audit_logs", "action = 'borrow.extend'"); n != audits+1 {
			t.Fatalf("audited %d extensions", n-audits)
		}
		if n := e.list("/api/borrow/lists", keeper, url.Values{"params": {`{"tab":"overdue"}`}}).Meta.Pagination.Total; n != 0 {
			t.Fatalf("still listed overdue: %d", n)
		}

		// A passed request whose day went by is lent only once the center agrees a new one.
		passed := e.loanIn(caseID, borrow.StatusPassed)
		e.app.DB.Exec(e.app.DB.Rebind("UPDATE borrows SET due_date = '2020-01-01' WHERE id = ?"), atoi(passed))
		refusedBoth(t, e, "POST", "/api/borrow/"+passed+"/lend", keeper, actionBody[borrow.ActLend], 422, "due_date", "audit_logs")
		e.expect(e.do("POST", "/api/borrow/"+passed+"/extend", keeper, map[string]any{"due_date": dayFromNow(10)}), 200)
		e.expect(e.do("POST", "/api/borrow/"+passed+"/lend", keeper, actionBody[borrow.ActLend]), 200)
	})
}
