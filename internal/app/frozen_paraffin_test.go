package app_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

type paraffinAppt struct {
	frozenAppt
	FrozenOpinion     *string `json:"frozen_opinion"`
	ParaffinCaseID    *int64  `json:"paraffin_case_id"`
	ParaffinConsultNo *string `json:"paraffin_consult_no"`
	ParaffinPublished bool    `json:"paraffin_published"`
	Concordance       string  `json:"concordance"`
	ConcordanceNote   string  `json:"concordance_note"`
	ConcordanceBy     *string `json:"concordance_by"`
}

// reportedFrozen books a frozen section with expert on duty (today and tomorrow), turns it into
// a frozen case and has the expert publish a malignant frozen verdict; it
// returns the appointment's path and the frozen case's id.
func (e *env) reportedFrozen() (string, string) {
	e.t.Helper()
	alloc, site, expert := e.login("allocator"), e.login("site"), e.login("expert")
	g := data[frozenGroup](e, e.expect(e.do("POST", "/api/schedule/group", alloc, map[string]any{"center_id": e.centerID("EC"), "name": "G", "period_name": "P",
		"member_ids": []int64{e.userID("expert")}, "shifts": []map[string]any{{"name": "全天", "sessions": []map[string]string{{"start": "00:00", "end": "23:59"}}}}}), 200))
	// Today and tomorrow: bookings a few minutes ahead stay on duty across local midnight.
	duty := []map[string]any{}
	for d := range 2 {
		duty = append(duty, map[string]any{"day": today(d), "user_id": e.userID("expert"), "shift_id": g.Shifts[0].ID})
	}
	e.expect(e.do("PUT", "/api/schedule/duty", alloc, map[string]any{"group_id": g.ID, "version": g.Version, "start": today(0), "days": 2,
		"assignments": duty}), 200)
	a := data[frozenAppt](e, e.expect(e.do("POST", "/api/frozen/appointment", site, map[string]any{"center_id": e.centerID("EC"), "patient_name": "赵冰冻",
		"operation_at": time.Now().Add(5 * time.Minute).UTC().Format(time.RFC3339), "surgeon": "S", "phone": "13800000000", "specimen_site": "甲状腺左叶",
		"gender": "female", "age": "40"}), 200))
	p := fmt.Sprintf("/api/frozen/appointment/%d", a.ID)
	e.expect(e.do("POST", p+"/accept", alloc, nil), 200)
	a = data[frozenAppt](e, e.expect(e.do("POST", p+"/arrive", site, map[string]any{"case": map[string]any{"id_number": "11010519491231002X"}}), 200))
	caseID := fmt.Sprint(*a.ConsultationID)
	d := "/api/diagnosis/" + caseID
	e.expect(e.do("POST", d+"/lock", expert, nil), 200)
	e.expect(e.do("POST", d+"/save", expert, map[string]any{"opinion": "（甲状腺左叶）恶性，乳头状癌。", "frozen_verdict": "malignant"}), 200)
	e.expect(e.do("POST", d+"/publish", expert, map[string]any{"confirm_unviewed": true}), 200)
	return p, caseID
}

