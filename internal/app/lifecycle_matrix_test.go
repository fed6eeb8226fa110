package app_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// The consultation life cycle over HTTP: every consultation transition,
// from every state a case can be in, as every kind of caller. What is
// allowed succeeds and moves the case where the spec says; what is refused
// answers with the right status and a localized message and changes
// nothing (the case row, its log and its specimens are compared).

// matrixRoles are the callers; "" has no session.
var matrixRoles = []string{"site", "site2", "allocator", "expert", "admin", "center_admin", "root", ""}

// matrixStates are the display statuses a case is built into over the API.
var matrixStates = []string{"draft", "to_be_submitted", "to_allot", "pending_diagnosis", "diagnosing", "to_review",
	"published", "withdraw_unconfirmed", "recalled", "returned_to_site", "returned_to_center"}

var (
	siteCallers   = []string{"site", "site2", "root"}
	centerCallers = []string{"allocator", "admin", "center_admin", "root"}
	expertCallers = []string{"expert", "root"}
	editable      = []string{"draft", "to_be_submitted", "recalled", "returned_to_site"}
)

// matrixAction is one consultation endpoint.
type matrixAction struct {
	name    string
	callers []string // who passes the route's role check
	from    []string // the display statuses it may start from
	// ends is the display status after success ("" unchanged, "deleted").
	ends func(from string) string
	// refuse gives the status of a refusal past the state check (0: none).
	refuse func(role, from string) int
	batch  bool
	call   func(m *matrix, tok, id string) resp
}

type matrix struct {
	e      *env
	f      caseFixture
	tokens map[string]string
	n      int
	lang   string // sent with every request as user-language
}

func (m *matrix) number() string {
	m.n++
	return fmt.Sprintf("BL2026-%05d", 20000+m.n)
}

func (m *matrix) post(path, tok string, body any) resp {
	return m.do("POST", path, tok, body)
}

func (m *matrix) do(method, path, tok string, body any) resp {
	m.e.t.Helper()
	lang := m.lang
	if lang == "" {
		lang = "zh-CN"
	}
	return m.e.do(method, path, tok, body, "user-language", lang)
}

// build makes a new case of site's hospital in the display status st,
// every step through the API as the user who takes it.
func (m *matrix) build(st string) string {
	e, t := m.e, m.e.t
	t.Helper()
	site, alloc, expert, admin := m.tokens["site"], m.tokens["allocator"], m.tokens["expert"], m.tokens["admin"]
	var c caseOut
	if st == "draft" {
		e.decode(e.expect(m.post("/api/consultation/draft", site, map[string]any{"library_id": m.f.library, "pathology_number": m.number(),
			"center_id": m.f.center, "name": "草稿患者"}), 200), &c)
		return itoa(c.Data.ID)
	}
	e.decode(e.expect(m.post("/api/consultation", site, registration(m.f, m.number(), e.slide(m.f.hospital, "site"))), 200), &c)
	id := itoa(c.Data.ID)
	e.expect(m.post("/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": m.f.item, "quantity": 1}}}), 200)
	if st == "to_be_submitted" {
		return id
	}
	e.expect(m.post("/api/consultation/submit/"+id, site, nil), 200)
	switch st {
	case "to_allot":
		return id
	case "returned_to_site":
		e.expect(m.post("/api/distribute/"+id+"/return", alloc, map[string]any{"reason": "切片不清晰"}), 200)
		return id
	}
	e.expect(m.post("/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": m.f.expert}), 200)
	d := "/api/diagnosis/" + id
	switch st {
	case "pending_diagnosis":
		return id
	case "withdraw_unconfirmed", "recalled":
		e.expect(m.post("/api/consultation/recall/"+id, site, map[string]any{"reason": "临床资料有误"}), 200)
		if st == "recalled" && m.labelOf(id) == "withdraw_unconfirmed" { // agreed at once when the center need not check
			e.expect(m.post("/api/admin/consultation/"+id+"/recall/agree", admin, nil), 200)
		}
		return id
	case "returned_to_center":
		e.expect(m.post(d+"/return", expert, map[string]any{"reason": "非本亚专科"}), 200)
		return id
	}
	e.expect(m.post(d+"/lock", expert, nil), 200)
	if st == "diagnosing" {
		return id
	}
	e.expect(m.post(d+"/save", expert, map[string]any{"microscopic": "胃窦黏膜慢性炎。", "opinion": "（胃窦）慢性炎。"}), 200)
	if st == "to_review" {
		e.expect(m.post(d+"/toreview", expert, map[string]any{"reviewer_id": m.f.expert2}), 200)
		return id
	}
	e.expect(m.post(d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
	return id
}

// snapshot is everything a refused request must leave as it was.
type snapshot struct {
	Row       map[string]any
	Logs      int
	Specimens int
	Messages  int
}

func (m *matrix) snapshot(id string) snapshot {
	e := m.e
	row := map[string]any{}
	rows, err := e.app.DB.Queryx(e.app.DB.Rebind("SELECT * FROM consultations WHERE id = ?"), id)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		e.t.Fatalf("case %s gone", id)
	}
	if err := rows.MapScan(row); err != nil {
		e.t.Fatal(err)
	}
	for k, v := range row {
		if b, ok := v.([]byte); ok {
			row[k] = string(b)
		}
	}
	return snapshot{Row: row, Logs: e.count("case_logs", "consult_id = "+id), Specimens: e.count("specimens", "consult_id = "+id),
		Messages: e.count("consult_messages", "consult_id = "+id)}
}

