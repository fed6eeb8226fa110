package app_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"telepath/internal/billing"
	"telepath/internal/library"
	"telepath/internal/platform/apperr"
)

// cfgRecord is the data of a single-record response, with numbers kept as
// their JSON text.
func (e *env) cfgRecord(r resp) map[string]json.RawMessage {
	e.t.Helper()
	var out struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	e.decode(r, &out)
	return out.Data
}

func (e *env) cfgID(r resp) int64 {
	e.t.Helper()
	var id int64
	if err := json.Unmarshal(e.cfgRecord(r)["id"], &id); err != nil {
		e.t.Fatalf("no id in %s", r)
	}
	return id
}

// cfgFieldErr fails unless r is a 422 with an error on field.
func (e *env) cfgFieldErr(r resp, field string) {
	e.t.Helper()
	e.expect(r, 422)
	var out struct {
		Errors map[string][]string `json:"errors"`
	}
	e.decode(r, &out)
	if len(out.Errors[field]) == 0 {
		e.t.Fatalf("no error on %s: %s", field, r)
	}
}

func (e *env) audited(action string, id int64) int {
	e.t.Helper()
	return e.count("audit_logs", "action = ? AND object_id = ? AND outcome = 'success'", action, itoa(id))
}

func TestLibraryConfig(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, site := e.login("admin"), e.login("site")
		body := map[string]any{"name": "测试病理库", "pis_code": "TS", "prefix": "TS", "middle_digits": 4, "symbol": "-", "digit_length": 5}
		root := e.cfgID(e.expect(e.do("POST", "/api/config/library", admin, body), 200))
		sub := e.cfgID(e.expect(e.do("POST", "/api/config/library", admin, map[string]any{"name": "测试子库", "parent_id": root, "prefix": "TZ"}), 200))
		libraries := e.count("libraries", "")
		audits := e.count("audit_logs", "action LIKE 'library.%'")

		t.Run("Created", func(t *testing.T) {
			got := e.cfgRecord(e.expect(e.do("GET", "/api/config/library/"+itoa(root), site, nil), 200))
			if string(got["delay_hours"]) != "3" || string(got["report_kind"]) != `"routine"` || string(got["status"]) != "1" ||
				!strings.HasPrefix(string(got["example"]), `"TS20`) {
				t.Fatalf("defaults: %v", got)
			}
			child := e.cfgRecord(e.expect(e.do("GET", "/api/config/library/"+itoa(sub), admin, nil), 200))
			if string(child["parent_name"]) != `"测试病理库"` {
				t.Fatalf("parent_name %s", child["parent_name"])
			}
			if e.audited("library.create", root) != 1 || e.audited("library.create", sub) != 1 {
				t.Fatal("create not audited")
			}
		})
		t.Run("ListAndTree", func(t *testing.T) {
			l := e.list("/api/config/library", site, url.Values{"search": {"测试"}})
			if l.Meta.Pagination.Total != 2 {
				t.Fatalf("list: %v", l.Data)
			}
			tree := e.list("/api/config/library", site, url.Values{"tree": {"1"}, "params": {`{"status":1}`}})
			found := false
			for _, n := range tree.Data {
				if n["name"] == "测试病理库" {
					kids, _ := n["children"].([]any)
					found = len(kids) == 1 && kids[0].(map[string]any)["name"] == "测试子库"
				}
				if n["name"] == "测试子库" {
					t.Fatal("sub-library listed as a root")
				}
			}
			if !found {
				t.Fatalf("tree: %v", tree.Data)
			}
			var counts struct {
				Data map[string]int `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/config/library/count", site, nil), 200), &counts)
			if counts.Data["all"] != libraries || counts.Data["enabled"] != libraries {
				t.Fatalf("counts %v, %d libraries", counts.Data, libraries)
			}
		})
		t.Run("ErrSiteCannotWrite", func(t *testing.T) {
			e.expect(e.do("POST", "/api/config/library", site, body), 403)
			e.expect(e.do("POST", "/api/config/library/"+itoa(root), site, body), 403)
			e.expect(e.do("DELETE", "/api/config/library/"+itoa(sub), site, nil), 403)
			e.expect(e.do("POST", "/api/config/library", e.login("center_admin"), body), 403)
		})
		t.Run("ErrBadInput", func(t *testing.T) {
			e.cfgFieldErr(e.do("POST", "/api/config/library", admin, map[string]any{"prefix": "BL"}), "name")
			e.cfgFieldErr(e.do("POST", "/api/config/library", admin, map[string]any{"name": "x", "prefix": "B L"}), "prefix")
			e.cfgFieldErr(e.do("POST", "/api/config/library", admin, map[string]any{"name": "x", "symbol": "/"}), "symbol")
			e.cfgFieldErr(e.do("POST", "/api/config/library", admin, map[string]any{"name": "x", "prefix": "ABCDEFGHIJK"}), "prefix")
			e.cfgFieldErr(e.do("POST", "/api/config/library", admin, map[string]any{"name": "x", "digit_length": 11}), "digit_length")
			e.cfgFieldErr(e.do("POST", "/api/config/library", admin, map[string]any{"name": "x", "middle_digits": -1}), "middle_digits")
			e.cfgFieldErr(e.do("POST", "/api/config/library", admin, map[string]any{"name": "x", "delay_hours": 73}), "delay_hours")
			e.cfgFieldErr(e.do("POST", "/api/config/library", admin, map[string]any{"name": "x", "parent_id": 999999}), "parent_id")
			e.cfgFieldErr(e.do("POST", "/api/config/library", admin, map[string]any{"name": "测试病理库"}), "name")
			r := e.do("POST", "/api/config/library", admin, map[string]any{"name": "x", "prefix": "B L"}, "user-language", "en-US")
			if !strings.Contains(r.String(), "letters, digits") {
				t.Fatalf("en-US: %s", r)
			}
		})
		t.Run("ErrParentIsItself", func(t *testing.T) {
			upd := map[string]any{"name": "测试病理库", "prefix": "XX", "parent_id": root}
			e.cfgFieldErr(e.do("POST", "/api/config/library/"+itoa(root), admin, upd), "parent_id")
			upd["parent_id"] = sub
			e.cfgFieldErr(e.do("POST", "/api/config/library/"+itoa(root), admin, upd), "parent_id")
			if e.count("libraries", "id = ? AND prefix = 'TS' AND parent_id IS NULL", root) != 1 {
				t.Fatal("written on error")
			}
		})
		t.Run("Update", func(t *testing.T) {
			upd := map[string]any{"name": "测试病理库", "prefix": "TS", "middle_digits": 4, "symbol": "-", "digit_length": 5, "delay_hours": 0, "report_kind": "frozen"}
			got := e.cfgRecord(e.expect(e.do("POST", "/api/config/library/"+itoa(root), admin, upd), 200))
			if string(got["delay_hours"]) != "0" || string(got["report_kind"]) != `"frozen"` {
				t.Fatalf("update: %v", got)
			}
			if e.audited("library.update", root) != 1 {
				t.Fatal("update not audited")
			}
		})
		t.Run("Numbers", func(t *testing.T) {
			ctx := context.Background()
			svc := library.New(e.app.DB)
			if err := svc.CheckNumber(ctx, root, "TS2026-00001"); err != nil {
				t.Fatal(err)
			}
			if err := svc.CheckNumber(ctx, root, "TS2026-1"); apperr.CodeOf(err) != apperr.Invalid || err.(*apperr.Error).Fields["pathology_number"] == nil {
				t.Fatalf("rule: %v", err)
			}
			if err := svc.CheckNumber(ctx, 999999, "TS2026-00001"); err == nil || err.(*apperr.Error).Fields["library_id"] == nil {
				t.Fatalf("unknown library: %v", err)
			}
			var next struct {
				Data struct {
					Number string `json:"number"`
				} `json:"data"`
			}
			e.decode(e.expect(e.do("GET", "/api/config/library/"+itoa(root)+"/next_number?middle=2026", site, nil), 200), &next)
			if next.Data.Number != "TS2026-00001" {
				t.Fatalf("first number %q", next.Data.Number)
			}
			var hospital, user int64
			e.app.DB.Get(&hospital, "SELECT id FROM hospitals WHERE code = 'H001'")
			e.app.DB.Get(&user, "SELECT id FROM users WHERE username = 'site'")
			now := time.Now().UTC()
			for _, n := range []string{"TS2026-00007", "TS2026-00003", "TS2025-00099", "TS2026_00050"} {
				if _, err := e.app.DB.Exec(e.app.DB.Rebind(`INSERT INTO consultations (hospital_id, user_id, library_id, pathology_number, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?, ?)`), hospital, user, root, n, now, now); err != nil {
					t.Fatal(err)
				}
			}
			e.decode(e.expect(e.do("GET", "/api/config/library/"+itoa(root)+"/next_number?middle=2026", site, nil), 200), &next)
			if next.Data.Number != "TS2026-00008" {
				t.Fatalf("next number %q", next.Data.Number)
			}
			if n, err := svc.NextNumber(ctx, root, ""); err != nil || !strings.HasPrefix(n, "TS20") {
				t.Fatalf("default middle: %q %v", n, err)
			}
			e.cfgFieldErr(e.do("GET", "/api/config/library/"+itoa(root)+"/next_number?middle=26", site, nil), "middle")
			e.expect(e.do("GET", "/api/config/library/999999/next_number", site, nil), 422)
		})
		t.Run("DisabledLibraryRefusesNumbers", func(t *testing.T) {
			upd := map[string]any{"name": "测试子库", "parent_id": root, "prefix": "TZ", "status": 0}
			e.expect(e.do("POST", "/api/config/library/"+itoa(sub), admin, upd), 200)
			err := library.New(e.app.DB).CheckNumber(context.Background(), sub, "TZ1")
			if err == nil || err.(*apperr.Error).Fields["library_id"] == nil {
				t.Fatalf("disabled: %v", err)
			}
		})
		t.Run("ErrDeleteParentFirst", func(t *testing.T) {
			before := e.count("audit_logs", "action LIKE 'library.%'")
			r := e.expect(e.do("DELETE", "/api/config/library/"+itoa(root), admin, nil, "user-language", "en-US"), 409)
			if message(r) != "A sub-library must be deleted before its parent" {
				t.Fatalf("%s", r)
			}
			if e.count("libraries", "id = ? AND deleted_at IS NULL", root) != 1 || e.count("audit_logs", "action LIKE 'library.%'") != before {
				t.Fatal("written on error")
			}
		})
		t.Run("Delete", func(t *testing.T) {
			e.expect(e.do("DELETE", "/api/config/library/"+itoa(sub), admin, nil), 200)
			e.expect(e.do("DELETE", "/api/config/library/"+itoa(root), admin, nil), 200)
			e.expect(e.do("GET", "/api/config/library/"+itoa(root), admin, nil), 404)
			e.expect(e.do("DELETE", "/api/config/library/"+itoa(root), admin, nil), 404)
			if e.audited("library.delete", root) != 1 || e.audited("library.delete", sub) != 1 {
				t.Fatal("delete not audited")
			}
			if e.count("libraries", "") != libraries {
				t.Fatal("delete is not soft")
			}
		})
		if e.count("audit_logs", "action LIKE 'library.%'") < audits+4 {
			t.Fatal("writes not audited")
		}
	})
}

func TestChargeItems(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, ca, site := e.login("admin"), e.login("center_admin"), e.login("site")
		// Raw JSON so the price reaches the server as the client wrote it.
		r := e.expect(e.do("POST", "/api/charge_item/store", admin, `{"name":"测试切片","input_code":"CSQP","item_code":"T-001","price":19.99,"unit":"张"}`), 200)
		a := e.cfgID(r)
		if got := string(e.cfgRecord(r)["price"]); got != "19.99" {
			t.Fatalf("price %s", got)
		}
		if e.count("charge_items", "id = ? AND price_fen = 1999 AND number = 1 AND status = 1", a) != 1 || e.audited("charge_item.create", a) != 1 {
			t.Fatal("not stored in fen or not audited")
		}
		b := e.cfgID(e.expect(e.do("POST", "/api/charge_item/store", ca, `{"name":"测试染色","price":0.07,"number":2}`), 200))
		if e.count("charge_items", "id = ? AND price_fen = 7 AND number = 2", b) != 1 {
			t.Fatal("0.07 yuan is not 7 fen")
		}
		items := e.count("charge_items", "")

		t.Run("Read", func(t *testing.T) {
			l := e.list("/api/charge_item/lists", site, url.Values{"search": {"测试"}, "sort_by": {`{"price_fen":"desc"}`}})
			if got := names(l, "name"); strings.Join(got, ",") != "测试切片,测试染色" {
				t.Fatalf("list %v", got)
			}
			e.expect(e.do("GET", "/api/charge_item/item/"+itoa(a), site, nil), 200)
			e.expect(e.do("GET", "/api/charge_item/item/999999", site, nil), 404)
			e.expect(e.do("GET", "/api/charge_item/count", site, nil), 200)
		})
		t.Run("ErrSiteCannotWrite", func(t *testing.T) {
			e.expect(e.do("POST", "/api/charge_item/store", site, `{"name":"x","price":1}`), 403)
			e.expect(e.do("PATCH", "/api/charge_item/update", site, map[string]any{"id": a, "name": "y"}), 403)
			e.expect(e.do("DELETE", "/api/charge_item/destroy", site, map[string]any{"ids": []int64{a}}), 403)
		})
		t.Run("ErrBadInput", func(t *testing.T) {
			e.cfgFieldErr(e.do("POST", "/api/charge_item/store", admin, `{"name":"x","price":1.005}`), "price")
			e.cfgFieldErr(e.do("POST", "/api/charge_item/store", admin, `{"name":"x","price":-1}`), "price")
			e.cfgFieldErr(e.do("POST", "/api/charge_item/store", admin, `{"name":"x","price":1000000.01}`), "price")
			e.cfgFieldErr(e.do("POST", "/api/charge_item/store", admin, `{"name":"x"}`), "price")
			e.cfgFieldErr(e.do("POST", "/api/charge_item/store", admin, `{"price":1}`), "name")
			e.cfgFieldErr(e.do("POST", "/api/charge_item/store", admin, `{"name":"测试切片","price":1}`), "name")
			e.cfgFieldErr(e.do("POST", "/api/charge_item/store", admin, `{"name":"y","item_code":"T-001","price":1}`), "item_code")
			e.cfgFieldErr(e.do("POST", "/api/charge_item/store", admin, `{"name":"y","price":1,"number":0}`), "number")
			e.cfgFieldErr(e.do("PATCH", "/api/charge_item/update", admin, `{"id":`+itoa(a)+`,"price":2.999}`), "price")
			r := e.do("POST", "/api/charge_item/store", admin, `{"name":"x","price":1.005}`, "user-language", "en-US")
			if !strings.Contains(message(r), "two decimals") {
				t.Fatalf("en-US: %s", r)
			}
			if e.count("charge_items", "") != items || e.count("charge_items", "id = ? AND price_fen = 1999", a) != 1 {
				t.Fatal("written on error")
			}
		})
		t.Run("Update", func(t *testing.T) {
			r := e.expect(e.do("PATCH", "/api/charge_item/update", ca, `{"id":`+itoa(a)+`,"price":25,"status":0}`), 200)
			got := e.cfgRecord(r)
			if string(got["price"]) != "25.00" || string(got["name"]) != `"测试切片"` || string(got["status"]) != "0" {
				t.Fatalf("update %v", got)
			}
			if e.audited("charge_item.update", a) != 1 {
				t.Fatal("update not audited")
			}
			e.expect(e.do("PATCH", "/api/charge_item/update", admin, map[string]any{"id": 999999, "name": "z"}), 404)
		})
		t.Run("ItemsForCharging", func(t *testing.T) {
			m, err := billing.New(e.app.DB).Items(context.Background(), []int64{a, b, 999999})
			if err != nil || len(m) != 1 || m[b].Price != 7 || m[b].Name != "测试染色" {
				t.Fatalf("items %v %v (disabled %d must be absent)", m, err, a)
			}
		})
		t.Run("Destroy", func(t *testing.T) {
			e.expect(e.do("DELETE", "/api/charge_item/destroy", admin, map[string]any{"ids": []int64{a, 999999}}), 404)
			if e.count("charge_items", "deleted_at IS NOT NULL") != 0 {
				t.Fatal("half deleted")
			}
			e.expect(e.do("DELETE", "/api/charge_item/destroy", admin, map[string]any{"ids": []int64{}}), 422)
			e.expect(e.do("DELETE", "/api/charge_item/destroy", ca, map[string]any{"ids": []int64{a, b}}), 200)
			if e.count("charge_items", "deleted_at IS NOT NULL") != 2 || e.audited("charge_item.delete", a) != 1 || e.audited("charge_item.delete", b) != 1 {
				t.Fatal("not deleted or not audited")
			}
			e.expect(e.do("GET", "/api/charge_item/item/"+itoa(a), admin, nil), 404)
		})
	})
}

func TestTimeoutConfig(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin, site := e.login("admin"), e.login("site")
		ctx := context.Background()
		svc := billing.New(e.app.DB)
		first := e.cfgID(e.expect(e.do("POST", "/api/config/timeout", admin, map[string]any{"name": "测试常规", "hours": 48, "is_default": 1}), 200))
		if e.count("timeout_configs", "id = ? AND remind_hours = 24 AND is_default = 1", first) != 1 || e.audited("timeout.create", first) != 1 {
			t.Fatal("create")
		}
		configs := e.count("timeout_configs", "")

		t.Run("SecondDefaultClearsFirst", func(t *testing.T) {
			second := e.cfgID(e.expect(e.do("POST", "/api/config/timeout", admin, map[string]any{"name": "测试默认", "hours": 96, "remind_hours": 12, "is_default": 1}), 200))
			configs++
			if e.count("timeout_configs", "is_default = 1 AND deleted_at IS NULL") != 1 || e.count("timeout_configs", "id = ? AND is_default = 1", second) != 1 {
				t.Fatal("more than one default")
			}
			if e.audited("timeout.update", first) != 1 {
				t.Fatal("clearing the old default not audited")
			}
			tm, err := svc.TimeoutFor(ctx, false)
			if err != nil || tm.ID == nil || *tm.ID != second || tm.Hours != 96 || tm.RemindHours != 12 {
				t.Fatalf("TimeoutFor %+v %v", tm, err)
			}
			e.expect(e.do("PATCH", "/api/config/timeout/"+itoa(first), admin, map[string]any{"is_default": 1}), 200)
			if e.count("timeout_configs", "id = ? AND is_default = 1", first) != 1 || e.count("timeout_configs", "is_default = 1 AND deleted_at IS NULL") != 1 {
				t.Fatal("PATCH default")
			}
		})
		t.Run("Expedite", func(t *testing.T) {
			var lowest int64
			urgent := e.cfgID(e.expect(e.do("POST", "/api/config/timeout", admin, map[string]any{"name": "测试加急", "hours": 12, "remind_hours": 4, "expedite": 1}), 200))
			configs++
			e.app.DB.Get(&lowest, "SELECT MIN(id) FROM timeout_configs WHERE expedite = 1 AND deleted_at IS NULL")
			tm, err := svc.TimeoutFor(ctx, true)
			if err != nil || tm.ID == nil || *tm.ID != lowest || (lowest == urgent && tm.Hours != 12) {
				t.Fatalf("TimeoutFor(expedite) %+v %v", tm, err)
			}
		})
		t.Run("ErrBadInput", func(t *testing.T) {
			audits := e.count("audit_logs", "action LIKE 'timeout.%'")
			e.cfgFieldErr(e.do("POST", "/api/config/timeout", admin, map[string]any{"hours": 24}), "name")
			e.cfgFieldErr(e.do("POST", "/api/config/timeout", admin, map[string]any{"name": "x", "hours": 0}), "hours")
			e.cfgFieldErr(e.do("POST", "/api/config/timeout", admin, map[string]any{"name": "x", "hours": 721}), "hours")
			e.cfgFieldErr(e.do("POST", "/api/config/timeout", admin, map[string]any{"name": "x", "hours": 10, "remind_hours": 11}), "remind_hours")
			e.cfgFieldErr(e.do("POST", "/api/config/timeout", admin, map[string]any{"name": "x", "hours": 10, "expedite": 1, "is_default": 1}), "is_default")
			e.cfgFieldErr(e.do("POST", "/api/config/timeout", admin, map[string]any{"name": "测试常规", "hours": 10}), "name")
			e.cfgFieldErr(e.do("PATCH", "/api/config/timeout/"+itoa(first), admin, map[string]any{"hours": 1000}), "hours")
			e.expect(e.do("PATCH", "/api/config/timeout/999999", admin, map[string]any{"hours": 10}), 404)
			if e.count("timeout_configs", "") != configs || e.count("timeout_configs", "id = ? AND hours = 48", first) != 1 ||
				e.count("audit_logs", "action LIKE 'timeout.%'") != audits {
				t.Fatal("written on error")
			}
		})
		t.Run("ErrOnlyAdminWrites", func(t *testing.T) {
			e.expect(e.do("POST", "/api/config/timeout", site, map[string]any{"name": "x", "hours": 10}), 403)
			e.expect(e.do("PATCH", "/api/config/timeout/"+itoa(first), e.login("center_admin"), map[string]any{"hours": 10}), 403)
			e.expect(e.do("DELETE", "/api/config/timeout/"+itoa(first), site, nil), 403)
			if l := e.list("/api/config/timeout", site, url.Values{"params": {`{"is_default":1}`}}); l.Meta.Pagination.Total != 1 {
				t.Fatalf("list %v", l.Data)
			}
		})
		t.Run("DeleteDefaultFallsBackToBuiltin", func(t *testing.T) {
			e.expect(e.do("DELETE", "/api/config/timeout/"+itoa(first), admin, nil), 200)
			if e.audited("timeout.delete", first) != 1 {
				t.Fatal("delete not audited")
			}
			tm, err := svc.TimeoutFor(ctx, false)
			if err != nil || tm.ID != nil || tm.Hours != 72 || tm.RemindHours != 24 {
				t.Fatalf("TimeoutFor after delete %+v %v", tm, err)
			}
			e.expect(e.do("DELETE", "/api/config/timeout/"+itoa(first), admin, nil), 404)
		})
	})
}
