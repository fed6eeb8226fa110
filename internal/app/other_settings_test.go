package app_test

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

func (e *env) setSystem(over map[string]any) {
	e.t.Helper()
	e.expect(e.do("PUT", "/api/config/setting", e.login("admin"), systemInput(over)), 200)
}

func (e *env) caseActions(id, token string) []string {
	e.t.Helper()
	var c struct {
		Data struct {
			Actions []string `json:"actions"`
		} `json:"data"`
	}
	e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, token, nil), 200), &c)
	return c.Data.Actions
}

// rollback_need_check off: a site's recall is agreed at once, in the same
// request; every recall of the life cycle matrix then ends recalled, and a
// case's actions stay exact (listed ⇔ the call succeeds).
func TestRecallWithoutCenterCheck(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		type system struct {
			RollbackNeedCheck bool `json:"rollback_need_check"`
			SupplementReport  bool `json:"supplement_report"`
			AllocateToThird   bool `json:"allocate_to_third"`
		}
		if s := data[system](e, e.expect(e.do("GET", "/api/config/setting", "", nil), 200)); !s.RollbackNeedCheck || !s.SupplementReport || s.AllocateToThird {
			t.Fatalf("defaults: %+v", s)
		}
		m := &matrix{e: e, f: e.fixture(), tokens: map[string]string{}}
		for _, r := range matrixRoles {
			if r != "" {
				m.tokens[r] = e.login(r)
			}
		}
		shared := map[string]string{}
		for _, st := range matrixStates {
			shared[st] = m.build(st) // withdraw_unconfirmed needs the check on
		}
		e.setSystem(map[string]any{"rollback_need_check": false})
		var recalls []matrixAction
		for _, a := range matrixActions() {
			switch a.name {
			case "recall", "batch_recall":
				a.ends = func(string) string { return "recalled" }
				recalls = append(recalls, a)
			case "consult_again": // (a case waiting for the center's answer cannot be built now)
				recalls = append(recalls, a)
			}
		}
		m.checkListed(t, shared, recalls)
		allowed, refused := m.run(t, recalls, shared)
		t.Logf("%d allowed and %d refused requests checked", allowed, refused)

		// The same end, log, notifications and audit as a recall the center agreed.
		f := m.f
		id := e.submittedCase(f, "BL2026-16301", f.expert)
		e.expect(e.do("POST", "/api/consultation/recall/"+id, m.tokens["site"], map[string]any{"reason": "临床资料有误"}), 200)
		if n := e.count("consultations", "id = "+id+" AND expert_id IS NULL AND is_recall = 2 AND status = 0"); n != 1 {
			t.Fatal("recall not agreed at once")
		}
		for _, act := range []string{"recall", "recall_agree"} {
			if n := e.count("case_logs", "consult_id = "+id+" AND action = '"+act+"'"); n != 1 {
				t.Errorf("%s log lines: %d", act, n)
			}
		}
		if n := e.count("notifications", "consult_id = "+id+" AND event = 'case.recall_agreed'"); n == 0 {
			t.Error("nobody told of the agreed recall")
		}
		if acts := e.caseActions(id, m.tokens["site"]); !slices.Contains(acts, "consult_again") {
			t.Errorf("recalled case actions: %v", acts)
		}
	})
}