func (m *matrix) labelOf(id string) string {
	var c caseOut
	m.e.decode(m.e.expect(m.e.do("GET", "/api/consultation/resources/"+id, m.tokens["admin"], nil), 200), &c)
	return c.Data.StatusLabel.Key
}

func matrixActions() []matrixAction {
	same := func(string) string { return "" }
	to := func(s string) func(string) string { return func(string) string { return s } }
	noHospital := func(role, _ string) int { // root belongs to no hospital and so registers nothing
		if role == "root" {
			return 409
		}
		return 0
	}
	submitRefusal := func(_, from string) int {
		if from == "draft" {
			return 422 // a draft must be completed first
		}
		return 0
	}
	reg := func(m *matrix) map[string]any {
		r := registration(m.f, m.number())
		r["name"] = "王芳（修改）"
		return r
	}
	reason := map[string]any{"reason": "临床资料有误"}
	return []matrixAction{
		{name: "update", callers: siteCallers, from: editable, refuse: noHospital,
			ends: func(from string) string {
				if from == "draft" {
					return "to_be_submitted"
				}
				return ""
			},
			call: func(m *matrix, tok, id string) resp { return m.post("/api/consultation/"+id, tok, reg(m)) }},
		{name: "caseinfo", callers: siteCallers, from: editable, refuse: noHospital,
			ends: func(from string) string {
				if from == "draft" {
					return "to_be_submitted"
				}
				return ""
			},
			call: func(m *matrix, tok, id string) resp { return m.post("/api/consultation/caseinfo/"+id, tok, reg(m)) }},
		{name: "draft_update", callers: siteCallers, from: editable, refuse: noHospital,
			ends: func(from string) string {
				if from == "to_be_submitted" {
					return "draft"
				}
				return ""
			},
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/consultation/draft/"+id, tok, map[string]any{"library_id": m.f.library, "pathology_number": m.number(), "center_id": m.f.center})
			}},
		{name: "delete", callers: siteCallers, from: []string{"draft", "to_be_submitted"}, ends: to("deleted"),
			call: func(m *matrix, tok, id string) resp { return m.do("DELETE", "/api/consultation/"+id, tok, nil) }},
		{name: "submit", callers: siteCallers, from: []string{"draft", "to_be_submitted"}, ends: to("to_allot"), refuse: submitRefusal,
			call: func(m *matrix, tok, id string) resp { return m.post("/api/consultation/submit/"+id, tok, nil) }},
		{name: "batch_submit", callers: siteCallers, from: []string{"draft", "to_be_submitted"}, ends: to("to_allot"), refuse: submitRefusal, batch: true,
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/consultation/batch_submit", tok, map[string]any{"ids": []int64{n64(id)}})
			}},
		{name: "consult_again", callers: siteCallers, from: []string{"recalled", "returned_to_site"}, ends: to("to_allot"),
			call: func(m *matrix, tok, id string) resp { return m.post("/api/consultation/consult_again/"+id, tok, nil) }},
		{name: "recall", callers: siteCallers, from: []string{"to_allot", "pending_diagnosis", "diagnosing", "to_review", "returned_to_center"},
			ends: to("withdraw_unconfirmed"),
			call: func(m *matrix, tok, id string) resp { return m.post("/api/consultation/recall/"+id, tok, reason) }},
		{name: "batch_recall", callers: siteCallers, from: []string{"to_allot", "pending_diagnosis", "diagnosing", "to_review", "returned_to_center"},
			ends: to("withdraw_unconfirmed"), batch: true,
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/consultation/batch_recall", tok, map[string]any{"ids": []int64{n64(id)}, "reason": "临床资料有误"})
			}},
		{name: "recall_agree", callers: centerCallers, from: []string{"withdraw_unconfirmed"}, ends: to("recalled"),
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/admin/consultation/"+id+"/recall/agree", tok, nil)
			}},
		{name: "batch_agree", callers: centerCallers, from: []string{"withdraw_unconfirmed"}, ends: to("recalled"), batch: true,
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/admin/consultation/recall/batch_agree", tok, map[string]any{"ids": []int64{n64(id)}})
			}},
		{name: "recall_reject", callers: centerCallers, from: []string{"withdraw_unconfirmed"}, ends: to("pending_diagnosis"),
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/admin/consultation/"+id+"/recall/reject", tok, map[string]any{"reason": "专家已在诊断"})
			}},
		{name: "recall_ignore", callers: centerCallers, from: []string{"withdraw_unconfirmed"}, ends: to("pending_diagnosis"),
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/admin/consultation/"+id+"/recall/ignore", tok, nil)
			}},
		{name: "bind_expert", callers: centerCallers, from: []string{"to_allot", "returned_to_center"}, ends: to("pending_diagnosis"),
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/distribute/"+id+"/bindexpert", tok, map[string]any{"expert_id": m.f.expert2})
			}},
		{name: "batch_bindexpert", callers: centerCallers, from: []string{"to_allot", "returned_to_center"}, ends: to("pending_diagnosis"), batch: true,
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/distribute/batch_bindexpert", tok, map[string]any{"ids": []int64{n64(id)}, "expert_id": m.f.expert2})
			}},
		{name: "bind_staff", callers: centerCallers, from: []string{"to_allot", "pending_diagnosis", "diagnosing", "returned_to_center"}, ends: same,
			call: func(m *matrix, tok, id string) resp {
				var staff int64
				m.e.app.DB.Get(&staff, "SELECT id FROM users WHERE username = 'staff'")
				return m.post("/api/distribute/"+id+"/bindstaff", tok, map[string]any{"staff_id": staff})
			}},
		{name: "referral", callers: centerCallers, from: []string{"pending_diagnosis"}, ends: same,
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/distribute/"+id+"/referral", tok, map[string]any{"expert_id": m.f.expert2, "reason": "专家出差"})
			}},
		{name: "return_to_site", callers: centerCallers, from: []string{"to_allot", "pending_diagnosis", "returned_to_center"}, ends: to("returned_to_site"),
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/distribute/"+id+"/return", tok, map[string]any{"reason": "切片不清晰，请重新扫描"})
			}},
		{name: "return_to_center", callers: expertCallers, from: []string{"pending_diagnosis", "diagnosing"}, ends: to("returned_to_center"),
			refuse: func(role, _ string) int {
				if role == "root" {
					return 409 // only the assigned expert returns a case
				}
				return 0
			},
			call: func(m *matrix, tok, id string) resp {
				return m.post("/api/diagnosis/"+id+"/return", tok, map[string]any{"reason": "非本亚专科"})
			}},
	}
}

