package app_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/clock"
)

type diagSettings struct {
	Scope     string                     `json:"scope"`
	CenterID  *int64                     `json:"center_id"`
	Settings  map[string]json.RawMessage `json:"settings"`
	Inherited []string                   `json:"inherited"`
}

func (e *env) diagConfig(token, query string) diagSettings {
	e.t.Helper()
	var out struct {
		Data diagSettings `json:"data"`
	}
	e.decode(e.expect(e.do("GET", "/api/config/common/setting"+query, token, nil), 200), &out)
	return out.Data
}

// Diagnosis settings: the administrator writes the global copy, a center
// administrator their center's copy; everyone reads the copy of their center,
// each key falling back to the global value. A value of the wrong kind is
// refused with a localized message and nothing is written.
func TestDiagnosisConfig(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		tok := map[string]string{}
		for _, r := range access.Roles {
			tok[r] = e.login(r)
		}
		admin, ca := tok[access.Admin], tok[access.CenterAdmin]
		post := func(token string, body any) resp { return e.do("POST", "/api/config/common/setting", token, body) }

		t.Run("Defaults", func(t *testing.T) {
			g := e.diagConfig(admin, "")
			if g.Scope != "global" || string(g.Settings["delay_report"]) != "[]" || string(g.Settings["after_frozen_paraffin_block"]) != "true" {
				t.Fatalf("defaults %+v", g)
			}
		})
		t.Run("RoleMatrix", func(t *testing.T) {
			body := map[string]any{"settings": map[string]any{"special_advice": []string{"加急"}}}
			for _, role := range access.Roles {
				r := post(tok[role], body)
				want := 403
				if role == access.Admin || role == access.CenterAdmin || role == access.Root {
					want = 200
				}
				if r.Status != want {
					t.Errorf("POST as %s: %d, want %d: %s", role, r.Status, want, r)
				}
				// Everyone reads.
				e.expect(e.do("GET", "/api/config/common/setting", tok[role], nil), 200)
			}
			e.expect(post(ca, map[string]any{"settings": map[string]any{"special_advice": nil}}), 200)
		})
		audits := e.count("audit_logs", "action = 'settings.diagnosis_update'")
		t.Run("GlobalAndCenterCopy", func(t *testing.T) {
			e.expect(post(admin, map[string]any{"settings": map[string]any{
				"delay_report": []string{" 需加做免疫组化 ", "需会诊"}, "timeout_reason": []string{"切片质量差"},
				"default_molecular_block_remark": "请选肿瘤含量最高的蜡块", "cell_fixed": "95% 乙醇", "after_frozen_paraffin_block": false,
			}}), 200)
			g := e.diagConfig(admin, "")
			if string(g.Settings["delay_report"]) != `["需加做免疫组化","需会诊"]` || string(g.Settings["after_frozen_paraffin_block"]) != "false" {
				t.Fatalf("global %s", g.Settings["delay_report"])
			}
			// The center has set nothing: every key is the global one.
			c := e.diagConfig(ca, "")
			if c.Scope != "center" || c.CenterID == nil || len(c.Inherited) != 11 || string(c.Settings["delay_report"]) != string(g.Settings["delay_report"]) {
				t.Fatalf("center before %+v", c)
			}
			e.expect(post(ca, map[string]any{"settings": map[string]any{"delay_report": []string{"中心原因"}}}), 200)
			c = e.diagConfig(ca, "")
			if string(c.Settings["delay_report"]) != `["中心原因"]` || string(c.Settings["timeout_reason"]) != `["切片质量差"]` || len(c.Inherited) != 10 {
				t.Fatalf("center after %+v", c)
			}
			// Every role reads the copy of its center: those working in the
			// center, and the hospital accounts (site, clinical, uploader)
			// through their hospital's center; the administrators the global one.
			for _, role := range access.Roles {
				x := e.diagConfig(tok[role], "")
				want, scope := `["中心原因"]`, "center"
				if role == access.Admin || role == access.Root {
					want, scope = string(g.Settings["delay_report"]), "global"
				}
				if string(x.Settings["delay_report"]) != want || x.Scope != scope || (scope == "center" && *x.CenterID != *c.CenterID) {
					t.Errorf("%s reads %s %+v, want %s", role, x.Scope, x, want)
				}
			}
			if x := e.diagConfig(e.login("site2"), ""); string(x.Settings["delay_report"]) != `["中心原因"]` {
				t.Fatalf("site2 %+v", x)
			}
			// A site names its hospital's center; another center is not found.
			if x := e.diagConfig(tok[access.Site], "?center_id="+itoa(*c.CenterID)); string(x.Settings["delay_report"]) != `["中心原因"]` {
				t.Fatalf("site naming its center %+v", x)
			}
			e.expect(e.do("GET", "/api/config/common/setting?center_id=999999", tok[access.Site], nil), 404)
			e.expect(e.do("GET", "/api/config/common/setting?center_id=999999", tok[access.Clinical], nil), 404)
			if x := e.diagConfig(admin, ""); string(x.Settings["delay_report"]) == `["中心原因"]` {
				t.Fatal("the center's copy changed the global one")
			}
			// The admin may read a center's copy; a center administrator not another center's.
			if x := e.diagConfig(admin, "?center_id="+itoa(*c.CenterID)); string(x.Settings["delay_report"]) != `["中心原因"]` {
				t.Fatalf("admin reading the center %+v", x)
			}
			e.expect(e.do("GET", "/api/config/common/setting?center_id=999999", ca, nil), 404)
			e.expect(post(ca, map[string]any{"center_id": 999999, "settings": map[string]any{"delay_report": []string{"x"}}}), 404)
			// null gives a key back to the global value.
			e.expect(post(ca, map[string]any{"settings": map[string]any{"delay_report": nil}}), 200)
			if x := e.diagConfig(ca, ""); string(x.Settings["delay_report"]) != string(g.Settings["delay_report"]) || len(x.Inherited) != 11 {
				t.Fatalf("after reset %+v", x)
			}
			if got := e.count("audit_logs", "action = 'settings.diagnosis_update'"); got != audits+3 {
				t.Fatalf("%d audits, want %d", got-audits, 3)
			}
		})
		t.Run("ErrBadInput", func(t *testing.T) {
			before := e.diagConfig(admin, "")
			n := e.count("audit_logs", "action = 'settings.diagnosis_update'")
			cases := []struct {
				settings any
				field    string
			}{
				{map[string]any{"delay_report": "需会诊"}, "settings.delay_report"},
				{map[string]any{"delay_report": []any{"a", 3}}, "settings.delay_report"},
				{map[string]any{"delay_report": []string{"a", " a "}}, "settings.delay_report"},
				{map[string]any{"delay_report": []string{" "}}, "settings.delay_report"},
				{map[string]any{"delay_report": []string{strings.Repeat("长", 101)}}, "settings.delay_report"},
				{map[string]any{"delay_report": make([]string, 51)}, "settings.delay_report"},
				{map[string]any{"cell_fixed": 95}, "settings.cell_fixed"},
				{map[string]any{"cell_fixed": strings.Repeat("x", 201)}, "settings.cell_fixed"},
				{map[string]any{"after_frozen_paraffin_block": "yes"}, "settings.after_frozen_paraffin_block"},
				{map[string]any{"no_such_key": true}, "settings.no_such_key"},
				{map[string]any{"report_class": nil}, "settings.report_class"}, // null is for a center's copy only
				// One bad key: the good one beside it is not written either.
				{map[string]any{"timeout_reason": []string{"新原因"}, "routine_fixed": false}, "settings.routine_fixed"},
				{map[string]any{}, "settings"},
			}
			for _, c := range cases {
				e.cfgFieldErr(post(admin, map[string]any{"settings": c.settings}), c.field)
			}
			r := e.do("POST", "/api/config/common/setting", admin, map[string]any{"settings": map[string]any{"delay_report": "x"}}, "user-language", "en-US")
			if !strings.Contains(message(r)+string(r.Body), "list of texts") {
				t.Fatalf("en-US: %s", r)
			}
			r = e.do("POST", "/api/config/common/setting", admin, map[string]any{"settings": map[string]any{"delay_report": "x"}}, "user-language", "zh-CN")
			if !strings.Contains(string(r.Body), "文本列表") {
				t.Fatalf("zh-CN: %s", r)
			}
			after := e.diagConfig(admin, "")
			a, _ := json.Marshal(after)
			b, _ := json.Marshal(before)
			if string(a) != string(b) || e.count("audit_logs", "action = 'settings.diagnosis_update'") != n {
				t.Fatal("written on error")
			}
		})
	})
}

