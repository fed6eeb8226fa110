package consultation

import (
	"slices"
	"testing"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
)

// states covers every display status.
var states = map[string]State{
	"draft":                    {IsDraft: 1},
	"to_be_submitted":          {},
	"to_allot":                 {Status: StatusSubmitted},
	"pending_diagnosis":        {Status: StatusSubmitted, Assigned: true},
	"diagnosing":               {Status: StatusSubmitted, Assigned: true, IsLock: 1},
	"to_review":                {Status: StatusToReview, Assigned: true},
	"published":                {Status: StatusCompleted, Assigned: true},
	"withdraw_unconfirmed":     {Status: StatusSubmitted, Assigned: true, IsRecall: RecallRequested},
	"recalled":                 {IsRecall: RecallAgreed},
	"returned_to_site":         {IsReturn: ReturnToSite},
	"returned_to_center":       {Status: StatusSubmitted, IsReturn: ReturnToCenter},
	"counter_audit_to_confirm": {Status: StatusCompleted, Assigned: true, ManageConfirm: 2},
	"counter_audit_rejected":   {Status: StatusCompleted, Assigned: true, ManageConfirm: 3},
	"releasing":                {Status: StatusCompleted, Assigned: true, Releasing: true},
	"supplement_to_review":     {Status: StatusCompleted, Assigned: true, SupplementReview: true},
}

// allowedFrom is the life cycle written out by hand: which display statuses
// each transition may start from. The table in lifecycle.go must agree.
var allowedFrom = map[Action][]string{
	"update":                {"draft", "to_be_submitted", "recalled", "returned_to_site"},
	"delete":                {"draft", "to_be_submitted"},
	"submit":                {"draft", "to_be_submitted"},
	"consult_again":         {"recalled", "returned_to_site"},
	"recall":                {"to_allot", "pending_diagnosis", "diagnosing", "to_review", "returned_to_center"},
	"recall_agree":          {"withdraw_unconfirmed"},
	"recall_reject":         {"withdraw_unconfirmed"},
	"recall_ignore":         {"withdraw_unconfirmed"},
	"bind_expert":           {"to_allot", "returned_to_center"},
	"referral":              {"pending_diagnosis"},
	"return_to_site":        {"to_allot", "pending_diagnosis", "returned_to_center"},
	"lock":                  {"pending_diagnosis"},
	"unlock":                {"diagnosing"},
	"save":                  {"diagnosing"},
	"toreview":              {"diagnosing"},
	"review_approve":        {"to_review"},
	"reviewreturn":          {"to_review"},
	"reviewrecall":          {"to_review"},
	"publish":               {"diagnosing"},
	"diagnosis_recall":      {"releasing"},
	"expert_return":         {"pending_diagnosis", "diagnosing"},
	"delay":                 {"pending_diagnosis", "diagnosing", "to_review"},
	"invite":                {"pending_diagnosis", "diagnosing", "to_review"},
	"append_diagnosis":      {"published", "counter_audit_to_confirm", "counter_audit_rejected"},
	"append_publish":        {"published", "counter_audit_to_confirm", "counter_audit_rejected"},
	"append_discard":        {"published", "counter_audit_to_confirm", "counter_audit_rejected"},
	"append_toreview":       {"published", "counter_audit_to_confirm", "counter_audit_rejected"},
	"append_reviewrecall":   {"supplement_to_review"},
	"append_approve":        {"supplement_to_review"},
	"append_reviewreturn":   {"supplement_to_review"},
	"report_print":          {"published", "counter_audit_to_confirm", "counter_audit_rejected", "supplement_to_review"},
	"counter_audit":         {"published", "counter_audit_rejected"},
	"counter_audit_confirm": {"counter_audit_to_confirm"},
	"counter_audit_reject":  {"counter_audit_to_confirm"},
	"report_deliver":        {"published", "counter_audit_to_confirm", "counter_audit_rejected", "supplement_to_review"},
	"expert_referral":       {"pending_diagnosis", "diagnosing"},
	"handover":              {"pending_diagnosis", "diagnosing"},
	"handover_recall":       {"pending_diagnosis"},
	"publisher_publish":     {"releasing"},
	"publisher_return":      {"releasing"},
	"change_first_result":   {"counter_audit_to_confirm", "counter_audit_rejected"},
	"advice":                {"pending_diagnosis", "diagnosing", "to_review"},
	"advice_cancel":         {"pending_diagnosis", "diagnosing", "to_review"},
	"save_shots":            {"pending_diagnosis", "diagnosing", "to_review"},
	"diagnosis_amend":       {"published", "counter_audit_rejected"},
	"slide_judge":           {"pending_diagnosis", "diagnosing", "to_review", "published", "counter_audit_to_confirm", "counter_audit_rejected", "releasing", "supplement_to_review"},
	"share":                 {"to_allot", "pending_diagnosis", "diagnosing", "to_review", "published", "withdraw_unconfirmed", "returned_to_center", "counter_audit_to_confirm", "counter_audit_rejected", "releasing", "supplement_to_review"},
	"meeting":               {"pending_diagnosis", "diagnosing", "to_review"},
	"shots_update":          {"pending_diagnosis", "diagnosing", "to_review"},
	"advice_execute": {"to_allot", "pending_diagnosis", "diagnosing", "to_review", "published", "releasing", "returned_to_center",
		"counter_audit_to_confirm", "counter_audit_rejected", "supplement_to_review"},
	"advice_transfer": {"to_allot", "pending_diagnosis", "diagnosing", "to_review", "published", "releasing", "returned_to_center",
		"counter_audit_to_confirm", "counter_audit_rejected", "supplement_to_review"},
	"advice_update":  {"pending_diagnosis", "diagnosing", "to_review"},
	"advice_results": {"pending_diagnosis", "diagnosing", "to_review"},
	"invite_reply": {"to_allot", "pending_diagnosis", "diagnosing", "to_review", "published", "releasing", "returned_to_center",
		"counter_audit_to_confirm", "counter_audit_rejected", "supplement_to_review"},
}

