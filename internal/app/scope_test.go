package app_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

type listOut struct {
	Data []map[string]any `json:"data"`
	Meta struct {
		Pagination struct {
			Total int `json:"total"`
		} `json:"pagination"`
	} `json:"meta"`
}

func (e *env) list(path, token string, q url.Values) listOut {
	e.t.Helper()
	var out listOut
	e.decode(e.expect(e.do("GET", path+"?"+q.Encode(), token, nil), 200), &out)
	return out
}

func names(l listOut, field string) []string {
	var out []string
	for _, r := range l.Data {
		out = append(out, r[field].(string))
	}
	return out
}

func TestCenterAdminScope(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, ca := e.login("admin"), e.login("center_admin")
		var westHospital, westCenter int64
		e.app.DB.Get(&westHospital, "SELECT id FROM hospitals WHERE code = 'H003'")
		e.app.DB.Get(&westCenter, "SELECT id FROM centers WHERE code = 'WC'")

		t.Run("HospitalsOfOwnCenterOnly", func(t *testing.T) {
			all := e.list("/api/hospital/list", admin, nil)
			mine := e.list("/api/hospital/list", ca, nil)
			if all.Meta.Pagination.Total != 3 || mine.Meta.Pagination.Total != 2 {
				t.Fatalf("admin sees %d, center admin %d", all.Meta.Pagination.Total, mine.Meta.Pagination.Total)
			}
			e.expect(e.do("GET", "/api/hospital/"+itoa(westHospital), ca, nil), 404)
			e.expect(e.do("POST", "/api/hospital/"+itoa(westHospital), ca, map[string]any{"name": "x", "abbreviation": "x", "code": "X9", "public_ip": "1.2.3.4", "port": 80}), 404)
			e.expect(e.do("DELETE", "/api/hospital/"+itoa(westHospital), ca, nil), 404)
		})
		t.Run("UsersOfOwnCenterOnly", func(t *testing.T) {
			mine := names(e.list("/api/user", ca, url.Values{"page_size": {"100"}}), "username")
			for _, u := range mine {
				if u == "admin" || u == "root" {
					t.Errorf("center admin sees %s", u)
				}
			}
			if len(mine) < 8 {
				t.Errorf("center admin sees too few users: %v", mine)
			}
		})
		t.Run("ErrCannotGrantAdmin", func(t *testing.T) {
			body := map[string]any{"username": "sneaky", "name": "S", "password": e.encrypt("Quartz@Ridge26"), "roles": []string{"admin"}, "center_ids": []int64{1}}
			r := e.expect(e.do("POST", "/api/user", ca, body), 422)
			if !strings.Contains(r.String(), "roles") {
				t.Fatalf("%s", r)
			}
		})
		t.Run("ErrCannotBindOtherCenter", func(t *testing.T) {
			body := map[string]any{"username": "outsider", "name": "O", "password": e.encrypt("Quartz@Ridge26"), "roles": []string{"expert"}, "center_ids": []int64{westCenter}}
			e.expect(e.do("POST", "/api/user", ca, body), 422)
			if e.count("users", "username = 'outsider'") != 0 {
				t.Fatal("written")
			}
		})
		t.Run("CreateSiteUserWhoSignsIn", func(t *testing.T) {
			var h int64
			e.app.DB.Get(&h, "SELECT id FROM hospitals WHERE code = 'H001'")
			body := map[string]any{"username": "newsite", "name": "新站点用户", "password": e.encrypt("Harbor#Wind26"), "roles": []string{"site"}, "hospital_ids": []int64{h}, "phone": "13800138000"}
			e.expect(e.do("POST", "/api/user", ca, body), 200)
			e.expect(e.tryLogin("newsite", "Harbor#Wind26"), 200)
			if e.count("audit_logs", "action = 'user.create' AND username = 'center_admin'") != 1 {
				t.Fatal("not audited")
			}
		})
	})
}