// sees reports whether role may read a case of site's hospital (center EC)
// in display status st. A case the hospital has not submitted is the
// hospital's alone (and the administrator's); the center keeps reading the
// ones it returned.
func sees(role, st string) bool {
	switch role {
	case "site", "admin", "root":
		return true
	case "allocator", "center_admin":
		return !slices.Contains([]string{"draft", "to_be_submitted", "recalled"}, st)
	case "expert":
		return slices.Contains([]string{"pending_diagnosis", "diagnosing", "to_review", "published", "withdraw_unconfirmed", "returned_to_center"}, st)
	}
	return false
}

// expected is the status a caller gets for a on a case in status st.
func (a matrixAction) expected(role, st string) int {
	switch {
	case role == "":
		return 401
	case !slices.Contains(a.callers, role):
		return 403
	case !sees(role, st):
		return 404
	case !slices.Contains(a.from, st):
		return 409
	case a.refuse != nil && a.refuse(role, st) != 0:
		return a.refuse(role, st)
	}
	return 200
}

var rawKey = regexp.MustCompile(`^[a-z_]+(\.[a-z_]+)+$`)

// localized fails unless msg reads as a sentence in lang.
func localized(t *testing.T, lang, msg, ctx string) {
	t.Helper()
	han := strings.ContainsFunc(msg, func(r rune) bool { return unicode.Is(unicode.Han, r) })
	switch {
	case msg == "" || rawKey.MatchString(msg) || strings.Contains(msg, "{"):
		t.Errorf("%s: message %q is not a sentence", ctx, msg)
	case lang == "zh-CN" && !han:
		t.Errorf("%s: zh-CN message %q", ctx, msg)
	case lang == "en-US" && han:
		t.Errorf("%s: en-US message %q", ctx, msg)
	}
}