// endsIn is where each transition leads.
var endsIn = map[Action]string{
	"submit": "to_allot", "consult_again": "to_allot", "recall": "withdraw_unconfirmed", "recall_agree": "recalled",
	"bind_expert": "pending_diagnosis", "referral": "pending_diagnosis", "return_to_site": "returned_to_site",
	"lock": "diagnosing", "unlock": "pending_diagnosis", "toreview": "to_review", "publish": "published",
	"diagnosis_recall": "diagnosing", "expert_return": "returned_to_center",
	"counter_audit": "counter_audit_to_confirm", "counter_audit_confirm": "diagnosing", "diagnosis_amend": "diagnosing", "counter_audit_reject": "counter_audit_rejected",
	"expert_referral": "pending_diagnosis", "handover": "pending_diagnosis", "handover_recall": "pending_diagnosis",
	"publisher_publish": "published", "publisher_return": "pending_diagnosis",
	"append_reviewrecall": "published", "append_approve": "published", "append_reviewreturn": "published",
}

func TestLabelsOfEveryState(t *testing.T) {
	for want, st := range states {
		if got := LabelKey(st); got != want {
			t.Errorf("%+v: label %q, want %q", st, got, want)
		}
		for _, lang := range i18n.Langs {
			if l := Label(lang, st); l.Color == "" || !i18n.Has("case.status."+l.Key) {
				t.Errorf("%s: no colour or no %s text", want, lang)
			}
		}
	}
}

func TestEveryTransitionFromEveryStateForEveryRole(t *testing.T) {
	if len(allowedFrom) != len(Transitions) {
		t.Fatalf("the hand-written table has %d transitions, lifecycle.go %d", len(allowedFrom), len(Transitions))
	}
	for name, tr := range Transitions {
		if !i18n.Has("case.action." + string(name)) {
			t.Errorf("no text for action %s", name)
		}
		for label, st := range states {
			for _, role := range access.Roles {
				p := &access.Principal{Roles: []string{role}}
				_, err := Check(p, name, st)
				roleOK := p.HasAny(tr.Roles)
				stateOK := slices.Contains(allowedFrom[name], label)
				switch {
				case roleOK && stateOK && err != nil:
					t.Errorf("%s from %s as %s refused: %v", name, label, role, err)
				case !roleOK && apperr.CodeOf(err) != apperr.Forbidden:
					t.Errorf("%s as %s: %v, want forbidden", name, role, err)
				case roleOK && !stateOK && apperr.CodeOf(err) != apperr.Conflict:
					t.Errorf("%s from %s as %s: %v, want conflict", name, label, role, err)
				}
			}
			if want, ok := endsIn[name]; ok && slices.Contains(allowedFrom[name], label) {
				to := st
				tr.Apply(&to)
				if got := LabelKey(to); got != want {
					t.Errorf("%s from %s ends in %s, want %s", name, label, got, want)
				}
			}
		}
	}
}

func TestIDCard(t *testing.T) {
	for _, tc := range []struct {
		id   string
		ok   bool
		male bool
	}{
		{"11010519491231002X", true, false},
		{"110105194912310021", false, false}, // wrong check digit
		{"11010519491331002X", false, false}, // month 13
		{"1101051949123100", false, false},   // 16 characters
		{"440524188001010014", true, true},
		{"44052418800101001X", false, false},
	} {
		_, male, ok := CheckIDCard(tc.id, time.Now())
		if ok != tc.ok || (ok && male != tc.male) {
			t.Errorf("%s: ok=%v male=%v", tc.id, ok, male)
		}
	}
}

