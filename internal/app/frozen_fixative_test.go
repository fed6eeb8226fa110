package app_test

import (
	"fmt"
	"testing"
	"time"
)

// The frozen path registers cases like the form does: a specimen left
// without a fixative gets the center's default (the frozen library is not
// cytology, so routine_fixed), on the frozen case and on the paraffin case
// after it; a typed fixative is kept; an infectious agent outside the
// center's options is refused in both languages, nothing written.
func TestFrozenFixativeDefaults(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		e.fixture()
		ca, alloc, site := e.login("center_admin"), e.login("allocator"), e.login("site")
		e.expect(e.do("POST", "/api/config/common/setting", ca, map[string]any{"settings": map[string]any{
			"routine_fixed": "10%中性福尔马林", "cell_fixed": "95%乙醇", "infectious_specimen": []string{"乙肝"}}}), 200)
		// The reported frozen case also puts the expert on duty for the bookings below.
		reported, _ := e.reportedFrozen()
		fixatives := func(id int64) []string {
			t.Helper()
			var out []string
			if err := e.app.DB.Select(&out, e.app.DB.Rebind("SELECT fixative FROM specimens WHERE consult_id = ? ORDER BY sort"), id); err != nil {
				t.Fatal(err)
			}
			return out
		}
		booked := func() string {
			t.Helper()
			a := data[frozenAppt](e, e.expect(e.do("POST", "/api/frozen/appointment", site, map[string]any{"center_id": e.centerID("EC"), "patient_name": "钱冰冻",
				"operation_at": time.Now().Add(5 * time.Minute).UTC().Format(time.RFC3339), "surgeon": "S", "phone": "13800000000", "specimen_site": "乳腺肿物",
				"gender": "female", "age": "52"}), 200))
			p := fmt.Sprintf("/api/frozen/appointment/%d", a.ID)
			e.expect(e.do("POST", p+"/accept", alloc, nil), 200)
			return p
		}

		t.Run("FrozenCaseGetsDefault", func(t *testing.T) {
			a := data[frozenAppt](e, e.expect(e.do("POST", booked()+"/arrive", site, map[string]any{"case": map[string]any{}}), 200))
			if got := fixatives(*a.ConsultationID); len(got) != 1 || got[0] != "10%中性福尔马林" {
				t.Fatalf("frozen case's fixative: %q", got)
			}
		})
		t.Run("TypedFixativeKept", func(t *testing.T) {
			reg := map[string]any{"specimens": []map[string]any{{"name": "乳腺肿物", "part": "乳腺", "specimen_type": "ex_slide", "count": 1,
				"fixative": "Bouin液", "blocks": []map[string]any{{"name": "F1"}}}}}
			a := data[frozenAppt](e, e.expect(e.do("POST", booked()+"/arrive", site, map[string]any{"case": reg}), 200))
			if got := fixatives(*a.ConsultationID); len(got) != 1 || got[0] != "Bouin液" {
				t.Fatalf("typed fixative: %q", got)
			}
		})
		t.Run("ErrInfectiousUnknown", func(t *testing.T) {
			refusedBoth(t, e, "POST", booked()+"/arrive", site, map[string]any{"case": map[string]any{"infectious_agents": []string{"HIV"}}}, 422, "infectious_agents", "consultations")
		})
		t.Run("ParaffinCaseGetsDefault", func(t *testing.T) {
			a := data[paraffinAppt](e, e.expect(e.do("POST", reported+"/paraffin", site, nil), 200))
			if got := fixatives(*a.ParaffinCaseID); len(got) != 1 || got[0] != "10%中性福尔马林" {
				t.Fatalf("paraffin case's fixative: %q", got)
			}
		})
	})
}