// supplement_report off: the supplement is neither offered nor accepted;
// published supplements stay readable.
func TestSupplementReportSetting(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		expert := e.login("expert")
		id := e.publishedCase(f, "BL2026-16401", false)
		d := "/api/diagnosis/" + id
		if !slices.Contains(e.caseActions(id, expert), "append_diagnosis") {
			t.Fatal("supplement not offered by default")
		}
		e.expect(e.do("POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：免疫组化 CK(+)。"}), 200)
		e.expect(e.do("POST", d+"/append_diagnosis/publish", expert, nil), 200)

		e.setSystem(map[string]any{"supplement_report": false})
		if acts := e.caseActions(id, expert); slices.Contains(acts, "append_diagnosis") {
			t.Fatalf("supplement offered while off: %v", acts)
		}
		refusedBoth(t, e, "POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：再次补充。"}, 409, "", "diagnoses")
		var h struct {
			Data []struct {
				Type    int    `json:"type"`
				Opinion string `json:"opinion"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", d, e.login("site"), nil), 200), &h)
		if !slices.ContainsFunc(h.Data, func(x struct {
			Type    int    `json:"type"`
			Opinion string `json:"opinion"`
		}) bool {
			return x.Opinion == "补充：免疫组化 CK(+)。"
		}) {
			t.Fatalf("published supplement unreadable: %+v", h.Data)
		}

		e.setSystem(map[string]any{"supplement_report": true})
		if !slices.Contains(e.caseActions(id, expert), "append_diagnosis") {
			t.Fatal("supplement not offered once on again")
		}
		e.expect(e.do("POST", d+"/append_diagnosis", expert, map[string]any{"opinion": "补充：再次补充。"}), 200)
	})
}

// allocate_to_third off (the default): special exams are not passed to a
// third party; the case does not list the transfer.
func TestAllocateToThirdSetting(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-16501", f.expert)
		expert, site := e.login("expert"), e.login("site")
		var ad struct {
			Data []struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("POST", "/api/diagnosis/"+id+"/advice", expert, map[string]any{"kind": "special", "items": []any{
			map[string]any{"item": "immunohistochemisty", "markers": "CK", "block": "A1"}}}), 200), &ad)
		transfer := "/api/consultation/advice/transfer/" + itoa(ad.Data[0].ID)
		body := map[string]any{"third_id": e.userID("third")}
		if slices.Contains(e.caseActions(id, site), "advice_transfer") {
			t.Fatal("transfer offered while off")
		}
		refusedBoth(t, e, "POST", transfer, site, body, 409, "", "audit_logs")
		if n := e.count("advices", "third_id IS NOT NULL"); n != 0 {
			t.Fatal("a refused transfer wrote")
		}
		e.allowThirds()
		if !slices.Contains(e.caseActions(id, site), "advice_transfer") {
			t.Fatal("transfer not offered once on")
		}
		e.expect(e.do("POST", transfer, site, body), 200)
	})
}

// rollback_need_check applies to frozen-section appointments as to cases:
// on (the default), the site's recall waits for the allocator; off, it is
// agreed at once in the same request, with both steps audited and told.
func TestFrozenRecallWithoutCenterCheck(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		alloc, site := e.login("allocator"), e.login("site")
		e.reportedFrozen() // a duty schedule for today and tomorrow
		book := func() string {
			a := data[frozenAppt](e, e.expect(e.do("POST", "/api/frozen/appointment", site, map[string]any{"center_id": e.centerID("EC"), "patient_name": "撤回",
				"operation_at": time.Now().Add(30 * time.Minute).UTC().Format(time.RFC3339), "surgeon": "S", "phone": "13800000000", "specimen_site": "X"}), 200))
			return fmt.Sprintf("/api/frozen/appointment/%d", a.ID)
		}

		// On: the recall waits for the allocator.
		asked := book()
		if a := data[frozenAppt](e, e.expect(e.do("POST", asked+"/recall", site, map[string]any{"reason": "改期"}), 200)); a.IsRecall != 1 || a.Phase != "recall_asked" {
			t.Fatalf("with the check on: %+v", a)
		}

		// Off: applying and pending appointments are recalled at once.
		e.setSystem(map[string]any{"rollback_need_check": false})
		applying, pending := book(), book()
		e.expect(e.do("POST", pending+"/accept", alloc, nil), 200)
		for _, p := range []string{applying, pending} {
			id := p[len("/api/frozen/appointment/"):]
			a := data[frozenAppt](e, e.expect(e.do("POST", p+"/recall", site, map[string]any{"reason": "手术取消"}), 200))
			if a.IsRecall != 2 || a.Phase != "recalled" || len(a.Actions) != 0 {
				t.Fatalf("with the check off: %+v", a)
			}
			for _, act := range []string{"frozen.recall", "frozen.recall_agree"} {
				if n := e.count("audit_logs", "action = '"+act+"' AND object_id = '"+id+"'"); n != 1 {
					t.Errorf("%s audit rows of %s: %d", act, id, n)
				}
			}
			if n := e.count("notifications", "event = 'frozen.recall_agreed'"); n == 0 {
				t.Error("nobody told of the agreed recall")
			}
			// Nothing is left for the allocator to answer.
			refusedBoth(t, e, "POST", p+"/recall/agree", alloc, nil, 409, "", "frozen_appointments")
		}
		// A recall already waiting is still the allocator's to answer.
		if a := data[frozenAppt](e, e.expect(e.do("POST", asked+"/recall/agree", alloc, nil), 200)); a.Phase != "recalled" {
			t.Fatalf("waiting recall: %+v", a)
		}
	})
}
