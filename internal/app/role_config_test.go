package app_test

import (
	"encoding/json"
	"slices"
	"testing"
)

type roleConfig struct {
	Subspecialties []int64 `json:"subspecialties"`
	TakesCases     *bool   `json:"takes_cases"`
	CenterIDs      []int64 `json:"center_ids"`
	SiteID         *int64  `json:"site_id"`
}

type roleConfigs struct {
	UserID int64 `json:"user_id"`
	Roles  []struct {
		Role   string     `json:"role"`
		Config roleConfig `json:"config"`
	} `json:"roles"`
}

func (c roleConfigs) of(role string) (roleConfig, bool) {
	for _, r := range c.Roles {
		if r.Role == role {
			return r.Config, true
		}
	}
	return roleConfig{}, false
}

type offeredExpert struct {
	ID           int64 `json:"id"`
	Subspecialty bool  `json:"subspecialty"`
}

func (e *env) setRoleConfig(token string, userID int64, role string, cfg any) {
	e.t.Helper()
	e.expect(e.do("POST", "/api/user/role/config", token, map[string]any{"user_id": userID, "role": role, "config": cfg}), 200)
}

// unassignedCase registers and submits a case of library lib, waiting for
// the allocator.
func (e *env) unassignedCase(f caseFixture, number string, lib int64) string {
	e.t.Helper()
	site := e.login("site")
	reg := registration(f, number, e.slide(f.hospital, "site"))
	reg["library_id"] = lib
	var c caseOut
	e.decode(e.expect(e.do("POST", "/api/consultation", site, reg), 200), &c)
	id := itoa(c.Data.ID)
	e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
	e.expect(e.do("POST", "/api/consultation/submit/"+id, site, nil), 200)
	return id
}

