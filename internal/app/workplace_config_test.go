package app_test

import (
	"encoding/json"
	"net/url"
	"slices"
	"testing"
)

// caseIDs lists the ids of a case list.
func caseIDs(l listOut) []string {
	out := []string{}
	for _, r := range l.Data {
		out = append(out, itoa(int64(r["id"].(float64))))
	}
	return out
}

// An allocator configured with centers (role config center_ids) sees and
// acts on those centers' cases only: the lists, the tab counts, the case,
// the allotment; refused with the usual not-found answer, nothing written.
// Without centers configured they keep every center they are bound to.
func TestAllocatorCentersConfig(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin := e.login("admin")
		allocID := e.userID("allocator")
		var west int64
		e.app.DB.Get(&west, "SELECT id FROM centers WHERE code = 'WC'")
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("INSERT INTO user_centers (user_id, center_id) VALUES (?, ?)"), allocID, west); err != nil {
			t.Fatal(err)
		}
		id := e.unassignedCase(f, "BL2026-16401", f.library)
		alloc := e.login("allocator")
		toAllot := url.Values{"params": {`{"tab":"to_allot"}`}, "page_size": {"100"}}
		counts := func() map[string]int64 {
			t.Helper()
			return data[map[string]int64](e, e.expect(e.do("GET", "/api/consultation/count", alloc, nil), 200))
		}

		// No centers configured: every center of theirs, as before.
		if l := e.list("/api/consultation/list", alloc, toAllot); !slices.Contains(caseIDs(l), id) {
			t.Fatalf("unconfigured allocator does not see the case: %v", caseIDs(l))
		}
		before := counts()
		if before["to_allot"] == 0 {
			t.Fatalf("counts: %v", before)
		}
		e.expect(e.do("GET", "/api/consultation/resources/"+id, alloc, nil), 200)

		// Configured with the western center only: the eastern case is gone everywhere.
		e.setRoleConfig(admin, allocID, "allocator", map[string]any{"center_ids": []int64{west}})
		if l := e.list("/api/consultation/list", alloc, url.Values{"page_size": {"100"}}); len(l.Data) != 0 {
			t.Fatalf("allocator of the western center sees %v", caseIDs(l))
		}
		for tab, n := range counts() {
			if n != 0 {
				t.Errorf("tab %s counts %d for a center without cases", tab, n)
			}
		}
		refusedBoth(t, e, "GET", "/api/consultation/resources/"+id, alloc, nil, 404, "", "consultations")
		refusedBoth(t, e, "POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}, 404, "", "case_logs")
		logs := e.count("case_logs", "")
		e.expect(e.do("POST", "/api/distribute/batch_bindexpert", alloc, map[string]any{"ids": []any{json.Number(id)}, "expert_id": f.expert}), 200)
		if e.count("case_logs", "") != logs {
			t.Fatal("a batch allotment out of reach wrote")
		}
		if n := e.count("consultations", "id = "+id+" AND expert_id IS NOT NULL"); n != 0 {
			t.Fatal("an allocator of another center assigned the case")
		}
		// Nor are they told of the center's new cases.
		quiet := e.unassignedCase(f, "BL2026-16402", f.library)
		if n := e.count("notifications", "user_id = ? AND consult_id = ?", allocID, atoi(quiet)); n != 0 {
			t.Errorf("the allocator of another center was told of a case %d times", n)
		}
		if n := e.count("notifications", "user_id = ? AND consult_id = ?", e.userID("center_admin"), atoi(quiet)); n == 0 {
			t.Error("the center administrator was not told of the case")
		}
		// The centers offered to them are the configured ones.
		if l := e.list("/api/center/list", alloc, nil); len(l.Data) != 1 || int64(l.Data[0]["id"].(float64)) != west {
			t.Errorf("centers offered: %v", l.Data)
		}

		// Configured with the eastern center: back in reach, and allotted.
		e.setRoleConfig(admin, allocID, "allocator", map[string]any{"center_ids": []int64{f.center}})
		if after := counts(); after["to_allot"] != before["to_allot"]+1 { // and the quiet case
			t.Fatalf("counts %v, want %v", after, before)
		}
		e.expect(e.do("POST", "/api/distribute/"+id+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}), 200)
		told := e.unassignedCase(f, "BL2026-16403", f.library)
		if n := e.count("notifications", "user_id = ? AND consult_id = ?", allocID, atoi(told)); n == 0 {
			t.Error("the allocator of the case's center was not told of it")
		}

		// A center administrator who is also an allocator keeps their centers.
		var caID int64 = e.userID("center_admin")
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("INSERT INTO user_roles (user_id, role, config) VALUES (?, 'allocator', ?)"), caID, `{"center_ids":[`+itoa(west)+`]}`); err != nil {
			t.Fatal(err)
		}
		e.expect(e.do("GET", "/api/consultation/resources/"+id, e.login("center_admin"), nil), 200)
	})
}

// A site account configured with a site (role config site_id) acts for
// that hospital only among those it is bound to: it sees that hospital's
// cases and registers for it.
func TestSiteIDConfig(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		admin := e.login("admin")
		siteID := e.userID("site")
		var h2 int64
		e.app.DB.Get(&h2, "SELECT id FROM hospitals WHERE code = 'H002'")
		if _, err := e.app.DB.Exec(e.app.DB.Rebind("INSERT INTO user_hospitals (user_id, hospital_id) VALUES (?, ?)"), siteID, h2); err != nil {
			t.Fatal(err)
		}
		h1case := e.unassignedCase(f, "BL2026-16411", f.library) // registered for the first hospital
		site := e.login("site")
		all := url.Values{"page_size": {"100"}}
		if l := e.list("/api/consultation/list", site, all); !slices.Contains(caseIDs(l), h1case) {
			t.Fatal("unconfigured site does not see its first hospital's case")
		}

		e.setRoleConfig(admin, siteID, "site", map[string]any{"site_id": h2})
		l := e.list("/api/consultation/list", site, all)
		if slices.Contains(caseIDs(l), h1case) {
			t.Fatal("the site of the second hospital sees the first hospital's case")
		}
		refusedBoth(t, e, "GET", "/api/consultation/resources/"+h1case, site, nil, 404, "", "consultations")
		refusedBoth(t, e, "POST", "/api/consultation/recall/"+h1case, site, map[string]any{"reason": "资料有误"}, 404, "", "case_logs")
		var c caseOut
		e.decode(e.expect(e.do("POST", "/api/consultation", site, registration(f, "BL2026-16412", e.slide(h2, "site"))), 200), &c)
		if n := e.count("consultations", "id = ? AND hospital_id = ?", c.Data.ID, h2); n != 1 {
			t.Fatal("the registration is not the configured site's")
		}
		// A slide of the other hospital cannot be attached.
		refusedBoth(t, e, "POST", "/api/consultation", site, registration(f, "BL2026-16413", e.slide(f.hospital, "site")), 422, "slide_ids", "consultations")

		e.setRoleConfig(admin, siteID, "site", map[string]any{"site_id": f.hospital})
		if l := e.list("/api/consultation/list", site, all); !slices.Contains(caseIDs(l), h1case) || slices.Contains(caseIDs(l), itoa(c.Data.ID)) {
			t.Fatalf("site of the first hospital: %v", caseIDs(l))
		}
	})
}