func TestSiteSeesOnlyItsHospital(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		site, site2 := e.login("site"), e.login("site2")
		a := names(e.list("/api/hospital/list", site, nil), "name")
		b := names(e.list("/api/hospital/list", site2, nil), "name")
		if len(a) != 1 || len(b) != 1 || a[0] == b[0] {
			t.Fatalf("site sees %v, site2 sees %v", a, b)
		}
		var other int64
		e.app.DB.Get(&other, e.app.DB.Rebind("SELECT id FROM hospitals WHERE name = ?"), a[0])
		e.expect(e.do("GET", "/api/hospital/"+itoa(other), site2, nil), 404)
		e.expect(e.do("GET", "/api/user", site, nil), 403)
	})
}

func TestListEngineOverHTTP(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		t.Run("CustomCondition", func(t *testing.T) {
			c, _ := json.Marshal(map[string]any{"constraints": []any{map[string]any{"condition": "and", "constraint": []any{
				map[string]any{"condition": "and", "operator": "in", "column": "role", "value": []string{"expert"}},
				map[string]any{"condition": "except", "operator": "like", "column": "username", "value": "2"},
			}}}})
			got := names(e.list("/api/user", admin, url.Values{"constraints": {string(c)}}), "username")
			if len(got) != 1 || got[0] != "expert" {
				t.Fatalf("got %v", got)
			}
		})
		t.Run("TabAndCount", func(t *testing.T) {
			var counts struct {
				Data map[string]int `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/user/count", admin, nil), 200), &counts)
			if counts.Data["all"] != 14 || counts.Data["enabled"] != 14 || counts.Data["locked"] != 0 {
				t.Fatalf("counts %v", counts.Data)
			}
			l := e.list("/api/user", admin, url.Values{"params": {`{"tab":"disabled"}`}})
			if l.Meta.Pagination.Total != 0 {
				t.Fatalf("disabled tab: %d", l.Meta.Pagination.Total)
			}
		})
		t.Run("SortAndPage", func(t *testing.T) {
			l := e.list("/api/user", admin, url.Values{"sort_by": {`{"username":"asc"}`}, "page_size": {"3"}, "page": {"2"}})
			if got := names(l, "username"); strings.Join(got, ",") != "clinical,expert,expert2" {
				t.Fatalf("page 2: %v", got)
			}
		})
		t.Run("ErrUnknownColumn", func(t *testing.T) {
			r := e.expect(e.do("GET", "/api/user?params="+url.QueryEscape(`{"password_hash":"x"}`), admin, nil), 400)
			if !strings.Contains(message(r), "password_hash") {
				t.Fatalf("%s", r)
			}
			e.expect(e.do("GET", "/api/user?sort_by="+url.QueryEscape(`{"password_hash":"asc"}`), admin, nil), 400)
		})
		t.Run("ErrBadJSON", func(t *testing.T) {
			e.expect(e.do("GET", "/api/user?constraints=%7Bnot-json", admin, nil), 400)
		})
		t.Run("SQLLookingSearchIsText", func(t *testing.T) {
			l := e.list("/api/user", admin, url.Values{"search": {`'; DROP TABLE users; --`}})
			if l.Meta.Pagination.Total != 0 || e.count("users", "") != 14 {
				t.Fatal("search text reached SQL")
			}
		})
	})
}