// Reagents: the administrator keeps the list; the marker picker offers the
// enabled, unexpired ones to everyone signed in.
func TestReagents(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, ca, expert := e.login("admin"), e.login("center_admin"), e.login("expert")
		var clk clock.Clock // the app's: system time in the default zone
		today := clk.Local(clk.Now())
		day := func(d int) string { return today.AddDate(0, 0, d).Format(time.DateOnly) }
		a := e.cfgID(e.expect(e.do("POST", "/api/reagent/store", admin, map[string]any{"name": " Ki-67 ", "clone": "MIB-1", "vendor": "Dako", "lot": "L1", "expires_on": day(30)}), 200))
		b := e.cfgID(e.expect(e.do("POST", "/api/reagent/store", admin, map[string]any{"name": "CK7", "lot": "L2", "expires_on": day(0), "status": 0}), 200))
		c := e.cfgID(e.expect(e.do("POST", "/api/reagent/store", admin, map[string]any{"name": "Ki-67", "lot": "L3", "expires_on": day(0)}), 200))
		if e.count("reagents", "id = ? AND name = 'Ki-67' AND status = 1", a) != 1 || e.audited("reagent.create", a) != 1 {
			t.Fatal("not stored trimmed or not audited")
		}
		options := func(token string) []string {
			var out struct {
				Data []struct {
					ID  int64  `json:"id"`
					Lot string `json:"lot"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/reagent/options", token, nil), 200), &out)
			var lots []string
			for _, o := range out.Data {
				lots = append(lots, o.Lot)
			}
			return lots
		}
		t.Run("Read", func(t *testing.T) {
			l := e.list("/api/reagent/lists", admin, url.Values{"search": {"Ki-67"}, "sort_by": {`{"lot":"desc"}`}})
			if got := names(l, "lot"); strings.Join(got, ",") != "L3,L1" {
				t.Fatalf("list %v", got)
			}
			e.expect(e.do("GET", "/api/reagent/item/"+itoa(a), admin, nil), 200)
			e.expect(e.do("GET", "/api/reagent/item/999999", admin, nil), 404)
			e.expect(e.do("GET", "/api/reagent/count?tab=disabled", admin, nil), 200)
			// Disabled (CK7) is not offered; unexpired enabled ones are, to an expert too.
			if got := strings.Join(options(expert), ","); got != "L1,L3" && got != "L3,L1" {
				t.Fatalf("options %v", got)
			}
		})
		t.Run("ErrOthersCannotWrite", func(t *testing.T) {
			for _, tok := range []string{ca, expert} {
				e.expect(e.do("POST", "/api/reagent/store", tok, map[string]any{"name": "x", "expires_on": day(1)}), 403)
				e.expect(e.do("PATCH", "/api/reagent/update", tok, map[string]any{"id": a, "name": "y"}), 403)
				e.expect(e.do("DELETE", "/api/reagent/destroy", tok, map[string]any{"ids": []int64{a}}), 403)
				e.expect(e.do("GET", "/api/reagent/lists", tok, nil), 403)
			}
		})
		t.Run("ErrBadInput", func(t *testing.T) {
			n := e.count("reagents", "")
			e.cfgFieldErr(e.do("POST", "/api/reagent/store", admin, map[string]any{"name": "CD3", "expires_on": day(-1)}), "expires_on")
			e.cfgFieldErr(e.do("POST", "/api/reagent/store", admin, map[string]any{"name": "CD3", "expires_on": "2026-02-30"}), "expires_on")
			e.cfgFieldErr(e.do("POST", "/api/reagent/store", admin, map[string]any{"name": "CD3"}), "expires_on")
			e.cfgFieldErr(e.do("POST", "/api/reagent/store", admin, map[string]any{"name": "  ", "expires_on": day(1)}), "name")
			e.cfgFieldErr(e.do("POST", "/api/reagent/store", admin, map[string]any{"expires_on": day(1)}), "name")
			e.cfgFieldErr(e.do("POST", "/api/reagent/store", admin, map[string]any{"name": "Ki-67", "lot": "L1", "expires_on": day(5)}), "lot")
			e.cfgFieldErr(e.do("PATCH", "/api/reagent/update", admin, map[string]any{"id": c, "lot": "L1"}), "lot")
			e.cfgFieldErr(e.do("PATCH", "/api/reagent/update", admin, map[string]any{"id": a, "expires_on": day(-3)}), "expires_on")
			r := e.do("POST", "/api/reagent/store", admin, map[string]any{"name": "CD3", "expires_on": day(-1)}, "user-language", "en-US")
			if !strings.Contains(string(r.Body), "before today") {
				t.Fatalf("en-US: %s", r)
			}
			r = e.do("POST", "/api/reagent/store", admin, map[string]any{"name": "Ki-67", "lot": "L1", "expires_on": day(5)}, "user-language", "zh-CN")
			if !strings.Contains(string(r.Body), "同名同批号") {
				t.Fatalf("zh-CN: %s", r)
			}
			if e.count("reagents", "") != n || e.count("reagents", "id = ? AND lot = 'L3'", c) != 1 || e.count("reagents", "id = ? AND expires_on = ?", a, day(30)) != 1 {
				t.Fatal("written on error")
			}
		})
		t.Run("Update", func(t *testing.T) {
			r := e.cfgRecord(e.expect(e.do("PATCH", "/api/reagent/update", admin, map[string]any{"id": b, "status": 1, "vendor": "Roche"}), 200))
			if string(r["vendor"]) != `"Roche"` || string(r["status"]) != "1" || e.audited("reagent.update", b) != 1 {
				t.Fatalf("update %v", r)
			}
			e.expect(e.do("PATCH", "/api/reagent/update", admin, map[string]any{"id": 999999, "name": "z"}), 404)
			if len(options(expert)) != 3 {
				t.Fatal("enabled reagent not offered")
			}
			e.expect(e.do("PATCH", "/api/reagent/update", admin, map[string]any{"id": b, "status": 0}), 200)
		})
		t.Run("Destroy", func(t *testing.T) {
			e.expect(e.do("DELETE", "/api/reagent/destroy", admin, map[string]any{"ids": []int64{a, 999999}}), 404)
			if e.count("reagents", "id = ?", a) != 1 {
				t.Fatal("half deleted")
			}
			e.expect(e.do("DELETE", "/api/reagent/destroy", admin, map[string]any{"ids": []int64{a, b}}), 200)
			if e.count("reagents", "id IN (?, ?)", a, b) != 0 || e.audited("reagent.delete", a) != 1 || e.audited("reagent.delete", b) != 1 {
				t.Fatal("not deleted or not audited")
			}
			if got := options(expert); len(got) != 1 || got[0] != "L3" {
				t.Fatalf("options after delete %v", got)
			}
		})
	})
}

// cell_fixed and routine_fixed are the fixatives a registration's specimens
// get when the site leaves the field empty: the center's copy, by the
// library's kind (cell libraries the cytology default, others the routine
// one); a fixative the site typed is kept. A default longer than the
// specimen's fixative field is refused in both languages, nothing written.
func TestFixativeDefaults(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin, ca, site := e.login("admin"), e.login("center_admin"), e.login("site")
		var cell int64
		e.app.DB.Get(&cell, "SELECT id FROM libraries WHERE prefix = 'XB' AND parent_id IS NULL")
		fixatives := func(id int64) []string {
			t.Helper()
			var out []string
			if err := e.app.DB.Select(&out, e.app.DB.Rebind("SELECT fixative FROM specimens WHERE consult_id = ? ORDER BY sort"), id); err != nil {
				t.Fatal(err)
			}
			return out
		}
		register := func(number string, lib int64, typed string) int64 {
			t.Helper()
			reg := registration(f, number, e.slide(f.hospital, "site"))
			reg["library_id"] = lib
			if typed != "" {
				reg["specimens"].([]any)[1].(map[string]any)["fixative"] = typed
			}
			var c caseOut
			e.decode(e.expect(e.do("POST", "/api/consultation", site, reg), 200), &c)
			return c.Data.ID
		}

		// Nothing configured: nothing filled.
		if got := fixatives(register("BL2026-16501", f.library, "")); got[0] != "" || got[1] != "" {
			t.Fatalf("no default configured: %q", got)
		}
		e.expect(e.do("POST", "/api/config/common/setting", admin, map[string]any{"settings": map[string]any{"routine_fixed": "10%中性福尔马林", "cell_fixed": "95%乙醇"}}), 200)
		if got := fixatives(register("BL2026-16502", f.library, "Bouin液")); got[0] != "10%中性福尔马林" || got[1] != "Bouin液" {
			t.Fatalf("routine case: %q", got)
		}
		if got := fixatives(register("XB2026-16504", cell, "")); got[0] != "95%乙醇" || got[1] != "95%乙醇" {
			t.Fatalf("cytology case: %q", got)
		}
		// The center's own copy wins over the global one.
		e.expect(e.do("POST", "/api/config/common/setting", ca, map[string]any{"settings": map[string]any{"routine_fixed": "4%多聚甲醛"}}), 200)
		if got := fixatives(register("BL2026-16503", f.library, "")); got[0] != "4%多聚甲醛" {
			t.Fatalf("center's copy: %q", got)
		}
		// A default that would not fit a specimen's fixative is refused.
		long := strings.Repeat("福", 51)
		for _, key := range []string{"routine_fixed", "cell_fixed"} {
			refusedBoth(t, e, "POST", "/api/config/common/setting", admin, map[string]any{"settings": map[string]any{key: long}}, 422, "settings."+key, "settings")
		}
	})
}

// infectious_specimen lists what an infectious specimen may carry: the
// registration form reads the options of the case's center (GET
// /api/consultation/form_options, the site's hospital's centers only); a
// case names some of them, which flags it infectious; anything else is
// refused in both languages and nothing is written.
func TestInfectiousSpecimenOptions(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin, ca, site := e.login("admin"), e.login("center_admin"), e.login("site")
		var west int64
		e.app.DB.Get(&west, "SELECT id FROM centers WHERE code = 'WC'")
		type options struct {
			RoutineFixed string   `json:"routine_fixed"`
			Infectious   []string `json:"infectious_specimen"`
		}
		opts := func(center int64) options {
			t.Helper()
			return data[options](e, e.expect(e.do("GET", "/api/consultation/form_options?center_id="+itoa(center), site, nil), 200))
		}
		if o := opts(f.center); len(o.Infectious) != 0 {
			t.Fatalf("defaults: %+v", o)
		}
		e.expect(e.do("POST", "/api/config/common/setting", admin, map[string]any{"settings": map[string]any{"infectious_specimen": []string{"乙肝", "HCV"}, "routine_fixed": "10%中性福尔马林"}}), 200)
		e.expect(e.do("POST", "/api/config/common/setting", ca, map[string]any{"settings": map[string]any{"infectious_specimen": []string{"乙肝", "结核", "HIV"}}}), 200)
		if o := opts(f.center); strings.Join(o.Infectious, ",") != "乙肝,结核,HIV" || o.RoutineFixed != "10%中性福尔马林" {
			t.Fatalf("the center's options: %+v", o)
		}
		if o := opts(0); strings.Join(o.Infectious, ",") != "乙肝,HCV" {
			t.Fatalf("without a center: %+v", o)
		}
		// A center the hospital does not send to is not found; center-side roles have no form.
		e.expect(e.do("GET", "/api/consultation/form_options?center_id="+itoa(west), site, nil), 404)
		e.expect(e.do("GET", "/api/consultation/form_options", e.login("expert"), nil), 403)

		reg := registration(f, "BL2026-16601", e.slide(f.hospital, "site"))
		reg["infectious_agents"] = []string{"HCV"} // the global option, not the center's
		refusedBoth(t, e, "POST", "/api/consultation", site, reg, 422, "infectious_agents", "consultations")
		reg["infectious_agents"] = []string{" 结核 ", "HIV", "结核"}
		var c struct {
			Data struct {
				ID   int64 `json:"id"`
				Case struct {
					Infectious bool     `json:"infectious_specimen"`
					Agents     []string `json:"infectious_agents"`
				} `json:"case"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("POST", "/api/consultation", site, reg), 200), &c)
		if !c.Data.Case.Infectious || strings.Join(c.Data.Case.Agents, ",") != "结核,HIV" {
			t.Fatalf("saved: %+v", c.Data.Case)
		}
		// The expert reads it with the case.
		id := itoa(c.Data.ID)
		e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
		e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
		e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", e.login("allocator"), map[string]any{"expert_id": f.expert}), 200)
		e.decode(e.expect(e.do("GET", "/api/consultation/resources/"+id, e.login("expert"), nil), 200), &c)
		if strings.Join(c.Data.Case.Agents, ",") != "结核,HIV" {
			t.Fatalf("as the expert reads it: %+v", c.Data.Case)
		}
	})
}
