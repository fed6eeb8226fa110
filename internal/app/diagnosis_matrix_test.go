package app_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The diagnosis actions (spec 2 §7 Diagnosis) in every state a case passes
// through, for every kind of caller: the one allowed caller succeeds and the
// case changes as the action says; everyone else, and everything else, is
// refused with the right status and a localized message, and nothing is
// written.

// cloneUser adds a user with the roles, centers and hospitals (and the
// password) of an existing demo user; the matrix needs a third expert of the
// center to act as the reviewer.
func (e *env) cloneUser(from, username, name string) int64 {
	e.t.Helper()
	db := e.app.DB
	now := time.Now().UTC()
	var id int64
	if err := db.Get(&id, db.Rebind(`INSERT INTO users (username, name, password_hash, status, created_at, updated_at)
		SELECT ?, ?, password_hash, 1, ?, ? FROM users WHERE username = ? RETURNING id`), username, name, now, now, from); err != nil {
		e.t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO user_roles (user_id, role, config) SELECT ?, role, config FROM user_roles WHERE user_id = (SELECT id FROM users WHERE username = ?)`,
		`INSERT INTO user_centers (user_id, center_id) SELECT ?, center_id FROM user_centers WHERE user_id = (SELECT id FROM users WHERE username = ?)`,
		`INSERT INTO user_hospitals (user_id, hospital_id) SELECT ?, hospital_id FROM user_hospitals WHERE user_id = (SELECT id FROM users WHERE username = ?)`,
	} {
		if _, err := db.Exec(db.Rebind(q), id, from); err != nil {
			e.t.Fatal(err)
		}
	}
	return id
}

// snapshot is everything an action could change on a case, as text.
func (e *env) snapshot(id string) string {
	e.t.Helper()
	db := e.app.DB
	var b strings.Builder
	dump := func(q string) {
		rows, err := db.Queryx(db.Rebind(q), id)
		if err != nil {
			e.t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			vals, err := rows.SliceScan()
			if err != nil {
				e.t.Fatal(err)
			}
			for _, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%v|", v)
			}
			b.WriteString("\n")
		}
	}
	dump(`SELECT status, is_draft, is_recall, is_return, is_lock, manage_confirm, locked_by, expert_id, reviewer_id, returned_by,
		delay_days, delay_reason, return_reason, print_deliver_status, published_at, release_at, timeout_at, remind_at, updated_at
		FROM consultations WHERE id = ?`)
	dump(`SELECT id, type, version, status, microscopic, opinion, remark, reviewer_id, review_note, report_no, verify_code,
		published_at, release_at, updated_at FROM diagnoses WHERE consult_id = ? ORDER BY id`)
	dump(`SELECT id, invitee_id, status, reply FROM invitations WHERE consult_id = ? ORDER BY id`)
	dump(`SELECT COUNT(*) FROM case_logs WHERE consult_id = ?`)
	return b.String()
}

// diagAction is one diagnosis call with a body that passes validation.
type diagAction struct {
	name   string
	path   string // after /api/diagnosis/{id}/ (or a full path with %s for the id)
	body   func(m *diagMatrix) any
	effect func(t *testing.T, m *diagMatrix, id string) // checks the change after an allowed call
}

type diagMatrix struct {
	e                   *env
	f                   caseFixture
	reviewer            int64
	tokens              map[string]string
	seq                 atomic.Int64
	expertID, expert2ID int64
	callers             []string
	actions             []diagAction
	stateSetups         map[string]func() string
	stateOrder          []string
	allowed             map[string]map[string]string // state → action → caller
}

func (m *diagMatrix) path(a diagAction, id string) string {
	if strings.Contains(a.path, "%s") {
		return fmt.Sprintf(a.path, id)
	}
	return "/api/diagnosis/" + id + "/" + a.path
}

// column reads one column of a case.
func (e *env) column(id, col string) string {
	e.t.Helper()
	var v any
	if err := e.app.DB.Get(&v, e.app.DB.Rebind("SELECT "+col+" FROM consultations WHERE id = ?"), id); err != nil {
		e.t.Fatal(err)
	}
	if bs, ok := v.([]byte); ok {
		return string(bs)
	}
	if v == nil {
		return "<nil>"
	}
	return fmt.Sprint(v)
}

// supplementColumn reads one column of a case's latest supplementary report.
func (e *env) supplementColumn(id, col string) string {
	e.t.Helper()
	var v any
	if err := e.app.DB.Get(&v, e.app.DB.Rebind("SELECT "+col+" FROM diagnoses WHERE consult_id = ? AND type = 1 ORDER BY version DESC LIMIT 1"), id); err != nil {
		e.t.Fatal(err)
	}
	if bs, ok := v.([]byte); ok {
		return string(bs)
	}
	if v == nil {
		return "<nil>"
	}
	return fmt.Sprint(v)
}

// diagStatus is the status of the latest diagnosis of a type ("" when none).
func (e *env) diagStatus(id string, typ int) string {
	e.t.Helper()
	var s []string
	if err := e.app.DB.Select(&s, e.app.DB.Rebind("SELECT status FROM diagnoses WHERE consult_id = ? AND type = ? ORDER BY version DESC"), id, typ); err != nil {
		e.t.Fatal(err)
	}
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

var han = regexp.MustCompile(`\p{Han}`)

func newDiagMatrix(t *testing.T, e *env) *diagMatrix {
	m := &diagMatrix{e: e, f: e.fixture()}
	m.reviewer = e.cloneUser("expert2", "expert3", "王磊 审核医师")
	m.expertID, m.expert2ID = m.f.expert, m.f.expert2
	m.callers = []string{"expert", "expert2", "expert3", "site", "site2", "allocator", "admin", ""}
	m.tokens = map[string]string{"": ""}
	for _, u := range m.callers[:len(m.callers)-1] {
		m.tokens[u] = e.login(u)
	}
	expert := m.tokens["expert"]
	lock := func(id string) { e.expect(e.do("POST", "/api/diagnosis/"+id+"/lock", expert, nil), 200) }
	save := func(id string) {
		e.expect(e.do("POST", "/api/diagnosis/"+id+"/save", expert, map[string]any{"microscopic": "胃窦黏膜慢性炎。", "opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
	}
	toReview := func(id string) {
		e.expect(e.do("POST", "/api/diagnosis/"+id+"/toreview", expert, map[string]any{"reviewer_id": m.reviewer}), 200)
	}
	m.stateSetups = map[string]func() string{
		"pending": func() string { return m.newCase() },
		"diagnosing": func() string {
			id := m.newCase()
			lock(id)
			save(id)
			return id
		},
		"diagnosing_empty": func() string {
			id := m.newCase()
			lock(id)
			return id
		},
		"to_review": func() string {
			id := m.newCase()
			lock(id)
			save(id)
			toReview(id)
			return id
		},
		"approved": func() string {
			id := m.newCase()
			lock(id)
			save(id)
			toReview(id)
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/review_approve", m.tokens["expert3"], map[string]any{"note": "同意"}), 200)
			return id
		},
		"published": func() string {
			id := m.newCase()
			lock(id)
			save(id)
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
			return id
		},
		"releasing": func() string {
			id := m.newCase()
			lock(id)
			save(id)
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/publish", expert, map[string]any{"confirm_unviewed": true, "delayed": true}), 200)
			return id
		},
	}
	// The supplementary report of a published case and its review.
	supplement := func(steps ...func(id string)) func() string {
		return func() string {
			id := m.stateSetups["published"]()
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/append_diagnosis", expert, map[string]any{"opinion": "补充：免疫组化 ER(+)。"}), 200)
			for _, step := range steps {
				step(id)
			}
			return id
		}
	}
	suppToReview := func(id string) {
		e.expect(e.do("POST", "/api/diagnosis/"+id+"/append_diagnosis/toreview", expert, map[string]any{"reviewer_id": m.reviewer}), 200)
	}
	suppAnswer := func(path string) func(id string) {
		return func(id string) {
			e.expect(e.do("POST", "/api/diagnosis/"+id+"/append_diagnosis/"+path, m.tokens["expert3"], map[string]any{"note": "请注明抗体克隆号"}), 200)
		}
	}
	m.stateSetups["supplement_draft"] = supplement()
	m.stateSetups["supplement_to_review"] = supplement(suppToReview)
	m.stateSetups["supplement_returned"] = supplement(suppToReview, suppAnswer("reviewreturn"))
	m.stateSetups["supplement_approved"] = supplement(suppToReview, suppAnswer("approve"))
	m.stateOrder = []string{"pending", "diagnosing", "diagnosing_empty", "to_review", "approved", "published", "releasing",
		"supplement_draft", "supplement_to_review", "supplement_returned", "supplement_approved"}

	eq := func(t *testing.T, what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	col := func(t *testing.T, id, c, want string) { t.Helper(); eq(t, c, e.column(id, c), want) }
	me := itoa(m.expertID)
	m.actions = []diagAction{
		{name: "lock", path: "lock", effect: func(t *testing.T, m *diagMatrix, id string) { col(t, id, "is_lock", "1"); col(t, id, "locked_by", me) }},
		{name: "unlock", path: "unlock", effect: func(t *testing.T, m *diagMatrix, id string) {
			col(t, id, "is_lock", "0")
			col(t, id, "locked_by", "<nil>")
		}},
		{name: "save", path: "save", body: func(*diagMatrix) any {
			return map[string]any{"opinion": "（胃窦）慢性萎缩性胃炎。", "remark": "随访"}
		},
			effect: func(t *testing.T, m *diagMatrix, id string) {
				var op string
				e.app.DB.Get(&op, e.app.DB.Rebind("SELECT opinion FROM diagnoses WHERE consult_id = ? AND type = 0 ORDER BY version DESC LIMIT 1"), id)
				eq(t, "opinion", op, "（胃窦）慢性萎缩性胃炎。")
			}},
		{name: "publish", path: "publish", body: func(*diagMatrix) any { return map[string]any{"confirm_unviewed": true} },
			effect: func(t *testing.T, m *diagMatrix, id string) {
				col(t, id, "status", "4")
				col(t, id, "is_lock", "0")
				eq(t, "diagnosis", e.diagStatus(id, 0), "published")
			}},
		{name: "toreview", path: "toreview", body: func(m *diagMatrix) any { return map[string]any{"reviewer_id": m.reviewer} },
			effect: func(t *testing.T, m *diagMatrix, id string) {
				col(t, id, "status", "2")
				col(t, id, "reviewer_id", itoa(m.reviewer))
				eq(t, "diagnosis", e.diagStatus(id, 0), "to_review")
			}},
		{name: "review_approve", path: "review_approve", body: func(*diagMatrix) any { return map[string]any{"note": "同意"} },
			effect: func(t *testing.T, m *diagMatrix, id string) {
				col(t, id, "status", "1")
				eq(t, "diagnosis", e.diagStatus(id, 0), "approved")
			}},
		{name: "reviewreturn", path: "reviewreturn", body: func(*diagMatrix) any { return map[string]any{"note": "请补充免疫组化结果"} },
			effect: func(t *testing.T, m *diagMatrix, id string) {
				col(t, id, "status", "1")
				eq(t, "diagnosis", e.diagStatus(id, 0), "returned")
			}},
		{name: "reviewrecall", path: "reviewrecall",
			effect: func(t *testing.T, m *diagMatrix, id string) {
				col(t, id, "status", "1")
				col(t, id, "reviewer_id", "<nil>")
				eq(t, "diagnosis", e.diagStatus(id, 0), "draft")
			}},
		{name: "return", path: "return", body: func(*diagMatrix) any { return map[string]any{"reason": "非本专业方向"} },
			effect: func(t *testing.T, m *diagMatrix, id string) {
				col(t, id, "is_return", "1")
				col(t, id, "expert_id", "<nil>")
				col(t, id, "returned_by", me)
			}},
		{name: "delay", path: "delay", body: func(*diagMatrix) any { return map[string]any{"days": 2, "reason": "需加做免疫组化"} },
			effect: func(t *testing.T, m *diagMatrix, id string) { col(t, id, "delay_days", "2") }},
		{name: "invited", path: "invited", body: func(m *diagMatrix) any {
			return map[string]any{"invitee_ids": []int64{m.expert2ID}, "message": "请帮忙看一下"}
		}, effect: func(t *testing.T, m *diagMatrix, id string) {
			if n := e.count("invitations", "consult_id = ? AND invitee_id = ? AND status = 0", id, m.expert2ID); n != 1 {
				t.Errorf("invitations: %d", n)
			}
		}},
		{name: "recall", path: "recall", effect: func(t *testing.T, m *diagMatrix, id string) {
			col(t, id, "status", "1")
			col(t, id, "is_lock", "1")
			eq(t, "diagnosis", e.diagStatus(id, 0), "draft")
		}},
		{name: "append_diagnosis", path: "append_diagnosis", body: func(*diagMatrix) any { return map[string]any{"opinion": "补充：免疫组化 CK(+)。"} },
			effect: func(t *testing.T, m *diagMatrix, id string) { eq(t, "supplement", e.diagStatus(id, 1), "draft") }},
		{name: "append_diagnosis_publish", path: "append_diagnosis/publish",
			effect: func(t *testing.T, m *diagMatrix, id string) {
				col(t, id, "status", "4")
				col(t, id, "print_deliver_status", "1")
				eq(t, "supplement", e.diagStatus(id, 1), "published")
				eq(t, "diagnosis", e.diagStatus(id, 0), "published")
			}},
		{name: "append_toreview", path: "append_diagnosis/toreview", body: func(m *diagMatrix) any { return map[string]any{"reviewer_id": m.reviewer} },
			effect: func(t *testing.T, m *diagMatrix, id string) {
				col(t, id, "status", "4")
				eq(t, "supplement", e.diagStatus(id, 1), "to_review")
				eq(t, "supplement reviewer", e.supplementColumn(id, "reviewer_id"), itoa(m.reviewer))
				eq(t, "supplement note", e.supplementColumn(id, "review_note"), "")
			}},
		{name: "append_reviewrecall", path: "append_diagnosis/reviewrecall",
			effect: func(t *testing.T, m *diagMatrix, id string) { eq(t, "supplement", e.diagStatus(id, 1), "draft") }},
		{name: "append_approve", path: "append_diagnosis/approve", body: func(*diagMatrix) any { return map[string]any{"note": "同意"} },
			effect: func(t *testing.T, m *diagMatrix, id string) {
				col(t, id, "status", "4")
				eq(t, "supplement", e.diagStatus(id, 1), "approved")
			}},
		{name: "append_reviewreturn", path: "append_diagnosis/reviewreturn", body: func(*diagMatrix) any { return map[string]any{"note": "请补充 HER2 结果"} },
			effect: func(t *testing.T, m *diagMatrix, id string) {
				eq(t, "supplement", e.diagStatus(id, 1), "returned")
				eq(t, "supplement note", e.supplementColumn(id, "review_note"), "请补充 HER2 结果")
			}},
		{name: "counter_audit_confirm", path: "counter_audit/confirm"},
	}
	// Who may do what in each state; every other pair is refused.
	m.allowed = map[string]map[string]string{
		"pending":          {"lock": "expert", "return": "expert", "delay": "expert", "invited": "expert"},
		"diagnosing":       {"unlock": "expert", "save": "expert", "publish": "expert", "toreview": "expert", "return": "expert", "delay": "expert", "invited": "expert"},
		"diagnosing_empty": {"unlock": "expert", "save": "expert", "return": "expert", "delay": "expert", "invited": "expert"},
		"to_review":        {"review_approve": "expert3", "reviewreturn": "expert3", "reviewrecall": "expert", "delay": "expert", "invited": "expert"},
		// Approved: signed, not sent to review again (unless edited).
		"approved":  {"unlock": "expert", "save": "expert", "publish": "expert", "return": "expert", "delay": "expert", "invited": "expert"},
		"published": {"append_diagnosis": "expert"},
		"releasing": {"recall": "expert"},
		// A supplement never sent to review may be published at once; one
		// sent must be accepted first. Under review only the reviewer answers
		// and the author may take it back.
		"supplement_draft":     {"append_diagnosis": "expert", "append_diagnosis_publish": "expert", "append_toreview": "expert"},
		"supplement_to_review": {"append_reviewrecall": "expert", "append_approve": "expert3", "append_reviewreturn": "expert3"},
		"supplement_returned":  {"append_diagnosis": "expert", "append_toreview": "expert"},
		"supplement_approved":  {"append_diagnosis": "expert", "append_diagnosis_publish": "expert", "append_toreview": "expert"},
	}
	return m
}

// badInput: the call is allowed in the state but its input is missing
// (publishing or sending to review a diagnosis or supplement not written).
func (m *diagMatrix) badInput(state, action string) bool {
	switch state {
	case "diagnosing_empty":
		return action == "publish" || action == "toreview"
	case "published":
		return action == "append_diagnosis_publish" || action == "append_toreview"
	}
	return false
}

// serverAction is the name of a matrix action in a case's actions.
var serverAction = map[string]string{"return": "expert_return", "invited": "invite", "recall": "diagnosis_recall",
	"append_diagnosis_publish": "append_publish"}

// checkListed: the case's actions, as each caller reads them, name exactly
// the matrix actions the caller may call now (allowed, or refused only
// for missing input).
func (m *diagMatrix) checkListed(t *testing.T, state, id string) {
	t.Helper()
	for _, caller := range m.callers {
		if caller == "" {
			continue
		}
		r := m.e.do("GET", "/api/consultation/resources/"+id, m.tokens[caller], nil)
		if r.Status == 404 {
			continue
		}
		var c struct {
			Data struct {
				Actions []string `json:"actions"`
			} `json:"data"`
		}
		m.e.decode(m.e.expect(r, 200), &c)
		for _, a := range m.actions {
			name := a.name
			if s, ok := serverAction[name]; ok {
				name = s
			}
			want := m.allowed[state][a.name] == caller || (caller == "expert" && m.badInput(state, a.name))
			if got := slices.Contains(c.Data.Actions, name); got != want {
				t.Errorf("%s: %s listed for %q: %v, want %v (actions %v)", state, name, caller, got, want, c.Data.Actions)
			}
		}
	}
}

func (m *diagMatrix) newCase() string {
	n := m.seq.Add(1)
	return m.e.submittedCase(m.f, fmt.Sprintf("BL2026-%05d", 60000+n), m.f.expert)
}

// expectedRefusal is the status a refused call must get: no session 401,
// a role without the route 403, a case the caller cannot see 404, else 409
// (publishing or sending to review without a diagnosis is a bad input: 422).
func (m *diagMatrix) expectedRefusal(state, action, caller, id string) int {
	switch caller {
	case "":
		return 401
	case "site", "site2", "allocator", "admin":
		return 403
	}
	if m.e.do("GET", "/api/consultation/resources/"+id, m.tokens[caller], nil).Status == 404 {
		return 404
	}
	if caller == "expert" && m.badInput(state, action) {
		return 422
	}
	return 409
}

func TestDiagnosisActionMatrix(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		m := newDiagMatrix(t, e)
		for _, state := range m.stateOrder {
			t.Run(state, func(t *testing.T) {
				// Refusals, all on one case: it must not change at all.
				id := m.stateSetups[state]()
				m.checkListed(t, state, id)
				before := e.snapshot(id)
				for _, a := range m.actions {
					for _, caller := range m.callers {
						if m.allowed[state][a.name] == caller {
							continue
						}
						var body any
						if a.body != nil {
							body = a.body(m)
						}
						want := m.expectedRefusal(state, a.name, caller, id)
						for _, lang := range []string{"zh-CN", "en-US"} {
							r := e.do("POST", m.path(a, id), m.tokens[caller], body, "user-language", lang)
							where := fmt.Sprintf("%s: %s by %q (%s)", state, a.name, caller, lang)
							if r.Status != want {
								t.Errorf("%s: status %d, want %d: %s", where, r.Status, want, r.Body)
								continue
							}
							msg := message(r)
							if msg == "" || rawKey.MatchString(msg) || (lang == "zh-CN") != han.MatchString(msg) {
								t.Errorf("%s: message not localized: %q", where, msg)
							}
						}
						if after := e.snapshot(id); after != before {
							t.Fatalf("%s: refused %s by %q changed the case:\nbefore %s\nafter  %s", state, a.name, caller, before, after)
						}
					}
				}
				// Each allowed call, on a fresh case in the state.
				for _, a := range m.actions {
					caller, ok := m.allowed[state][a.name]
					if !ok {
						continue
					}
					id := m.stateSetups[state]()
					var body any
					if a.body != nil {
						body = a.body(m)
					}
					r := e.do("POST", m.path(a, id), m.tokens[caller], body)
					if r.Status != 200 {
						t.Errorf("%s: %s by %s: status %d: %s", state, a.name, caller, r.Status, r.Body)
						continue
					}
					if e.count("case_logs", "consult_id = ?", id) == 0 {
						t.Errorf("%s: %s left no case log", state, a.name)
					}
					if a.effect != nil {
						a.effect(t, m, id)
					}
				}
			})
		}
	})
}

// Two experts and one case: the lock holder edits, the other sees the case
// read-only (when invited) or not at all, and every write of theirs is refused.
func TestTwoExpertsOneCase(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00701", f.expert)
		expert, expert2 := e.login("expert"), e.login("expert2")
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
		e.expect(e.do("POST", d+"/lock", expert, nil), 409) // already locked, even by the same expert
		e.expect(e.do("POST", d+"/invited", expert, map[string]any{"invitee_ids": []int64{f.expert2}, "message": "请会诊"}), 200)

		// expert2 now sees the case (invited) but as a reader: no lock, no write.
		var c struct {
			Data struct {
				LockedBy *int64   `json:"locked_by"`
				Actions  []string `json:"actions"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, expert2, nil), 200), &c)
		if c.Data.LockedBy == nil || *c.Data.LockedBy != f.expert {
			t.Fatalf("expert2 should see the lock of expert: %+v", c.Data)
		}
		before := e.snapshot(id)
		for _, call := range []struct {
			path string
			body any
		}{
			{"lock", nil}, {"unlock", nil}, {"save", map[string]any{"opinion": "覆盖"}}, {"publish", map[string]any{"confirm_unviewed": true}},
			{"toreview", map[string]any{"reviewer_id": f.expert}}, {"return", map[string]any{"reason": "x"}}, {"delay", map[string]any{"days": 1, "reason": "x"}},
		} {
			r := e.do("POST", d+"/"+call.path, expert2, call.body)
			if r.Status != 409 || message(r) == "" {
				t.Errorf("expert2 %s: %d %s", call.path, r.Status, r.Body)
			}
		}
		if after := e.snapshot(id); after != before {
			t.Fatalf("expert2's refused writes changed the case:\n%s\n%s", before, after)
		}
		// expert2 finds the invitation beside the case (invited/info) and answers it there.
		var info struct {
			Data []struct {
				ID     int64 `json:"id"`
				Status int   `json:"status"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d+"/invited/info", expert, nil), 200), &info)
		if len(info.Data) != 0 {
			t.Fatalf("the inviter has no invitation of their own: %+v", info.Data)
		}
		e.expect(e.do("GET", d+"/invited/info", e.login("site"), nil), 403)
		e.decode(e.expect(e.do("GET", d+"/invited/info", expert2, nil), 200), &info)
		if len(info.Data) != 1 || info.Data[0].Status != 0 {
			t.Fatalf("expert2's invitation: %+v", info.Data)
		}
		e.expect(e.do("POST", d+"/invited/"+itoa(info.Data[0].ID), expert2, map[string]any{"reply": "同意。"}), 200)
		e.decode(e.expect(e.do("GET", d+"/invited/info", expert2, nil), 200), &info)
		if len(info.Data) != 1 || info.Data[0].Status != 1 {
			t.Fatalf("after the reply: %+v", info.Data)
		}

		// The draft is still expert's.
		var h struct {
			Data []struct {
				Opinion string `json:"opinion"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, expert2, nil), 200), &h)
		if len(h.Data) != 1 || h.Data[0].Opinion != "（胃窦）慢性浅表性胃炎。" {
			t.Fatalf("versions: %+v", h.Data)
		}
		// Once expert unlocks, the case is still expert's: expert2 cannot take it.
		e.expect(e.do("POST", d+"/unlock", expert, nil), 200)
		e.expect(e.do("POST", d+"/lock", expert2, nil), 409)
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
	})
}