// GET/POST /api/user/role/config: typed per-role configuration, checked on
// the server (unknown keys, wrong types, ids outside the user's centers or
// hospitals, libraries that do not exist), within the manager's reach; the
// user form's role_configs obey the same rules.
func TestRoleConfig(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin, ca := e.login("admin"), e.login("center_admin")
		expert, expert2, alloc, site := e.userID("expert"), e.userID("expert2"), e.userID("allocator"), e.userID("site")
		const path = "/api/user/role/config"
		get := func(token string, id int64) roleConfigs {
			t.Helper()
			return data[roleConfigs](e, e.expect(e.do("GET", path+"?user_id="+itoa(id), token, nil), 200))
		}

		// The demo experts read their subspecialties and take cases.
		c, ok := get(admin, expert).of("expert")
		if !ok || !slices.Equal(c.Subspecialties, []int64{f.library}) || c.TakesCases == nil || !*c.TakesCases {
			t.Fatalf("demo expert config: %+v", get(admin, expert))
		}

		audits := e.count("audit_logs", "action = 'user.role_config'")
		e.setRoleConfig(admin, expert, "expert", map[string]any{"subspecialties": []int64{f.library, f.library}, "takes_cases": false})
		if c, _ := get(admin, expert).of("expert"); !slices.Equal(c.Subspecialties, []int64{f.library}) || c.TakesCases == nil || *c.TakesCases {
			t.Fatalf("after set: %+v", c)
		}
		if n := e.count("audit_logs", "action = 'user.role_config'"); n != audits+1 {
			t.Fatalf("audit rows: %d", n)
		}
		var west, h2 int64
		e.app.DB.Get(&west, "SELECT id FROM centers WHERE code = 'WC'")
		e.app.DB.Get(&h2, "SELECT id FROM hospitals WHERE code = 'H002'")
		e.setRoleConfig(admin, alloc, "allocator", map[string]any{"center_ids": []int64{f.center}})
		e.setRoleConfig(ca, site, "site", map[string]any{"site_id": f.hospital})
		if c, _ := get(ca, site).of("site"); c.SiteID == nil || *c.SiteID != f.hospital {
			t.Fatalf("site config: %+v", c)
		}

		// Bad input: a localized field error in both languages, nothing written.
		for _, bad := range []struct {
			user  int64
			role  string
			cfg   any
			field string
		}{
			{expert, "expert", map[string]any{"subspecialties": "病理"}, "config.subspecialties"},
			{expert, "expert", map[string]any{"subspecialties": []any{1.5}}, "config.subspecialties"},
			{expert, "expert", map[string]any{"takes_cases": "yes"}, "config.takes_cases"},
			{expert, "expert", map[string]any{"colour": "red"}, "config"},
			{expert, "expert", []int{1}, "config"},
			{expert, "expert", map[string]any{"subspecialties": []int64{f.library, 987654}}, "config.subspecialties"},
			{expert, "allocator", map[string]any{}, "role"},
			{expert, "expert", map[string]any{"center_ids": []int64{f.center}}, "config"},
			{alloc, "allocator", map[string]any{"center_ids": []int64{west}}, "config.center_ids"},
			{alloc, "allocator", map[string]any{"center_ids": 3}, "config.center_ids"},
			{site, "site", map[string]any{"site_id": h2}, "config.site_id"},
			{site, "site", map[string]any{"site_id": "H001"}, "config.site_id"},
		} {
			refusedBoth(t, e, "POST", path, admin, map[string]any{"user_id": bad.user, "role": bad.role, "config": bad.cfg}, 422, bad.field, "audit_logs")
		}
		if c, _ := get(admin, alloc).of("allocator"); !slices.Equal(c.CenterIDs, []int64{f.center}) {
			t.Fatalf("a refused change wrote: %+v", c)
		}

		// A center administrator reaches only the users of their centers and hospitals.
		var outsider struct {
			Data struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("POST", "/api/user", admin, map[string]any{"username": "west_expert", "name": "西部专家", "password": e.encrypt("Westward@2026"),
			"roles": []string{"expert"}, "center_ids": []int64{west}}), 200), &outsider)
		if r := e.do("GET", path+"?user_id="+itoa(outsider.Data.ID), ca, nil); r.Status != 404 {
			t.Fatalf("center admin reads an outsider: %d %s", r.Status, r.Body)
		}
		before := e.count("audit_logs", "")
		if r := e.do("POST", path, ca, map[string]any{"user_id": outsider.Data.ID, "role": "expert", "config": map[string]any{"takes_cases": false}}); r.Status != 404 && r.Status != 403 {
			t.Fatalf("center admin sets an outsider: %d %s", r.Status, r.Body)
		}
		if e.count("audit_logs", "") != before {
			t.Fatal("a refused change was audited")
		}
		e.setRoleConfig(ca, expert2, "expert", map[string]any{"takes_cases": true, "subspecialties": []int64{}})

		// The user form: the same rules on role_configs, nothing written.
		form := func(cfgs map[string]any) map[string]any {
			return map[string]any{"username": "expert2", "name": "刘芳 副主任医师", "status": 1, "roles": []string{"expert"}, "center_ids": []int64{f.center}, "role_configs": cfgs}
		}
		for _, bad := range []struct {
			cfgs  map[string]any
			field string
		}{
			{map[string]any{"expert": map[string]any{"takes_cases": "no"}}, "role_configs.expert.takes_cases"},
			{map[string]any{"expert": map[string]any{"site_id": f.hospital}}, "role_configs.expert"},
			{map[string]any{"expert": map[string]any{"subspecialties": []int64{987654}}}, "role_configs.expert.subspecialties"},
			{map[string]any{"site": map[string]any{}}, "role_configs"},
		} {
			refusedBoth(t, e, "POST", "/api/user/"+itoa(expert2), admin, form(bad.cfgs), 422, bad.field, "audit_logs")
		}
		e.expect(e.do("POST", "/api/user/"+itoa(expert2), admin, form(map[string]any{"expert": map[string]any{"subspecialties": []int64{f.library}, "takes_cases": false}})), 200)
		if c, _ := get(admin, expert2).of("expert"); !slices.Equal(c.Subspecialties, []int64{f.library}) || c.TakesCases == nil || *c.TakesCases {
			t.Fatalf("form saved: %+v", c)
		}
		// The user as the form loads it carries the typed configuration.
		var u struct {
			Data struct {
				RoleConfigs map[string]json.RawMessage `json:"role_configs"`
			} `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/user/"+itoa(expert2), admin, nil), 200), &u)
		var got roleConfig
		if json.Unmarshal(u.Data.RoleConfigs["expert"], &got) != nil || got.TakesCases == nil || *got.TakesCases {
			t.Fatalf("user role_configs: %s", u.Data.RoleConfigs["expert"])
		}
		// An allocator's centers must be among the user's centers.
		refusedBoth(t, e, "POST", "/api/user/"+itoa(alloc), admin, map[string]any{"username": "allocator", "name": "陈静（分配员）", "status": 1, "roles": []string{"allocator"},
			"center_ids": []int64{f.center}, "role_configs": map[string]any{"allocator": map[string]any{"center_ids": []int64{west}}}}, 422, "role_configs.allocator.center_ids", "audit_logs")
	})
}

// Assignment follows the role configuration: an expert who does not take
// cases is neither offered nor accepted; experts bound to the case's
// library (or a library above it) come first, marked; with nobody of the
// center taking cases the case cannot be assigned.
func TestAssignmentByRoleConfig(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin, alloc := e.login("admin"), e.login("allocator")
		var cell, tct int64
		e.app.DB.Get(&cell, "SELECT id FROM libraries WHERE prefix = 'XB' AND parent_id IS NULL")
		e.app.DB.Get(&tct, "SELECT id FROM libraries WHERE prefix = 'TCT'")
		offered := func(lib int64) []offeredExpert {
			t.Helper()
			return data[[]offeredExpert](e, e.expect(e.do("GET", "/api/consultation/resources/0/exp_list/center?center_id="+itoa(f.center)+"&library_id="+itoa(lib), alloc, nil), 200))
		}
		ids := func(l []offeredExpert) (out []int64) {
			for _, x := range l {
				out = append(out, x.ID)
			}
			return out
		}

		// Demo: the chief reads routine cases, the associate cytology.
		l := offered(f.library)
		if len(l) != 2 || l[0].ID != f.expert || !l[0].Subspecialty || l[1].Subspecialty {
			t.Fatalf("routine case: %+v", l)
		}
		// A sub-library's case goes first to the experts of the library above it.
		if l := offered(tct); len(l) != 2 || l[0].ID != f.expert2 || !l[0].Subspecialty || l[1].Subspecialty {
			t.Fatalf("TCT case: %+v", l)
		}

		// The associate stops taking cases: not offered, refused.
		e.setRoleConfig(admin, f.expert2, "expert", map[string]any{"subspecialties": []int64{cell}, "takes_cases": false})
		id := e.unassignedCase(f, "XB2026-16201", cell)
		if l := offered(cell); !slices.Equal(ids(l), []int64{f.expert}) || l[0].Subspecialty {
			t.Fatalf("cell case without its expert: %+v", l)
		}
		hos := data[[]offeredExpert](e, e.expect(e.do("GET", "/api/consultation/resources/"+id+"/exp_list/hos", alloc, nil), 200))
		if !slices.Equal(ids(hos), []int64{f.expert}) || hos[0].Subspecialty {
			t.Fatalf("case experts: %+v (nobody bound to the cell library: the hint)", hos)
		}
		refusedBoth(t, e, "POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert2}, 422, "expert_id", "audit_logs")
		if n := e.count("consultations", "id = "+id+" AND expert_id IS NOT NULL"); n != 0 {
			t.Fatal("a refused assignment wrote")
		}

		// Nobody of the center takes cases: no expert on duty.
		e.setRoleConfig(admin, f.expert, "expert", map[string]any{"takes_cases": false})
		refusedBoth(t, e, "POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}, 409, "", "audit_logs")
		if r := e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}, "user-language", "en-US"); !json.Valid(r.Body) || !slices.Contains([]string{"No expert is on duty or bound to a subspecialty, so the case cannot be assigned"}, message(r)) {
			t.Fatalf("no expert on duty: %s", r.Body)
		}
		if l := offered(cell); len(l) != 0 {
			t.Fatalf("nobody takes cases: %+v", l)
		}

		// Back to taking cases: the bound expert first, and the case is assigned.
		e.setRoleConfig(admin, f.expert2, "expert", map[string]any{"subspecialties": []int64{cell}})
		e.setRoleConfig(admin, f.expert, "expert", map[string]any{"subspecialties": []int64{f.library}})
		if l := offered(cell); !slices.Equal(ids(l), []int64{f.expert2, f.expert}) || !l[0].Subspecialty || l[1].Subspecialty {
			t.Fatalf("ordering: %+v", l)
		}
		e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert2}), 200)
	})
}

// allowThirds turns on allocate_to_third: special exams may be passed to a
// third party (off by default, spec 2 §3).
func (e *env) allowThirds() {
	e.t.Helper()
	e.expect(e.do("PUT", "/api/config/setting", e.login("admin"), systemInput(map[string]any{"allocate_to_third": true})), 200)
}