func TestBadInputChangesNothing(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		before := e.count("audit_logs", "outcome = 'success' AND action <> 'auth.login'")
		t.Run("MalformedJSON", func(t *testing.T) {
			r := e.do("POST", "/api/center/add", admin, `{"name": "A",`)
			if r.Status != 400 && r.Status != 422 || message(r) == "" {
				t.Fatalf("%d %s", r.Status, r)
			}
		})
		t.Run("Oversize", func(t *testing.T) {
			big := `{"name":"` + strings.Repeat("x", 2<<20) + `"}`
			e.expect(e.do("POST", "/api/center/add", admin, big), 413)
		})
		t.Run("MissingRequired", func(t *testing.T) {
			r := e.expect(e.do("POST", "/api/hospital/add", admin, map[string]any{"name": " "}, "user-language", "en-US"), 422)
			var out struct {
				Errors map[string][]string `json:"errors"`
			}
			e.decode(r, &out)
			for _, f := range []string{"name", "abbreviation", "code", "public_ip", "port", "center_ids"} {
				if len(out.Errors[f]) == 0 {
					t.Errorf("no error for %s: %s", f, r)
				}
			}
		})
		t.Run("NestedFieldErrorsNameTheirPath", func(t *testing.T) {
			body := map[string]any{"name": "H", "site_info": map[string]any{"hisip": "10.0.0.1"}}
			r := e.expect(e.do("POST", "/api/hospital/add", admin, body), 422)
			var out struct {
				Errors map[string][]string `json:"errors"`
			}
			e.decode(r, &out)
			if len(out.Errors["site_info.hisname"]) == 0 || len(out.Errors["hisname"]) != 0 {
				t.Fatalf("want the error under site_info.hisname: %s", r)
			}
		})
		t.Run("BadPhoneAndWeakPassword", func(t *testing.T) {
			body := map[string]any{"username": "u1", "name": "U", "password": e.encrypt("weakpassword"), "roles": []string{"admin"}}
			r := e.expect(e.do("POST", "/api/user", admin, body), 422)
			if !strings.Contains(r.String(), "password") {
				t.Fatalf("%s", r)
			}
			body["password"] = e.encrypt("Granite#Lake26")
			body["phone"] = "12345"
			r = e.expect(e.do("POST", "/api/user", admin, body), 422)
			if !strings.Contains(r.String(), "phone") {
				t.Fatalf("%s", r)
			}
		})
		t.Run("CenterCycle", func(t *testing.T) {
			var parent, child int64
			e.app.DB.Get(&parent, "SELECT id FROM centers WHERE code = 'EC'")
			e.app.DB.Get(&child, "SELECT id FROM centers WHERE code = 'EC-CY'")
			e.expect(e.do("POST", "/api/center/"+itoa(parent), admin, map[string]any{"name": "华东远程病理会诊中心", "parent_id": child}), 422)
			e.expect(e.do("DELETE", "/api/center/"+itoa(parent), admin, nil), 409)
		})
		if after := e.count("audit_logs", "outcome = 'success' AND action <> 'auth.login'"); after != before {
			t.Fatalf("bad input wrote %d audit records", after-before)
		}
		if e.count("users", "") != 14 || e.count("centers", "") != 3 || e.count("hospitals", "") != 3 {
			t.Fatal("bad input wrote rows")
		}
	})
}

func TestOperationLogTabs(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		e.tryLogin("admin", "Wrong@2026x")
		admin := e.login("admin")
		l := e.list("/api/log/operation", admin, url.Values{"params": {`{"tab":"failure"}`}})
		if l.Meta.Pagination.Total < 1 {
			t.Fatal("no failure in the failure tab")
		}
		for _, r := range l.Data {
			if r["outcome"] != "failure" {
				t.Fatalf("failure tab shows %v", r["outcome"])
			}
		}
		e.expect(e.do("GET", "/api/log/operation?params="+url.QueryEscape(`{"tab":"nope"}`), admin, nil), 400)
	})
}

func TestOperationLogNamesForPeople(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		c, _ := json.Marshal(map[string]any{"constraints": []any{map[string]any{"condition": "and", "constraint": []any{
			map[string]any{"condition": "and", "operator": "=", "column": "action", "value": "auth.login"},
		}}}})
		q := url.Values{"page_size": {"1"}, "constraints": {string(c)}}.Encode()
		for lang, want := range map[string][3]string{"zh-CN": {"登录", "用户", "管理员"}, "en-US": {"Sign in", "User", "Administrator"}} {
			var l struct{ Data []map[string]any }
			e.decode(e.expect(e.do("GET", "/api/log/operation?"+q, admin, nil, "user-language", lang), 200), &l)
			if len(l.Data) != 1 {
				t.Fatalf("%s: no sign-in record", lang)
			}
			got := [3]any{l.Data[0]["action_text"], l.Data[0]["object_text"], l.Data[0]["role_text"]}
			if got != [3]any{want[0], want[1], want[2]} || l.Data[0]["role"] != "admin" {
				t.Fatalf("%s: %v (role %v)", lang, got, l.Data[0]["role"])
			}
		}
	})
}