// A save that fails halfway (the diagnosis written, the case update then
// failing) leaves the previous draft as it was: one transaction.
func TestFailedSaveKeepsDraft(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00801", f.expert)
		expert := e.login("expert")
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "第一稿：慢性胃炎。", "microscopic": "镜下所见一"}), 200)
		before := e.snapshot(id)

		// Make the last statement of the save transaction (its case log line) fail.
		db := e.app.DB
		var trigger []string
		if db.DriverName() == "pgx" {
			trigger = []string{
				`CREATE FUNCTION tp_fail_save() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql`,
				`CREATE TRIGGER tp_fail_save BEFORE INSERT ON case_logs FOR EACH ROW EXECUTE FUNCTION tp_fail_save()`,
			}
		} else {
			trigger = []string{`CREATE TRIGGER tp_fail_save BEFORE INSERT ON case_logs BEGIN SELECT RAISE(ABORT, 'injected failure'); END`}
		}
		for _, q := range trigger {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		r := e.do("POST", d+"/save", expert, map[string]any{"opinion": "第二稿：不应保存。", "microscopic": "镜下所见二"})
		if r.Status != 500 || strings.Contains(r.String(), "injected") {
			t.Fatalf("failed save: %d %s", r.Status, r.Body)
		}
		if after := e.snapshot(id); after != before {
			t.Fatalf("a failed save changed the draft:\nbefore %s\nafter  %s", before, after)
		}
		if _, err := db.Exec(`DROP TRIGGER tp_fail_save` + map[bool]string{true: " ON case_logs", false: ""}[db.DriverName() == "pgx"]); err != nil {
			t.Fatal(err)
		}
		var h struct {
			Data []struct {
				Opinion string `json:"opinion"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, expert, nil), 200), &h)
		if len(h.Data) != 1 || h.Data[0].Opinion != "第一稿：慢性胃炎。" {
			t.Fatalf("draft after the failed save: %+v", h.Data)
		}
		// And saving works again afterwards.
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "第二稿：慢性萎缩性胃炎。"}), 200)
	})
}

// Bad input is refused with a localized message naming the field, and
// nothing is written.
func TestDiagnosisBadInput(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-00901", f.expert)
		expert := e.login("expert")
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "   ", "microscopic": "仅有镜下所见"}), 200)
		cases := []struct {
			name, path string
			body       any
			fields     []string
		}{
			{"publish an empty diagnosis", "publish", map[string]any{"confirm_unviewed": true}, []string{"opinion"}},
			{"publish an empty diagnosis (unviewed slides too)", "publish", nil, []string{"opinion"}},
			{"send an empty diagnosis to review", "toreview", map[string]any{"reviewer_id": f.expert2}, []string{"opinion"}},
			{"review by oneself", "toreview", map[string]any{"reviewer_id": f.expert}, []string{"reviewer_id"}},
			{"delay without reason or days", "delay", map[string]any{}, []string{"days", "reason"}},
			{"delay without reason", "delay", map[string]any{"days": 2, "reason": "  "}, []string{"reason"}},
			{"delay without days", "delay", map[string]any{"reason": "需加做免疫组化"}, []string{"days"}},
			{"delay too long", "delay", map[string]any{"days": 31, "reason": "需加做免疫组化"}, []string{"days"}},
			{"return without reason", "return", map[string]any{"reason": " "}, []string{"reason"}},
			{"return without body", "return", nil, []string{"reason"}},
			{"invite nobody", "invited", map[string]any{"message": "请会诊"}, []string{"invitee_ids"}},
			{"invite oneself", "invited", map[string]any{"invitee_ids": []int64{f.expert}, "message": "请会诊"}, []string{"invitee_ids"}},
		}
		before := e.snapshot(id)
		for _, c := range cases {
			for _, lang := range []string{"zh-CN", "en-US"} {
				r := e.do("POST", d+"/"+c.path, expert, c.body, "user-language", lang)
				var out struct {
					Message string              `json:"message"`
					Errors  map[string][]string `json:"errors"`
				}
				e.decode(r, &out)
				if r.Status != 422 {
					t.Errorf("%s (%s): status %d: %s", c.name, lang, r.Status, r.Body)
					continue
				}
				for _, fld := range c.fields {
					msgs := out.Errors[fld]
					if len(msgs) == 0 || rawKey.MatchString(msgs[0]) || (lang == "zh-CN") != han.MatchString(msgs[0]) {
						t.Errorf("%s (%s): field %s: %q (all: %v)", c.name, lang, fld, msgs, out.Errors)
					}
				}
			}
			if after := e.snapshot(id); after != before {
				t.Fatalf("%s wrote something:\nbefore %s\nafter  %s", c.name, before, after)
			}
		}
		// A review return needs a note.
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
		e.expect(e.do("POST", d+"/toreview", expert, map[string]any{"reviewer_id": f.expert2}), 200)
		before = e.snapshot(id)
		r := e.do("POST", d+"/reviewreturn", e.login("expert2"), map[string]any{"note": "  "})
		if r.Status != 422 || !strings.Contains(r.String(), "note") {
			t.Errorf("review return without note: %d %s", r.Status, r.Body)
		}
		if after := e.snapshot(id); after != before {
			t.Fatal("a review return without note wrote something")
		}
	})
}

// Publish reports the refusal the expert must act on first: the case's
// state, an empty diagnosis, a pending review — and only then the unviewed
// slides, the one refusal they may override (field confirm_unviewed).
func TestPublishCheckOrder(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert, expert2 := e.login("expert"), e.login("expert2")
		id := e.submittedCase(f, "BL2026-01001", f.expert)
		d := "/api/diagnosis/" + id
		publish := func(want int, key string) {
			t.Helper()
			r := e.do("POST", d+"/publish", expert, nil, "user-language", "en-US")
			var out struct {
				Message string              `json:"message"`
				Errors  map[string][]string `json:"errors"`
			}
			e.decode(r, &out)
			if r.Status != want || !strings.Contains(out.Message, key) {
				t.Fatalf("publish: %d %s, want %d with %q", r.Status, r.Body, want, key)
			}
			if _, unviewed := out.Errors["confirm_unviewed"]; unviewed != (key == "not been viewed") {
				t.Fatalf("publish: confirm_unviewed field: %s", r.Body)
			}
		}
		publish(409, "cannot") // not locked: the state, not the slides
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		publish(422, "empty")
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
		e.expect(e.do("POST", d+"/toreview", expert, map[string]any{"reviewer_id": f.expert2}), 200)
		e.expect(e.do("POST", d+"/reviewreturn", expert2, map[string]any{"note": "请补充"}), 200)
		publish(409, "review")
		e.expect(e.do("POST", d+"/toreview", expert, map[string]any{"reviewer_id": f.expert2}), 200)
		e.expect(e.do("POST", d+"/review_approve", expert2, map[string]any{"note": "同意"}), 200)
		publish(409, "not been viewed")
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
	})
}

// "Due soon" starts at the reminder time (timeout minus the reminder hours)
// in the worklist tab as on the dashboard and the row badge; the dashboard
// also counts the cases the expert returned to the center.
func TestDueSoonAndReturnedCounts(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert := e.login("expert")
		soon := e.submittedCase(f, "BL2026-01101", f.expert)
		notYet := e.submittedCase(f, "BL2026-01102", f.expert)
		returned := e.submittedCase(f, "BL2026-01103", f.expert)
		now := time.Now().UTC()
		set := func(id string, timeout, remind time.Time) {
			if _, err := e.app.DB.Exec(e.app.DB.Rebind("UPDATE consultations SET timeout_at = ?, remind_at = ? WHERE id = ?"), timeout, remind, id); err != nil {
				t.Fatal(err)
			}
		}
		set(soon, now.Add(30*time.Hour), now.Add(-time.Hour))     // reminder passed, far from the timeout
		set(notYet, now.Add(20*time.Hour), now.Add(10*time.Hour)) // within a day, reminder not yet
		e.expect(e.do("POST", "/api/diagnosis/"+returned+"/return", expert, map[string]any{"reason": "非本专业方向"}), 200)

		l := e.list("/api/consultation/list", expert, map[string][]string{"params": {`{"tab":"soon_timeout"}`}})
		if l.Meta.Pagination.Total != 1 {
			t.Fatalf("due soon tab: %d cases", l.Meta.Pagination.Total)
		}
		var c struct {
			Data struct {
				Timing string `json:"timing"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+soon, expert, nil), 200), &c)
		if c.Data.Timing != "soon" {
			t.Fatalf("badge: %q", c.Data.Timing)
		}
		var d struct {
			Data map[string]int `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/diagnosis/list/statistical_count", expert, nil), 200), &d)
		if d.Data["soon_timeout"] != 1 || d.Data["returned"] != 1 || d.Data["pending"] != 2 {
			t.Fatalf("dashboard: %v", d.Data)
		}
	})
}

// view/{slideId} records that the caller opened a slide of the case; signing
// then needs no confirmation. A slide of another case is not found.
func TestViewSlideBeforeSign(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-01201", f.expert)
		other := e.submittedCase(f, "BL2026-01202", f.expert2)
		expert, site2 := e.login("expert"), e.login("site2")
		d := "/api/diagnosis/" + id
		var slide, otherSlide int64
		e.app.DB.Get(&slide, e.app.DB.Rebind("SELECT id FROM slides WHERE consult_id = ?"), id)
		e.app.DB.Get(&otherSlide, e.app.DB.Rebind("SELECT id FROM slides WHERE consult_id = ?"), other)
		var n struct {
			Data int `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d+"/not_view_count", expert, nil), 200), &n)
		if n.Data != 1 {
			t.Fatalf("unviewed before: %d", n.Data)
		}
		e.expect(e.do("GET", d+"/view/"+itoa(otherSlide), expert, nil), 404)
		e.expect(e.do("GET", d+"/view/"+itoa(slide), site2, nil), 404)
		if e.count("slide_views", "") != 0 {
			t.Fatal("a refused view was recorded")
		}
		e.decode(e.expect(e.do("GET", d+"/view/"+itoa(slide), expert, nil), 200), &n)
		if n.Data != 0 {
			t.Fatalf("unviewed after: %d", n.Data)
		}
		e.expect(e.do("GET", d+"/view/"+itoa(slide), expert, nil), 200) // again: counted, not duplicated
		if e.count("slide_views", "slide_id = ? AND view_count = 2", slide) != 1 {
			t.Fatal("second view not counted")
		}
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
		e.expect(e.do("POST", d+"/publish", expert, nil), 200)
	})
}