func TestLifecycleMatrix(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		m := &matrix{e: e, f: e.fixture(), tokens: map[string]string{}}
		for _, r := range matrixRoles {
			if r != "" {
				m.tokens[r] = e.login(r)
			}
		}
		// One case per status takes every refusal; each success gets a new one.
		shared := map[string]string{}
		for _, st := range matrixStates {
			shared[st] = m.build(st)
			if got := m.labelOf(shared[st]); got != st {
				t.Fatalf("built %s, got %s", st, got)
			}
		}
		m.checkListed(t, shared, matrixActions())
		allowed, refused := m.run(t, matrixActions(), shared)
		t.Logf("%d allowed and %d refused requests checked", allowed, refused)
	})
}

// run makes every action from every status as every caller: allowed ones
// on a new case, refused ones on the shared case of the status, which they
// must leave as it was.
func (m *matrix) run(t *testing.T, actions []matrixAction, shared map[string]string) (allowed, refused int) {
	e := m.e
	for _, a := range actions {
		t.Run(a.name, func(t *testing.T) {
			parent := e.t
			e.t = t
			defer func() { e.t = parent }()
			for si, st := range matrixStates {
				for ri, role := range matrixRoles {
					want := a.expected(role, st)
					lang := []string{"zh-CN", "en-US"}[(si+ri)%2]
					ctx := fmt.Sprintf("%s from %s as %q", a.name, st, role)
					id := shared[st]
					if want == 200 {
						id = m.build(st)
					}
					before := m.snapshot(id)
					tok := m.tokens[role]
					r := m.call(a, tok, id, lang)
					if a.batch && want != 401 && want != 403 {
						var out struct {
							Data []struct {
								ID      int64  `json:"id"`
								OK      bool   `json:"ok"`
								Message string `json:"message"`
							} `json:"data"`
						}
						if r.Status != 200 {
							t.Errorf("%s: batch status %d: %s", ctx, r.Status, r)
							continue
						}
						json.Unmarshal(r.Body, &out)
						if len(out.Data) != 1 || out.Data[0].OK != (want == 200) {
							t.Errorf("%s: want ok=%v: %s", ctx, want == 200, r)
							continue
						}
						if want != 200 {
							localized(t, lang, out.Data[0].Message, ctx)
						}
					} else if r.Status != want {
						t.Errorf("%s: status %d, want %d: %s", ctx, r.Status, want, r)
						continue
					}
					if want != 200 {
						refused++
						if !a.batch || want == 401 || want == 403 {
							localized(t, lang, message(r), ctx)
						}
						if after := m.snapshot(id); !reflect.DeepEqual(before, after) {
							t.Errorf("%s: refused but changed the case:\nbefore %v\nafter  %v", ctx, before, after)
						}
						continue
					}
					allowed++
					after := m.snapshot(id)
					if after.Logs <= before.Logs {
						t.Errorf("%s: no case log written", ctx)
					}
					end := a.ends(st)
					switch end {
					case "deleted":
						if after.Row["deleted_at"] == nil {
							t.Errorf("%s: not deleted", ctx)
						}
						e.expect(e.do("GET", "/api/consultation/resources/"+id, m.tokens["site"], nil), 404)
					case "":
						end = st
						fallthrough
					default:
						if got := m.labelOf(id); got != end {
							t.Errorf("%s: ends in %s, want %s", ctx, got, end)
						}
					}
				}
			}
		})
	}
	return allowed, refused
}