func TestRegistrationRules(t *testing.T) {
	lib, center := int64(1), int64(1)
	valid := func() CaseInput {
		return CaseInput{PathologyNumber: "BL2026-00001", OriginalPathologyNumber: "Y2026-1", LibraryID: &lib, Name: "王芳",
			Age: "45", Gender: "female", Phone: "13800138000", InspectionHospital: "明州市第一人民医院", InspectionDate: "2026-11-01",
			CenterID: &center, IDNumber: "11010519491231002X", Birthday: "1949-12-31",
			Specimens: []SpecimenInput{{Name: "胃窦", Blocks: []BlockInput{{Name: "A1"}}}}}
	}
	fields := func(in CaseInput, draft bool) []string {
		err := in.validate(draft, time.Now()).Err()
		if err == nil {
			return nil
		}
		var out []string
		for f := range err.(*apperr.Error).Fields {
			out = append(out, f)
		}
		slices.Sort(out)
		return out
	}
	if f := fields(valid(), false); f != nil {
		t.Fatalf("valid registration refused: %v", f)
	}
	for name, tc := range map[string]struct {
		change func(*CaseInput)
		field  string
	}{
		"ErrPhone":          {func(c *CaseInput) { c.Phone = "1380013800" }, "phone"},
		"ErrAgeNotNumeric":  {func(c *CaseInput) { c.Age = "四十五" }, "age"},
		"ErrAgeTooOld":      {func(c *CaseInput) { c.Age = "151" }, "age"},
		"ErrIDCheckDigit":   {func(c *CaseInput) { c.IDNumber = "110105194912310021" }, "id_number"},
		"ErrBirthdayMatch":  {func(c *CaseInput) { c.Birthday = "1950-01-01" }, "birthday"},
		"ErrPathologyChars": {func(c *CaseInput) { c.PathologyNumber = "BL 2026/1" }, "pathology_number"},
		"ErrNoSpecimen":     {func(c *CaseInput) { c.Specimens = nil }, "specimens"},
		"ErrSpecimenName":   {func(c *CaseInput) { c.Specimens[0].Name = " " }, "specimens.0.name"},
		"ErrNoBlock":        {func(c *CaseInput) { c.Specimens[0].Blocks = nil }, "specimens.0.blocks"},
		"ErrTwoFullBody": {func(c *CaseInput) {
			c.Attachments = []AttachmentInput{{1, AttachFullBodyImage}, {2, AttachFullBodyImage}}
		}, "attachments"},
		"ErrMissingName":    {func(c *CaseInput) { c.Name = "" }, "name"},
		"ErrMissingCenter":  {func(c *CaseInput) { c.CenterID = nil }, "center_id"},
		"ErrInspectionDate": {func(c *CaseInput) { c.InspectionDate = "2026-02-30" }, "inspection_date"},
	} {
		t.Run(name, func(t *testing.T) {
			in := valid()
			tc.change(&in)
			if f := fields(in, false); !slices.Contains(f, tc.field) {
				t.Fatalf("errors on %v, want %s", f, tc.field)
			}
		})
	}
	t.Run("DraftSkipsRequired", func(t *testing.T) {
		if f := fields(CaseInput{Name: "王芳"}, true); f != nil {
			t.Fatalf("draft refused: %v", f)
		}
		if f := fields(CaseInput{Phone: "12"}, true); !slices.Contains(f, "phone") {
			t.Fatalf("draft accepted a bad phone: %v", f)
		}
	})
}

func TestHolders(t *testing.T) {
	me, other := int64(7), int64(8)
	p := &access.Principal{UserID: me, Roles: []string{access.Expert}}
	row := func(expert, lock, reviewer *int64) *Row {
		return &Row{ExpertID: expert, LockedBy: lock, ReviewerID: reviewer}
	}
	for _, tc := range []struct {
		name Action
		r    *Row
		ok   bool
	}{
		{"lock", row(&me, nil, nil), true},
		{"lock", row(&other, nil, nil), false},
		{"save", row(&me, &other, nil), false},
		{"save", row(&other, &me, nil), true},
		{"review_approve", row(&other, nil, &me), true},
		{"review_approve", row(&me, nil, &other), false},
		{"bind_expert", row(nil, nil, nil), true},
		{"handover_recall", &Row{ExpertID: &other, HandoverFrom: &me}, true},
		{"handover_recall", &Row{ExpertID: &me, HandoverFrom: &other}, false},
		{"handover_recall", &Row{ExpertID: &other}, false},
	} {
		if err := Transitions[tc.name].holds(p, tc.r); (err == nil) != tc.ok {
			t.Errorf("%s on %+v: %v", tc.name, tc.r, err)
		}
	}
}