// A supplementary draft can be discarded by its expert; a published report
// cannot, and nobody else may discard anything.
func TestDiscardSupplementDraft(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-01301", f.expert)
		expert, expert2 := e.login("expert"), e.login("expert2")
		d := "/api/diagnosis/" + id
		e.expect(e.do("POST", d+"/lock", expert, nil), 200)
		e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（乳腺）纤维腺瘤。"}), 200)
		e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
		var s struct {
			Data struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：待定。"}), 200), &s)
		var original int64
		e.app.DB.Get(&original, e.app.DB.Rebind("SELECT id FROM diagnoses WHERE consult_id = ? AND type = 0"), id)
		before := e.snapshot(id)
		e.expect(e.do("DELETE", d+"/append_diagnosis/"+itoa(s.Data.ID), expert2, nil), 404)
		e.expect(e.do("DELETE", d+"/append_diagnosis/"+itoa(s.Data.ID), e.login("site"), nil), 403)
		e.expect(e.do("DELETE", d+"/append_diagnosis/"+itoa(original), expert, nil), 409)
		if e.snapshot(id) != before {
			t.Fatal("a refused discard changed the case")
		}
		discardable := func(tok string) bool {
			var c struct {
				Data struct {
					Actions []string `json:"actions"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, tok, nil), 200), &c)
			return slices.Contains(c.Data.Actions, "append_discard")
		}
		if !discardable(expert) {
			t.Fatal("the expert's supplement draft is not offered for discarding")
		}
		e.expect(e.do("DELETE", d+"/append_diagnosis/"+itoa(s.Data.ID), expert, nil), 200)
		if e.count("diagnoses", "consult_id = ? AND type = 1", id) != 0 || e.count("diagnoses", "id = ?", original) != 1 {
			t.Fatal("discard removed the wrong rows")
		}
		if discardable(expert) {
			t.Fatal("discarding is offered with no supplement left")
		}
		e.expect(e.do("DELETE", d+"/append_diagnosis/"+itoa(s.Data.ID), expert, nil), 409)
	})
}