func (m *matrix) call(a matrixAction, tok, id, lang string) resp {
	m.lang = lang
	defer func() { m.lang = "" }()
	return a.call(m, tok, id)
}

// checkListed: a case's actions, as each caller reads them, name exactly
// the matrix actions the caller may make now (allowed, or refused only for
// its input: a draft to complete before it is submitted).
func (m *matrix) checkListed(t *testing.T, shared map[string]string, actions []matrixAction) {
	t.Helper()
	names := map[string]string{"return_to_center": "expert_return"}
	for _, st := range matrixStates {
		for _, role := range matrixRoles {
			if role == "" || !sees(role, st) {
				continue
			}
			var c struct {
				Data struct {
					Actions []string `json:"actions"`
				} `json:"data"`
			}
			m.e.decode(m.e.expect(m.e.do("GET", "/api/consultation/resources/"+shared[st], m.tokens[role], nil), 200), &c)
			for _, a := range actions {
				if a.batch || a.name == "caseinfo" || a.name == "draft_update" {
					continue // the same action as another, or no transition
				}
				name := a.name
				if n, ok := names[name]; ok {
					name = n
				}
				want := a.expected(role, st) == 200 || a.expected(role, st) == 422
				if got := slices.Contains(c.Data.Actions, name); got != want {
					t.Errorf("%s: %s listed for %q: %v, want %v (actions %v)", st, name, role, got, want, c.Data.Actions)
				}
			}
		}
	}
}

func n64(id string) int64 {
	var n int64
	fmt.Sscan(id, &n)
	return n
}

