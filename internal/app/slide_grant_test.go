package app_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"telepath/internal/slide/slidegen"
	"telepath/internal/slideserver"
)

// grantedCase uploads a real slide as site, registers and submits a case
// with it and has it assigned to expert; it returns the slide's id.
func (e *env) grantedCase(data []byte, attachments ...int64) int64 {
	e.t.Helper()
	f := e.fixture()
	site, alloc := e.login("site"), e.login("allocator")
	id := e.uploadAll(site, "HE-9.tif", data)
	if sl := e.waitSlide(site, id); sl.Viewable != 1 {
		e.t.Fatalf("slide: %+v", sl)
	}
	var c caseOut
	reg := registration(f, "BL2026-09077", id)
	for _, a := range attachments {
		prev, _ := reg["attachments"].([]any)
		reg["attachments"] = append(prev, map[string]any{"file_id": a, "type": 2})
	}
	e.decode(e.expect(e.do("POST", "/api/consultation", site, reg), 200), &c)
	cid := itoa(c.Data.ID)
	e.expect(e.do("POST", "/api/consultation/charge/"+cid, site, map[string]any{"items": []any{map[string]any{"item_id": f.item, "quantity": 1}}}), 200)
	e.expect(e.do("POST", "/api/consultation/submit/"+cid, site, nil), 200)
	e.expect(e.do("POST", "/api/distribute/"+cid+"/bindexpert", alloc, map[string]any{"expert_id": f.expert}), 200)
	return id
}

// tileURL opens the viewer of slide id as token and returns a tile's URL.
func (e *env) tileURL(token string, id int64) string {
	e.t.Helper()
	var v struct{ Data viewerOut }
	e.decode(e.expect(e.do("GET", "/api/slides/"+itoa(id)+"/viewer", token, nil), 200), &v)
	return strings.TrimSuffix(v.Data.DZIURL, ".dzi") + "_files/" + strconv.Itoa(v.Data.MaxLevel) + "/0_0.jpeg"
}

// A signed slide URL belongs to the session that asked for it: it stops
// working within seconds when the session signs out, the user is disabled
// or deleted, the case is referred to another expert, or the grant expires
// unrenewed. Renewing keeps the same URL.
func TestSlideGrantRevoked(t *testing.T) {
	data := genSlide(t, slidegen.Options{Width: 600, Height: 400, Seed: 21})
	eachDB(t, nil, func(t *testing.T, e *env) {
		slide := e.grantedCase(data)
		sid := itoa(slide)
		admin, alloc := e.login("admin"), e.login("allocator")
		e.cloneUser("site", "site_b", "B")
		e.cloneUser("site", "site_c", "C")
		site, siteB, siteC, expert, renewed := e.login("site"), e.login("site_b"), e.login("site_c"), e.login("expert"), e.login("site")
		urls := map[string]string{
			"logout": e.tileURL(site, slide), "disable": e.tileURL(siteB, slide), "delete": e.tileURL(siteC, slide),
			"referral": e.tileURL(expert, slide), "expired": e.tileURL(admin, slide),
		}
		kept := e.tileURL(renewed, slide)
		for name, u := range urls {
			if r := e.do("GET", u, "", nil); r.Status != 200 {
				t.Fatalf("%s: %d before", name, r.Status)
			}
		}

		e.expect(e.do("POST", "/api/auth/logout", site, nil), 200)
		e.expect(e.do("POST", "/api/user/status/"+itoa(e.userID("site_b")), admin, map[string]any{"status": 0}), 200)
		e.expect(e.do("DELETE", "/api/user/"+itoa(e.userID("site_c")), admin, nil), 200)
		var caseID int64
		e.app.DB.Get(&caseID, e.app.DB.Rebind("SELECT consult_id FROM slides WHERE id = ?"), slide)
		e.expect(e.do("POST", "/api/distribute/"+itoa(caseID)+"/referral", alloc, map[string]any{"expert_id": e.userID("expert2"), "reason": "转亚专科"}), 200)
		if _, err := e.app.DB.Exec(e.app.DB.Rebind(`UPDATE slide_grants SET expires_at = ? WHERE slide_id = ? AND session_id =
			(SELECT MAX(id) FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = 'admin'))`), time.Now().Add(-time.Second).UTC(), slide); err != nil {
			t.Fatal(err)
		}
		// The renewal keeps the URL and extends the grant.
		var g struct{ Data slideserver.Grant }
		e.decode(e.expect(e.do("POST", "/api/slides/"+sid+"/grant", renewed, nil), 200), &g)
		if !strings.HasPrefix(kept, g.Data.URL+"/") || g.Data.ExpiresAt.Before(time.Now().Add(slideserver.GrantTTL-time.Minute)) {
			t.Fatalf("renewal %+v changed %s", g.Data, kept)
		}
		e.expect(e.do("POST", "/api/slides/"+sid+"/grant", siteC, nil), 401)

		time.Sleep(slideserver.GrantCheckTTL + 200*time.Millisecond) // what the processes remember of the grants runs out
		for name, u := range urls {
			if r := e.do("GET", u, "", nil); r.Status != 403 {
				t.Errorf("%s: %d after", name, r.Status)
			}
		}
		e.expect(e.do("GET", kept, "", nil), 200)
		e.expect(e.do("GET", e.tileURL(e.login("expert2"), slide), "", nil), 200)
	})
}

// The signing key rotates: URLs signed with the replaced key keep working,
// those signed with the key before it stop.
func TestSlideKeyRotation(t *testing.T) {
	data := genSlide(t, slidegen.Options{Width: 600, Height: 400, Seed: 22})
	eachDB(t, nil, func(t *testing.T, e *env) {
		site := e.login("site")
		slide := e.uploadAll(site, "HE-r.tif", data)
		e.waitSlide(site, slide)
		first := e.tileURL(site, slide)
		e.expect(e.do("GET", first, "", nil), 200)
		rotate := func() {
			if _, err := slideserver.RotateKey(context.Background(), e.app.DB); err != nil {
				t.Fatal(err)
			}
			time.Sleep(slideserver.GrantCheckTTL + 200*time.Millisecond)
		}
		rotate()
		e.expect(e.do("GET", first, "", nil), 200)
		second := e.tileURL(site, slide)
		if second == first {
			t.Fatal("the viewer still signs with the replaced key")
		}
		e.expect(e.do("GET", second, "", nil), 200)
		rotate()
		e.expect(e.do("GET", first, "", nil), 403)
		e.expect(e.do("GET", second, "", nil), 200)
	})
}
