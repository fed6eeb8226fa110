package app_test

import (
	"net/url"
	"testing"

	"telepath/internal/app"
)

// The demo shows cases in every status the workflow reaches, for both
// hospitals, each with specimens and a viewable slide.
func TestDemoCases(t *testing.T) {
	eachDB(t, func(c *app.Config) { c.DemoCases = true }, func(t *testing.T, e *env) {
		admin := e.login("admin")
		seen := map[string]bool{}
		for _, row := range e.list("/api/consultation/list", admin, url.Values{"page_size": {"100"}}).Data {
			seen[row["status_label"].(map[string]any)["key"].(string)] = true
			if row["slide_count"].(float64) < 1 {
				t.Errorf("case %v has no slide", row["consult_no"])
			}
		}
		for _, want := range []string{"draft", "to_be_submitted", "to_allot", "pending_diagnosis", "withdraw_unconfirmed", "recalled", "returned_to_site"} {
			if !seen[want] {
				t.Errorf("no demo case is %s (saw %v)", want, seen)
			}
		}
		site, site2 := e.list("/api/consultation/list", e.login("site"), nil), e.list("/api/consultation/list", e.login("site2"), nil)
		if site.Meta.Pagination.Total != 10 || site2.Meta.Pagination.Total != 10 {
			t.Errorf("site sees %d, site2 %d", site.Meta.Pagination.Total, site2.Meta.Pagination.Total)
		}
		for tab, marker := range map[string]string{"timeout": "timeout", "soon_timeout": "soon"} {
			var n int
			for _, row := range e.list("/api/consultation/list", admin, url.Values{"params": {`{"tab":"` + tab + `"}`}}).Data {
				if row["timing"] == marker {
					n++
				}
			}
			if n != 2 {
				t.Errorf("%s demo cases: %d", tab, n)
			}
		}
	})
}
