package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"telepath/internal/audit"
)

// TestConcurrentListReadsAreAllAudited: eight clients reading the case list
// at once while a case is written to: every read leaves exactly one record
// with its own filter, the writes leave theirs, and once the writer has
// caught up every record is sealed into one chain that verifies.
func TestConcurrentListReadsAreAllAudited(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		f := e.fixture()
		id := e.submittedCase(f, "BL2026-08801", f.expert)
		site := e.login("site")
		e.flushAudit()
		before := e.lastAuditID()
		const clients, reads, posts = 8, 15, 10
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range reads {
					if s := readAs(e, "/api/consultation/list?search="+url.QueryEscape(tag(c, i)), site); s != 200 {
						t.Errorf("client %d read %d: status %d", c, i, s)
					}
				}
			}()
		}
		for i := range posts {
			e.expect(e.do("POST", "/api/consultation/resources/"+id+"/message", site, map[string]any{"content": fmt.Sprintf("留言 %d", i)}), 200)
		}
		wg.Wait()
		e.flushAudit()

		seen := map[string]int{}
		for _, r := range e.auditSince(before) {
			if r.Action == "read.case_list" {
				seen[r.Message]++
				if r.Seq == nil {
					t.Errorf("record %d not sealed", r.ID)
				}
			}
		}
		for c := range clients {
			for i := range reads {
				n := 0
				for msg, k := range seen {
					if strings.Contains(msg, tag(c, i)) {
						n += k
					}
				}
				if n != 1 {
					t.Errorf("client %d read %d: %d records, want 1", c, i, n)
				}
			}
		}
		var changes int
		e.app.DB.Get(&changes, e.app.DB.Rebind("SELECT COUNT(*) FROM audit_logs WHERE id > ? AND action NOT LIKE 'read.%'"), before)
		if changes < posts {
			t.Errorf("%d change records, want at least %d", changes, posts)
		}
		var total int64
		e.app.DB.Get(&total, "SELECT COUNT(*) FROM audit_logs")
		rep, err := audit.Verify(context.Background(), e.app.DB)
		if err != nil || !rep.OK || rep.Pending != 0 || rep.Checked != total {
			t.Fatalf("chain: %+v %v (records %d)", rep, err, total)
		}
	})
}

// tag is the search of client c's read i; fixed width, so that no tag
// contains another.
func tag(c, i int) string { return fmt.Sprintf("并发%02d-%03d", c, i) }

// readAs reads path as token from any goroutine and returns the status (0 when
// the request could not be made).
func readAs(e *env, path, token string) int {
	req, err := http.NewRequest("GET", e.srv.URL+path, nil)
	if err != nil {
		return 0
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}
