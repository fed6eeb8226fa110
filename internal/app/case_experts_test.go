package app_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
)

// expertScopeBefore is the expert's case scope as it was written before
// migration 0056: the OR of the six ways an expert is named on a case, over
// the base tables, for a case the center has (or returned).
const expertScopeBefore = `c.deleted_at IS NULL AND (c.status <> 0 OR c.is_return = -1) AND (
	c.expert_id = ? OR c.reviewer_id = ? OR c.returned_by = ? OR c.handover_from = ?
	OR c.id IN (SELECT consult_id FROM invitations WHERE invitee_id = ?)
	OR c.id IN (SELECT consult_id FROM diagnoses WHERE reviewer_id = ? AND type = 1))`

// expertNamings is every (expert, case) pair the six conditions name, over
// the base tables, written out here rather than read from the view the
// triggers use, so that a broken view is found too.
const expertNamings = `SELECT expert_id, id FROM consultations WHERE expert_id IS NOT NULL
	UNION SELECT reviewer_id, id FROM consultations WHERE reviewer_id IS NOT NULL
	UNION SELECT returned_by, id FROM consultations WHERE returned_by IS NOT NULL
	UNION SELECT handover_from, id FROM consultations WHERE handover_from IS NOT NULL
	UNION SELECT invitee_id, consult_id FROM invitations
	UNION SELECT reviewer_id, consult_id FROM diagnoses WHERE type = 1 AND reviewer_id IS NOT NULL`

// scopeWalk drives cases through their life cycle over the API, one
// transition at a time, each one the server offers now to the one who may
// make it (the actions of the case as each caller reads it).
type scopeWalk struct {
	e       *env
	f       caseFixture
	r       *rand.Rand
	tokens  map[string]string // caller → token
	experts []int64
	expert  map[int64]string // expert id → caller
	idOf    map[string]int64 // caller → expert id
	cases   []string
	numbers int
	done    map[string]int
}

// walkView is what the walk reads of a case.
type walkView struct {
	Data struct {
		Status           int  `json:"status"`
		IsRecall         int  `json:"is_recall"`
		SupplementReview bool `json:"supplement_review"`
		StatusLabel      struct {
			Key string `json:"key"`
		} `json:"status_label"`
		ExpertID     *int64   `json:"expert_id"`
		ReviewerID   *int64   `json:"reviewer_id"`
		HandoverFrom *int64   `json:"handover_from"`
		Actions      []string `json:"actions"`
	} `json:"data"`
}

// walkMoves weighs the transitions the walk makes when they are offered
// (step divides the weight by how often the move was made already): those
// that change who is named on a case (assignment, referral, handover,
// review, return, recall, invitation, a supplement's reviewer, reopening,
// deletion) most, the ones that only lead to them or away from the deeper
// states (a recall, a return to the site) less. Actions not listed name
// nobody and are not made.
var walkMoves = map[string]int{
	"bind_expert": 6, "referral": 3, "expert_referral": 3, "handover": 10, "handover_recall": 12,
	"lock": 10, "unlock": 2, "toreview": 16, "review_approve": 10, "reviewreturn": 10, "reviewrecall": 10,
	"publish": 12, "diagnosis_recall": 6, "publisher_publish": 4, "publisher_return": 6, "diagnosis_amend": 6,
	"expert_return": 2, "return_to_site": 1, "recall": 1, "recall_agree": 6, "recall_reject": 1, "recall_ignore": 1,
	"submit": 6, "consult_again": 6, "delete": 8, "invite": 6, "invite_reply": 6,
	"append_diagnosis": 6, "append_toreview": 12, "append_reviewrecall": 6, "append_approve": 10,
	"append_reviewreturn": 10, "append_publish": 6, "append_discard": 8,
}