// TestTimeoutMarkers: a case past its time limit is "timed out", one past its
// reminder time "soon timed out", both in the lists' tabs and on the rows.
func TestTimeoutMarkers(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		m := &matrix{e: e, f: e.fixture(), tokens: map[string]string{"site": e.login("site"), "allocator": e.login("allocator"), "admin": e.login("admin")}}
		late, soon, fine := m.build("pending_diagnosis"), m.build("pending_diagnosis"), m.build("pending_diagnosis")
		now := time.Now().UTC()
		set := func(id string, timeout, remind time.Time) {
			e.app.DB.MustExec(e.app.DB.Rebind("UPDATE consultations SET timeout_at = ?, remind_at = ? WHERE id = ?"), timeout, remind, id)
		}
		set(late, now.Add(-time.Hour), now.Add(-25*time.Hour))
		// The reminder time decides, not a fixed day before the limit.
		set(soon, now.Add(30*time.Hour), now.Add(-time.Hour))
		set(fine, now.Add(20*time.Hour), now.Add(10*time.Hour))
		for tab, want := range map[string]string{"timeout": late, "soon_timeout": soon} {
			for _, who := range []string{"site", "allocator"} {
				l := e.list("/api/consultation/list", m.tokens[who], url.Values{"params": {`{"tab":"` + tab + `"}`}})
				if l.Meta.Pagination.Total != 1 || fmt.Sprint(l.Data[0]["id"]) != want {
					t.Fatalf("%s tab for %s: %+v", tab, who, l.Data)
				}
				marker := map[string]string{"timeout": "timeout", "soon_timeout": "soon"}[tab]
				if l.Data[0]["timing"] != marker {
					t.Fatalf("%s row marked %v", tab, l.Data[0]["timing"])
				}
			}
		}
		l := e.list("/api/consultation/list", m.tokens["allocator"], url.Values{"params": {`{"id":` + fine + `}`}})
		if l.Meta.Pagination.Total != 1 || l.Data[0]["timing"] != nil && l.Data[0]["timing"] != "" {
			t.Fatalf("a case within its time is marked: %+v", l.Data)
		}
	})
}

// TestBatchSubmitReportsEachCase: one batch with a good case, an uncharged
// one, one already submitted and another hospital's: each gets its own
// answer and only the good one moves.
func TestBatchSubmitReportsEachCase(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		m := &matrix{e: e, f: e.fixture(), tokens: map[string]string{"site": e.login("site"), "allocator": e.login("allocator"), "admin": e.login("admin")}}
		good, sent := m.build("to_be_submitted"), m.build("to_allot")
		var c caseOut
		e.decode(e.expect(e.do("POST", "/api/consultation", m.tokens["site"], registration(m.f, m.number(), e.slide(m.f.hospital, "site"))), 200), &c)
		uncharged := itoa(c.Data.ID)
		var other caseOut
		e.decode(e.expect(e.do("POST", "/api/consultation/draft", e.login("site2"), map[string]any{"name": "他院"}), 200), &other)
		foreign := itoa(other.Data.ID)
		before := map[string]snapshot{}
		for _, id := range []string{uncharged, sent, foreign} {
			before[id] = m.snapshot(id)
		}
		var out struct {
			Data []struct {
				ID      int64  `json:"id"`
				OK      bool   `json:"ok"`
				Message string `json:"message"`
			} `json:"data"`
		}
		r := e.expect(e.do("POST", "/api/consultation/batch_submit", m.tokens["site"], map[string]any{"ids": []int64{n64(good), n64(uncharged), n64(sent), n64(foreign)}},
			"user-language", "en-US"), 200)
		e.decode(r, &out)
		got := map[string]string{}
		for _, o := range out.Data {
			if o.OK {
				got[itoa(o.ID)] = "ok"
				continue
			}
			localized(t, "en-US", o.Message, itoa(o.ID))
			got[itoa(o.ID)] = o.Message
		}
		if got[good] != "ok" || len(got) != 4 || got[uncharged] == "ok" || got[sent] == "ok" || got[foreign] == "ok" {
			t.Fatalf("outcomes %v", got)
		}
		if got[uncharged] == got[sent] || got[sent] == got[foreign] {
			t.Fatalf("the refusals do not say why: %v", got)
		}
		if m.labelOf(good) != "to_allot" {
			t.Fatal("good case not submitted")
		}
		for id, b := range before {
			if after := m.snapshot(id); !reflect.DeepEqual(after, b) {
				t.Fatalf("refused case %s changed", id)
			}
		}
		e.expect(e.do("POST", "/api/consultation/batch_submit", m.tokens["site"], map[string]any{"ids": []int64{}}), 422)
	})
}