// The paraffin case follows the reported frozen case (after_frozen_paraffin_block):
// registered by the site as a draft prefilled from the frozen case, linked
// once; after its report, its expert or the center judges the concordance.
func TestFrozenParaffinConcordance(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		site, site2, alloc, expert, expert2 := e.login("site"), e.login("site2"), e.login("allocator"), e.login("expert"), e.login("expert2")
		p, frozenID := e.reportedFrozen()

		// Before the paraffin case: nobody judges; only the booking hospital registers it.
		refusedBoth(t, e, "POST", p+"/concordance", alloc, map[string]any{"concordance": "concordant"}, 409, "", "frozen_appointments")
		e.expect(e.do("POST", p+"/paraffin", site2, nil), 404)
		e.expect(e.do("POST", p+"/paraffin", alloc, nil), 403)
		a := data[paraffinAppt](e, e.expect(e.do("GET", p, site, nil), 200))
		if fmt.Sprint(a.Actions) != "[after_frozen_paraffin_block]" || a.ParaffinCaseID != nil {
			t.Fatalf("site before the paraffin case: %+v", a)
		}
		cases := e.count("consultations", "")
		a = data[paraffinAppt](e, e.expect(e.do("POST", p+"/paraffin", site, nil), 200))
		if a.ParaffinCaseID == nil || a.ParaffinConsultNo == nil || len(a.Actions) != 0 || e.count("consultations", "") != cases+1 {
			t.Fatalf("paraffin registered: %+v", a)
		}
		paraffinID := fmt.Sprint(*a.ParaffinCaseID)
		// A draft of the hospital, prefilled: the patient, the frozen case's number as the original one, the frozen tissue as a block.
		var draft struct {
			Data struct {
				IsDraft   int             `json:"is_draft"`
				Case      json.RawMessage `json:"case"`
				Specimens []struct {
					Name         string `json:"name"`
					SpecimenType string `json:"specimen_type"`
				} `json:"specimens"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+paraffinID, site, nil), 200), &draft)
		var reg struct {
			Name, IDNumber, Original, Number string
		}
		var raw map[string]any
		json.Unmarshal(draft.Data.Case, &raw)
		reg.Name, _ = raw["name"].(string)
		reg.IDNumber, _ = raw["id_number"].(string)
		reg.Original, _ = raw["original_pathology_number"].(string)
		reg.Number, _ = raw["pathology_number"].(string)
		var frozenNumber string
		e.app.DB.Get(&frozenNumber, e.app.DB.Rebind("SELECT pathology_number FROM consultations WHERE id = ?"), frozenID)
		if draft.Data.IsDraft != 1 || reg.Name != "赵冰冻" || reg.IDNumber != "11010519491231002X" || reg.Original != frozenNumber || reg.Number != "" ||
			len(draft.Data.Specimens) != 1 || draft.Data.Specimens[0].SpecimenType != "ex_paraffin_block" {
			t.Fatalf("paraffin draft: %+v %s", draft.Data, draft.Data.Case)
		}
		// Linked once.
		refusedBoth(t, e, "POST", p+"/paraffin", site, nil, 409, "", "consultations")

		// A discarded draft is no link: the site may register the paraffin case again.
		e.expect(e.do("DELETE", "/api/consultation/"+paraffinID, site, nil), 200)
		a = data[paraffinAppt](e, e.expect(e.do("GET", p, site, nil), 200))
		if a.ParaffinCaseID != nil || fmt.Sprint(a.Actions) != "[after_frozen_paraffin_block]" {
			t.Fatalf("after the draft was deleted: %+v", a)
		}
		a = data[paraffinAppt](e, e.expect(e.do("POST", p+"/paraffin", site, nil), 200))
		paraffinID = fmt.Sprint(*a.ParaffinCaseID)

		// The site completes and submits it; the allocator gives it to expert2, who publishes.
		e.expect(e.do("POST", "/api/consultation/"+paraffinID, site, registration(f, "BL2026-00077", e.slide(f.hospital, "site"))), 200)
		e.expect(e.do("POST", "/api/consultation/charge/"+paraffinID, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
		e.expect(e.do("POST", "/api/consultation/submit/"+paraffinID, site, nil), 200)
		e.expect(e.do("POST", "/api/distribute/"+paraffinID+"/bindexpert", alloc, map[string]any{"expert_id": f.expert2}), 200)
		// The paraffin expert finds the frozen diagnosis by the paraffin case, and cannot judge before publishing.
		byCase := data[[]paraffinAppt](e, e.expect(e.do("GET", "/api/frozen/appointment/lists?params="+`{"paraffin_case_id":`+paraffinID+`}`, expert2, nil), 200))
		if len(byCase) != 1 || byCase[0].FrozenOpinion == nil || *byCase[0].FrozenOpinion != "（甲状腺左叶）恶性，乳头状癌。" || byCase[0].FrozenVerdict == nil || len(byCase[0].Actions) != 0 {
			t.Fatalf("expert2 by the paraffin case: %+v", byCase)
		}
		refusedBoth(t, e, "POST", p+"/concordance", expert2, map[string]any{"concordance": "concordant"}, 409, "", "frozen_appointments")
		d := "/api/diagnosis/" + paraffinID
		e.expect(e.do("POST", d+"/lock", expert2, nil), 200)
		e.expect(e.do("POST", d+"/save", expert2, map[string]any{"opinion": "（甲状腺左叶）结节性甲状腺肿，未见恶性。"}), 200)
		e.expect(e.do("POST", d+"/publish", expert2, map[string]any{"confirm_unviewed": true}), 200)

		a = data[paraffinAppt](e, e.expect(e.do("GET", p, expert2, nil), 200))
		if !a.ParaffinPublished || fmt.Sprint(a.Actions) != "[concordance]" {
			t.Fatalf("paraffin published: %+v", a)
		}
		// The frozen expert, the site and another hospital do not judge.
		refusedBoth(t, e, "POST", p+"/concordance", expert, map[string]any{"concordance": "concordant"}, 409, "", "frozen_appointments")
		e.expect(e.do("POST", p+"/concordance", site, map[string]any{"concordance": "concordant"}), 403)
		// Bad input: unknown value; discordant without saying how.
		refusedBoth(t, e, "POST", p+"/concordance", expert2, map[string]any{"concordance": "maybe"}, 422, "concordance", "frozen_appointments")
		refusedBoth(t, e, "POST", p+"/concordance", expert2, map[string]any{"concordance": "discordant", "note": "  "}, 422, "note", "frozen_appointments")
		a = data[paraffinAppt](e, e.expect(e.do("POST", p+"/concordance", expert2, map[string]any{"concordance": "discordant", "note": "冰冻误判为恶性：石蜡为结节性甲状腺肿"}), 200))
		if a.Concordance != "discordant" || a.ConcordanceBy == nil || *a.ConcordanceBy != "刘芳 副主任医师" || a.ConcordanceNote == "" {
			t.Fatalf("judged: %+v", a)
		}
		// The center may revise it; the list filters by it.
		a = data[paraffinAppt](e, e.expect(e.do("POST", p+"/concordance", alloc, map[string]any{"concordance": "concordant"}), 200))
		if a.Concordance != "concordant" || a.ConcordanceNote != "" {
			t.Fatalf("revised: %+v", a)
		}
		if l := data[[]paraffinAppt](e, e.expect(e.do("GET", "/api/frozen/appointment/lists?params="+`{"concordance":"concordant"}`, alloc, nil), 200)); len(l) != 1 {
			t.Fatalf("by concordance: %d", len(l))
		}
		if n := e.count("audit_logs", "action = 'frozen.concordance'"); n != 2 {
			t.Errorf("audited judgements: %d", n)
		}
	})
}

// The after_frozen_paraffin_block diagnosis setting: off, a reported frozen
// case offers no paraffin case and refuses to register one; a center's own
// copy turns it back on for that center.
func TestFrozenParaffinSetting(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, ca, site := e.login("admin"), e.login("center_admin"), e.login("site")
		p, _ := e.reportedFrozen()
		e.expect(e.do("POST", "/api/config/common/setting", admin, map[string]any{"settings": map[string]any{"after_frozen_paraffin_block": false}}), 200)
		if a := data[paraffinAppt](e, e.expect(e.do("GET", p, site, nil), 200)); len(a.Actions) != 0 {
			t.Fatalf("paraffin offered while off: %v", a.Actions)
		}
		refusedBoth(t, e, "POST", p+"/paraffin", site, nil, 409, "", "consultations")
		e.expect(e.do("POST", "/api/config/common/setting", ca, map[string]any{"settings": map[string]any{"after_frozen_paraffin_block": true}}), 200)
		if a := data[paraffinAppt](e, e.expect(e.do("GET", p, site, nil), 200)); fmt.Sprint(a.Actions) != "[after_frozen_paraffin_block]" {
			t.Fatalf("the center's copy does not turn it on: %v", a.Actions)
		}
		e.expect(e.do("POST", p+"/paraffin", site, nil), 200)
	})
}