func newScopeWalk(e *env, seed uint64) *scopeWalk {
	f := e.fixture()
	w := &scopeWalk{e: e, f: f, r: rand.New(rand.NewPCG(seed, 6)), tokens: map[string]string{}, expert: map[int64]string{},
		idOf: map[string]int64{}, done: map[string]int{}}
	// Four experts of the center, so that most namings are of someone not
	// named on the case already.
	w.experts = []int64{f.expert, f.expert2, e.cloneUser("expert", "expert3", "王三 主治医师"), e.cloneUser("expert2", "expert4", "赵四 主治医师")}
	for i, id := range w.experts {
		name := []string{"expert", "expert2", "expert3", "expert4"}[i]
		w.expert[id], w.idOf[name] = name, id
	}
	for _, a := range []string{"site", "allocator", "publisher", "expert", "expert2", "expert3", "expert4"} {
		w.tokens[a] = e.login(a)
	}
	return w
}

// register adds a charged case with a slide, not submitted.
func (w *scopeWalk) register() string {
	e := w.e
	w.numbers++
	var c caseOut
	e.decode(e.expect(e.do("POST", "/api/consultation", w.tokens["site"], registration(w.f, fmt.Sprintf("BL2026-%05d", 31000+w.numbers), e.slide(w.f.hospital, "site"))), 200), &c)
	id := itoa(c.Data.ID)
	e.expect(e.do("POST", "/api/consultation/charge/"+id, w.tokens["site"], map[string]any{"items": []any{map[string]any{"item_id": w.f.item, "quantity": 1}}}), 200)
	w.cases = append(w.cases, id)
	return id
}

// other picks an expert other than those excluded.
func (w *scopeWalk) other(not ...*int64) int64 {
	var ids []int64
	for _, id := range w.experts {
		if !slices.ContainsFunc(not, func(n *int64) bool { return n != nil && *n == id }) {
			ids = append(ids, id)
		}
	}
	return ids[w.r.IntN(len(ids))]
}

type walkChoice struct{ actor, action string }

