package app_test

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentTransitionsOfOneCase sends the site's submit and delete of
// the same unsubmitted case at once, for 24 cases: both start from the
// state that allows them, and each excludes the other, so exactly one of
// the two may succeed (the other is refused: 409, or 404 for a deleted case). Neither may be made
// from the state the other has already left behind: a deleted case sent to
// its center, or a submitted one deleted.
func TestConcurrentTransitionsOfOneCase(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		site := e.login("site")
		var ids []string
		for i := range 24 {
			var c caseOut
			e.decode(e.expect(e.do("POST", "/api/consultation", site, registration(f, fmt.Sprintf("BL2026-%05d", 53000+i), e.slide(f.hospital, "site"))), 200), &c)
			id := itoa(c.Data.ID)
			e.expect(e.do("POST", "/api/consultation/charge/"+id, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
			ids = append(ids, id)
		}
		both := 0
		for _, id := range ids {
			var wg sync.WaitGroup
			var submitted, deleted int
			wg.Add(2)
			go func() { defer wg.Done(); submitted = e.do("POST", "/api/consultation/submit/"+id, site, nil).Status }()
			go func() { defer wg.Done(); deleted = e.do("DELETE", "/api/consultation/"+id, site, nil).Status }()
			wg.Wait()
			if submitted == 200 && deleted == 200 {
				both++
			} else if submitted != 200 && deleted != 200 || submitted >= 500 || deleted >= 500 {
				t.Errorf("case %s: submit %d, delete %d", id, submitted, deleted)
			}
		}
		if both > 0 {
			t.Errorf("%d of %d cases were both submitted and deleted", both, len(ids))
		}
	})
}