func TestStatusTabsOfConfigLists(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		for path, table := range map[string]string{"/api/charge_item/lists": "charge_items", "/api/config/library": "libraries"} {
			e.app.DB.Exec("UPDATE " + table + " SET status = 0 WHERE id = (SELECT MIN(id) FROM " + table + ")")
			for tab, where := range map[string]string{"all": "", "enabled": "status = 1", "disabled": "status = 0"} {
				cond := "deleted_at IS NULL"
				if where != "" {
					cond += " AND " + where
				}
				want := e.count(table, cond)
				l := e.list(path, admin, url.Values{"params": {`{"tab":"` + tab + `"}`}, "page_size": {"100"}})
				if l.Meta.Pagination.Total != want || len(l.Data) != want || want == 0 {
					t.Fatalf("%s tab %s: %d rows (total %d), want %d", path, tab, len(l.Data), l.Meta.Pagination.Total, want)
				}
			}
			e.expect(e.do("GET", path+"?params="+url.QueryEscape(`{"tab":"nope"}`), admin, nil), 400)
		}
	})
}

// TestCenterAdminCannotTakeOverSharedUsers: a center administrator manages a
// user only when every center and hospital of the user is theirs. A user
// shared with another center (or bound to another center's hospital) is
// shown to them read-only; every change answers 403 in the caller's
// language and changes nothing, so they can neither sign in as that user nor
// strip the other center's binding. The administrator still may.
func TestCenterAdminCannotTakeOverSharedUsers(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, ca := e.login("admin"), e.login("center_admin")
		var ec, wc, h1, h3 int64
		e.app.DB.Get(&ec, "SELECT id FROM centers WHERE code = 'EC'")
		e.app.DB.Get(&wc, "SELECT id FROM centers WHERE code = 'WC'")
		e.app.DB.Get(&h1, "SELECT id FROM hospitals WHERE code = 'H001'")
		e.app.DB.Get(&h3, "SELECT id FROM hospitals WHERE code = 'H003'")
		create := func(username string, roles []string, centers, hospitals []int64) int64 {
			body := map[string]any{"username": username, "name": username, "password": e.encrypt("Shared@2026"), "roles": roles,
				"center_ids": centers, "hospital_ids": hospitals}
			var out struct {
				Data struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("POST", "/api/user", admin, body), 200), &out)
			return out.Data.ID
		}
		shared := map[string]int64{
			"two_centers":    create("shared_alloc", []string{"allocator"}, []int64{ec, wc}, nil),
			"other_hospital": create("shared_site", []string{"site"}, nil, []int64{h1, h3}),
		}
		own := create("own_expert", []string{"expert"}, []int64{ec}, nil)
		e.app.DB.MustExec(e.app.DB.Rebind("UPDATE users SET locked_until = ?, failed_logins = 5 WHERE id IN (?, ?)"),
			time.Now().UTC().Add(time.Hour), shared["two_centers"], shared["other_hospital"])
		snapshot := func(id int64) string {
			var b strings.Builder
			for _, q := range []string{"SELECT * FROM users WHERE id = ?", "SELECT role, config FROM user_roles WHERE user_id = ? ORDER BY role",
				"SELECT center_id FROM user_centers WHERE user_id = ? ORDER BY center_id", "SELECT hospital_id FROM user_hospitals WHERE user_id = ? ORDER BY hospital_id",
				"SELECT COUNT(*) FROM sessions WHERE user_id = ? AND revoked_at IS NULL"} {
				rows, err := e.app.DB.Queryx(e.app.DB.Rebind(q), id)
				if err != nil {
					t.Fatal(err)
				}
				for rows.Next() {
					v, _ := rows.SliceScan()
					fmt.Fprintf(&b, "%v;", v)
				}
				rows.Close()
			}
			return b.String()
		}
		for kind, id := range shared {
			var u struct {
				Data map[string]any `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/user/"+itoa(id), ca, nil), 200), &u)
			if u.Data["manageable"] != false {
				t.Errorf("%s: shown as manageable to the center administrator", kind)
			}
			body := func(change func(map[string]any)) map[string]any {
				b := map[string]any{}
				for _, k := range []string{"username", "name", "phone", "email", "work_no", "roles", "center_ids", "hospital_ids"} {
					b[k] = u.Data[k]
				}
				change(b)
				return b
			}
			before := snapshot(id)
			for i, c := range []struct {
				name, method, path string
				body               any
			}{
				{"Edit", "POST", "/api/user/" + itoa(id), body(func(b map[string]any) { b["name"] = "改名" })},
				{"ChangeRoles", "POST", "/api/user/" + itoa(id), body(func(b map[string]any) { b["roles"] = []string{"expert"} })},
				{"DropOtherBinding", "POST", "/api/user/" + itoa(id), body(func(b map[string]any) {
					if kind == "two_centers" {
						b["center_ids"] = []int64{ec}
					} else {
						b["hospital_ids"] = []int64{h1}
					}
				})},
				{"ResetPassword", "POST", "/api/user/reset_password/" + itoa(id), map[string]any{"password": e.encrypt("Taken@2026x")}},
				{"Unlock", "POST", "/api/user/delLoginLock/" + itoa(id), nil},
				{"Disable", "POST", "/api/user/status/" + itoa(id), map[string]any{"status": 0}},
				{"Delete", "DELETE", "/api/user/" + itoa(id), nil},
			} {
				lang := []string{"zh-CN", "en-US"}[i%2]
				r := e.do(c.method, c.path, ca, c.body, "user-language", lang)
				if r.Status != 403 {
					t.Errorf("%s %s: %d %s", kind, c.name, r.Status, r)
					continue
				}
				localized(t, lang, message(r), kind+" "+c.name)
				if message(r) == message(e.do("GET", "/api/log/operation", ca, nil, "user-language", lang)) {
					t.Errorf("%s %s: the generic refusal, not why", kind, c.name)
				}
			}
			if after := snapshot(id); after != before {
				t.Errorf("%s changed:\n%s\n%s", kind, before, after)
			}
		}
		if r := e.tryLogin("shared_alloc", "Taken@2026x"); r.Status == 200 {
			t.Error("the center administrator's password took")
		}
		t.Run("ListedReadOnly", func(t *testing.T) {
			l := e.list("/api/user", ca, url.Values{"page_size": {"100"}})
			seen := map[string]any{}
			for _, r := range l.Data {
				seen[r["username"].(string)] = r["manageable"]
			}
			if seen["shared_alloc"] != false || seen["shared_site"] != false || seen["own_expert"] != true {
				t.Fatalf("manageable: %v", seen)
			}
		})
		t.Run("OwnUserStillManaged", func(t *testing.T) {
			e.expect(e.do("POST", "/api/user/reset_password/"+itoa(own), ca, map[string]any{"password": e.encrypt("Own@2026xx")}), 200)
			e.expect(e.tryLogin("own_expert", "Own@2026xx"), 200)
		})
		t.Run("AdministratorMay", func(t *testing.T) {
			e.expect(e.do("POST", "/api/user/reset_password/"+itoa(shared["two_centers"]), admin, map[string]any{"password": e.encrypt("Admin@2026x")}), 200)
			e.expect(e.do("POST", "/api/user/delLoginLock/"+itoa(shared["other_hospital"]), admin, nil), 200)
		})
	})
}