// step makes one transition offered on a random case; it returns the
// transition made, "" when the case offered none.
func (w *scopeWalk) step() (string, string) {
	e := w.e
	id := w.cases[w.r.IntN(len(w.cases))]
	var choices []walkChoice
	read := func(a string, hidden bool) walkView {
		var v walkView
		r := e.do("GET", "/api/consultation/resources/"+id, w.tokens[a], nil)
		if hidden && r.Status == 404 {
			return v
		}
		if r.Status != 200 {
			e.t.Fatalf("case %s: %s may not read it: %d %s", id, a, r.Status, r.Body)
		}
		e.decode(r, &v)
		for _, act := range v.Data.Actions {
			if walkMoves[act] > 0 {
				choices = append(choices, walkChoice{a, act})
			}
		}
		return v
	}
	// The site sees its cases in every state; the others are asked only
	// when they may hold one of the moves: the allocator once the center
	// has the case, the publisher in its hesitation period, the experts
	// the case names as its holders (the assigned one, the one who handed
	// it over, the reviewer) and, while a supplement waits for its
	// reviewer, every other expert (the supplement names the reviewer).
	view := read("site", false)
	v := view.Data
	if v.Status != 0 {
		view = read("allocator", false)
		v = view.Data
	}
	if v.StatusLabel.Key == "releasing" {
		read("publisher", false)
	}
	for _, x := range w.experts {
		if x == deref(v.ExpertID) || x == deref(v.HandoverFrom) || x == deref(v.ReviewerID) && v.Status == 2 {
			read(w.expert[x], false)
		} else if v.SupplementReview {
			read(w.expert[x], true) // 404 unless named on the case
		}
	}
	// Answering an invitation is not among a case's actions (it is one
	// invitation's): the invitee may answer while the center has the case.
	var inv struct {
		Data []struct {
			ID        int64 `json:"id"`
			InviteeID int64 `json:"invitee_id"`
			Status    int   `json:"status"`
		} `json:"data"`
	}
	pending := map[int64]int64{}
	if v.Status != 0 {
		e.decode(e.expect(e.do("GET", "/api/diagnosis/"+id+"/invited", w.tokens["allocator"], nil), 200), &inv)
	}
	for _, i := range inv.Data {
		if i.Status == 0 {
			pending[i.InviteeID] = i.ID
			if v.IsRecall == 0 {
				choices = append(choices, walkChoice{w.expert[i.InviteeID], "invite_reply"})
			}
		}
	}
	if len(choices) == 0 {
		return id, ""
	}
	// The rarer a move has been so far, the likelier it is chosen when
	// offered, so that the moves deep in the life cycle happen too.
	weight := func(c walkChoice) int { return 1 + walkMoves[c.action]*24/(1+w.done[c.action]) }
	total := 0
	for _, c := range choices {
		total += weight(c)
	}
	n := w.r.IntN(total)
	var c walkChoice
	for _, c = range choices {
		if n -= weight(c); n < 0 {
			break
		}
	}
	tok, me := w.tokens[c.actor], w.idOf[c.actor]
	d := "/api/diagnosis/" + id
	ok := func(r resp) {
		e.t.Helper()
		if r.Status != 200 {
			e.t.Fatalf("case %s: %s by %s, offered, refused: %d %s", id, c.action, c.actor, r.Status, r.Body)
		}
	}
	// written: the working diagnosis (or supplement) has an opinion, so it
	// may be sent to review or published; writing again is only needed
	// when it is empty.
	written := func(path string, send func() resp) {
		r := send()
		if r.Status == 422 && strings.Contains(string(r.Body), "opinion") {
			ok(e.do("POST", d+path, tok, map[string]any{"microscopic": "胃窦黏膜慢性炎。", "opinion": "（胃窦）慢性浅表性胃炎。"}))
			r = send()
		}
		ok(r)
	}
	switch c.action {
	case "bind_expert":
		ok(e.do("POST", "/api/distribute/"+id+"/bindexpert", tok, map[string]any{"expert_id": w.other()}))
	case "referral":
		ok(e.do("POST", "/api/distribute/"+id+"/referral", tok, map[string]any{"expert_id": w.other(v.ExpertID), "reason": "工作量"}))
	case "expert_referral":
		ok(e.do("POST", d+"/referral", tok, map[string]any{"expert_id": w.other(&me), "reason": "专长"}))
	case "handover":
		ok(e.do("POST", d+"/handover", tok, map[string]any{"expert_id": w.other(&me), "note": "交班"}))
	case "handover_recall":
		ok(e.do("POST", "/api/diagnosis/handover/recall/"+id, tok, nil))
	case "lock":
		ok(e.do("POST", d+"/lock", tok, nil))
		ok(e.do("POST", d+"/save", tok, map[string]any{"microscopic": "胃窦黏膜慢性炎。", "opinion": "（胃窦）慢性浅表性胃炎。"}))
	case "unlock":
		ok(e.do("POST", d+"/unlock", tok, nil))
	case "toreview":
		reviewer := w.other(&me)
		written("/save", func() resp { return e.do("POST", d+"/toreview", tok, map[string]any{"reviewer_id": reviewer}) })
	case "review_approve":
		ok(e.do("POST", d+"/review_approve", tok, map[string]any{"note": "同意"}))
	case "reviewreturn":
		ok(e.do("POST", d+"/reviewreturn", tok, map[string]any{"note": "请再看"}))
	case "reviewrecall":
		ok(e.do("POST", d+"/reviewrecall", tok, nil))
	case "publish":
		delayed := w.r.IntN(2) == 0
		written("/save", func() resp {
			return e.do("POST", d+"/publish", tok, map[string]any{"confirm_unviewed": true, "delayed": delayed})
		})
	case "diagnosis_recall":
		ok(e.do("POST", d+"/recall", tok, nil))
	case "publisher_publish":
		ok(e.do("POST", "/api/consultation/publisher/publish/"+id, tok, nil))
	case "publisher_return":
		ok(e.do("POST", "/api/consultation/publisher/return/"+id, tok, map[string]any{"reason": "措辞"}))
	case "diagnosis_amend":
		ok(e.do("POST", d+"/update", tok, map[string]any{"reason": "补充描述"}))
	case "expert_return":
		ok(e.do("POST", d+"/return", tok, map[string]any{"reason": "资料不全"}))
	case "return_to_site":
		ok(e.do("POST", "/api/distribute/"+id+"/return", tok, map[string]any{"reason": "资料不全"}))
	case "recall":
		ok(e.do("POST", "/api/consultation/recall/"+id, tok, map[string]any{"reason": "补充资料"}))
	case "recall_agree", "recall_reject", "recall_ignore":
		ok(e.do("POST", "/api/admin/consultation/"+id+"/recall/"+strings.TrimPrefix(c.action, "recall_"), tok, map[string]any{"reason": "同意"}))
	case "submit":
		ok(e.do("POST", "/api/consultation/submit/"+id, tok, nil))
	case "consult_again":
		ok(e.do("POST", "/api/consultation/consult_again/"+id, tok, nil))
	case "delete":
		ok(e.do("DELETE", "/api/consultation/"+id, tok, nil))
		w.cases = slices.DeleteFunc(w.cases, func(s string) bool { return s == id })
		w.register()
	case "invite":
		var to []int64
		for _, x := range w.experts {
			if _, waiting := pending[x]; x != me && !waiting && w.r.IntN(2) == 0 {
				to = append(to, x)
			}
		}
		if len(to) == 0 {
			return id, ""
		}
		ok(e.do("POST", d+"/invited", tok, map[string]any{"invitee_ids": to, "message": "请看 A2"}))
	case "invite_reply":
		ok(e.do("POST", d+"/invited/"+itoa(pending[me]), tok, map[string]any{"reply": "同意"}))
	case "append_diagnosis":
		ok(e.do("POST", d+"/append_diagnosis", tok, map[string]any{"opinion": "补充：免疫组化 ER(+)。"}))
	case "append_toreview":
		reviewer := w.other(&me)
		written("/append_diagnosis", func() resp {
			return e.do("POST", d+"/append_diagnosis/toreview", tok, map[string]any{"reviewer_id": reviewer})
		})
	case "append_reviewrecall":
		ok(e.do("POST", d+"/append_diagnosis/reviewrecall", tok, nil))
	case "append_approve":
		ok(e.do("POST", d+"/append_diagnosis/approve", tok, map[string]any{"note": "同意"}))
	case "append_reviewreturn":
		ok(e.do("POST", d+"/append_diagnosis/reviewreturn", tok, map[string]any{"note": "请注明克隆号"}))
	case "append_publish":
		written("/append_diagnosis", func() resp { return e.do("POST", d+"/append_diagnosis/publish", tok, nil) })
	case "append_discard":
		var h struct {
			Data []struct {
				ID     int64  `json:"id"`
				Type   int    `json:"type"`
				Status string `json:"status"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, tok, nil), 200), &h)
		var sid int64
		for _, x := range h.Data {
			if x.Type == 1 && x.Status != "published" {
				sid = x.ID
			}
		}
		ok(e.do("DELETE", d+"/append_diagnosis/"+itoa(sid), tok, nil))
	}
	w.done[c.action]++
	return id, c.action
}

// checkNamings fails unless case_experts holds exactly the (expert, case)
// pairs the six conditions name over the base tables, each with the
// current values of its case's columns it copies.
func (w *scopeWalk) checkNamings(t *testing.T, after string) {
	t.Helper()
	type pair struct {
		Expert int64 `db:"expert_id"`
		Case   int64 `db:"case_id"`
	}
	var want, have []pair
	db := w.e.app.DB
	if err := db.Select(&want, "SELECT expert_id, id AS case_id FROM ("+expertNamings+") n ORDER BY expert_id, id"); err != nil {
		t.Fatal(err)
	}
	if err := db.Select(&have, "SELECT expert_id, case_id FROM case_experts ORDER BY expert_id, case_id"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(want, have) {
		t.Fatalf("after %s: case_experts %v, the base tables name %v", after, have, want)
	}
	// The columns of its case each row copies (migrations 0069, 0077, 0083).
	var stale []pair
	if err := db.Select(&stale, `SELECT x.expert_id, x.case_id FROM case_experts x JOIN consultations c ON c.id = x.case_id
		WHERE x.status <> c.status OR x.is_draft <> c.is_draft OR x.is_recall <> c.is_recall OR x.is_return <> c.is_return
		OR x.is_lock <> c.is_lock OR x.supplement_review <> c.supplement_review OR x.print_deliver_status <> c.print_deliver_status
		OR x.assigned <> CASE WHEN c.expert_id IS NULL THEN 0 ELSE 1 END OR x.deleted <> CASE WHEN c.deleted_at IS NULL THEN 0 ELSE 1 END
		OR x.submitted_at IS DISTINCT FROM c.submitted_at OR x.timeout_at IS DISTINCT FROM c.timeout_at
		OR x.remind_at IS DISTINCT FROM c.remind_at OR x.release_at IS DISTINCT FROM c.release_at
		OR x.pathology_number <> c.pathology_number OR x.hospital_id <> c.hospital_id`); err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("after %s: case_experts rows %v copy other values than their case's", after, stale)
	}
	// The experts' tallies (migration 0080) count the rows.
	var off int
	if err := db.Get(&off, expertTallyDiff); err != nil {
		t.Fatal(err)
	}
	if off > 0 {
		t.Fatalf("after %s: %d keys of case_expert_tallies differ from the counts of case_experts", after, off)
	}
}

// expertTallyDiff counts the keys whose case_expert_tallies count is not
// the number of case_experts rows of that key (a zero tally is no key).
const expertTallyDiff = `SELECT
	(SELECT COUNT(*) FROM (SELECT ` + expertTallyKey + `, n FROM case_expert_tallies WHERE n <> 0
		EXCEPT SELECT ` + expertTallyKey + `, COUNT(*) FROM case_experts GROUP BY ` + expertTallyKey + `) a) +
	(SELECT COUNT(*) FROM (SELECT ` + expertTallyKey + `, COUNT(*) FROM case_experts GROUP BY ` + expertTallyKey + `
		EXCEPT SELECT ` + expertTallyKey + `, n FROM case_expert_tallies WHERE n <> 0) b)`

const expertTallyKey = "expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id"

// checkTabs fails unless each expert's tabs list, and count, the cases the
// old scope selects.
func (w *scopeWalk) checkTabs(t *testing.T, after string) {
	t.Helper()
	e := w.e
	for _, u := range w.experts {
		tok := w.tokens[w.expert[u]]
		var counts struct {
			Data map[string]int64 `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/consultation/count?params="+url.QueryEscape(`{}`), tok, nil), 200), &counts)
		for _, tab := range []string{"all", "pending", "diagnosing", "to_review", "completed", "returned_center", "recall"} {
			var old []int64
			cond := map[string]string{"all": "1=1", "pending": "c.status = 1 AND c.expert_id IS NOT NULL AND c.is_lock = 0 AND c.is_recall = 0",
				"diagnosing": "c.status = 1 AND c.expert_id IS NOT NULL AND c.is_lock = 1 AND c.is_recall = 0",
				"to_review":  "(c.status = 2 OR c.supplement_review = 1)", "completed": "c.status = 4",
				"returned_center": "c.status = 1 AND c.is_return = 1", "recall": "c.is_recall IN (1, 2)"}[tab]
			if err := e.app.DB.Select(&old, e.app.DB.Rebind("SELECT c.id FROM consultations c WHERE "+expertScopeBefore+" AND "+cond+" ORDER BY c.id DESC"), u, u, u, u, u, u); err != nil {
				t.Fatal(err)
			}
			var list struct {
				Data []struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/list?page_size=100&params="+url.QueryEscape(`{"tab":"`+tab+`"}`), tok, nil), 200), &list)
			var got []int64
			for _, c := range list.Data {
				got = append(got, c.ID)
			}
			if !slices.Equal(got, old) {
				t.Errorf("after %s: expert %d, tab %s: listed %v, the old scope selects %v", after, u, tab, got, old)
			}
			// A page of one row counts the total (see listquery.Run).
			var one struct {
				Meta struct {
					Pagination struct {
						Total int64 `json:"total"`
					} `json:"pagination"`
				} `json:"meta"`
			}
			e.decode(e.expect(e.do("GET", "/api/consultation/list?page_size=1&params="+url.QueryEscape(`{"tab":"`+tab+`"}`), tok, nil), 200), &one)
			if one.Meta.Pagination.Total != int64(len(old)) {
				t.Errorf("after %s: expert %d, tab %s: total %d, the old scope selects %d", after, u, tab, one.Meta.Pagination.Total, len(old))
			}
			if counts.Data[tab] != int64(len(old)) {
				t.Errorf("after %s: expert %d, tab %s: counted %d, the old scope selects %d", after, u, tab, counts.Data[tab], len(old))
			}
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// TestExpertScopeAfterRandomTransitions drives cases over the API through a
// random walk of their life cycle: at each step a random case, and one of
// the transitions the server offers on it now to whoever may make it
// (weighted towards those that change who is named on the case: assign,
// refer, hand over and take back, send to review and answer or take back,
// return to the center and to the site, recall, invite and answer, a
// supplement sent to a reviewer, answered, published or discarded, reopen,
// submit again, delete). After every step case_experts must equal the
// (expert, case) pairs the six conditions name over the base tables — a
// stale row is found before a later write to its case recomputes it away
// — and every 50 steps, and at the end, each expert's seven tabs and their
// counts must hold exactly the cases the old scope selects.
func TestExpertScopeAfterRandomTransitions(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		w := newScopeWalk(e, 5)
		// Ten cases: two never submitted, two to allot, three assigned and
		// three with a released report (where supplements are written).
		for i := range 10 {
			id := w.register()
			if i < 2 {
				continue
			}
			e.expect(e.do("POST", "/api/consultation/submit/"+id, w.tokens["site"], nil), 200)
			if i < 4 {
				continue
			}
			x := w.experts[i%len(w.experts)]
			e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", w.tokens["allocator"], map[string]any{"expert_id": x}), 200)
			if i < 7 {
				continue
			}
			tok, d := w.tokens[w.expert[x]], "/api/diagnosis/"+id
			e.expect(e.do("POST", d+"/lock", tok, nil), 200)
			e.expect(e.do("POST", d+"/save", tok, map[string]any{"microscopic": "胃窦黏膜慢性炎。", "opinion": "（胃窦）慢性浅表性胃炎。"}), 200)
			e.expect(e.do("POST", d+"/publish", tok, map[string]any{"confirm_unviewed": true}), 200)
		}
		w.checkNamings(t, "the start")
		const steps = 200
		for i := range steps {
			id, act := w.step()
			w.checkNamings(t, fmt.Sprintf("step %d (%s on case %s)", i, act, id))
			if (i+1)%50 == 0 {
				w.checkTabs(t, fmt.Sprintf("step %d", i))
			}
		}
		kinds := make([]string, 0, len(w.done))
		for k := range w.done {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		var b strings.Builder
		for _, k := range kinds {
			fmt.Fprintf(&b, " %s:%d", k, w.done[k])
		}
		t.Logf("transitions made:%s", b.String())
		// Every transition that changes who is named on a case happened.
		for _, k := range []string{"bind_expert", "referral", "expert_referral", "handover", "handover_recall", "lock", "toreview",
			"review_approve", "reviewreturn", "reviewrecall", "publish", "diagnosis_amend", "expert_return", "return_to_site",
			"recall_agree", "consult_again", "delete", "invite", "invite_reply", "append_toreview", "append_approve",
			"append_reviewreturn", "append_discard"} {
			if w.done[k] < 3 {
				t.Errorf("%s made %d times", k, w.done[k])
			}
		}
	})
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
