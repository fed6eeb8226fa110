package slideserver

import (
	"context"
	"encoding/hex"
	"strconv"
	"sync"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/httpx"
	"telepath/internal/upload"
)

// A grant lets one session read one slide through signed URLs. It is good
// while it has not expired, the session lives (not signed out, idle or
// past its age; its user enabled and not deleted), the user may still see
// the slide (its case not referred away) and its key is current or
// previous. Tile requests come by the hundred, so each process trusts its
// last check of a grant for GrantCheckTTL: a revoked grant fails within that.

// GrantTTL is how long a grant lasts unless renewed; the viewer renews it
// every few minutes while it is open, and its URLs stay the same.
const GrantTTL = 10 * time.Minute

// GrantCheckTTL is how long a process trusts its last check of a grant.
const GrantCheckTTL = 2 * time.Second

// Sessions authenticates requests and tells whether a session still lives.
type Sessions interface {
	httpx.Authenticator
	// SessionPrincipal returns the principal of a live session, an error otherwise.
	SessionPrincipal(ctx context.Context, sessionID int64) (*access.Principal, error)
}

// Grant is the signed prefix of a slide's URLs for the caller's session.
type Grant struct {
	URL       string    `json:"url" doc:"Prefix of the Deep Zoom, thumbnail, label, macro and download URLs (…/slide.dzi)"`
	IIIFURL   string    `json:"iiif_url" doc:"Prefix of the IIIF URLs (…/info.json)"`
	ExpiresAt time.Time `json:"expires_at" doc:"Renew before this; the URLs stay the same"`
}

// grant grants slide id to the caller's session (or extends the grant)
// and returns its URLs, signed with the current key.
func (s *Server) grant(ctx context.Context, id int64) (*Grant, error) {
	p := access.FromContext(ctx)
	if p == nil || p.SessionID <= 0 {
		return nil, apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	ring, _, err := readKeys(ctx, s.db)
	if err != nil {
		return nil, apperr.Wrap(err, "slide url keys")
	}
	s.keys.add(ring)
	now := s.now().UTC()
	exp := now.Add(GrantTTL)
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("slide_grants").Where("session_id = ? AND expires_at < ?", p.SessionID, now)); err != nil {
			return err
		}
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("slide_grants").Columns("slide_id", "session_id", "expires_at").
			Values(id, p.SessionID, exp).Suffix("ON CONFLICT (slide_id, session_id) DO UPDATE SET expires_at = excluded.expires_at"))
		return err
	})
	if err != nil {
		return nil, apperr.Wrap(err, "grant slide")
	}
	s.grants.forget(id, p.SessionID)
	tok := signGrant(ring.Current, id, p.SessionID)
	sid := strconv.FormatInt(id, 10)
	return &Grant{URL: "/api/slides/" + sid + "/g/" + tok, IIIFURL: "/api/iiif/" + sid + "/g/" + tok, ExpiresAt: exp}, nil
}

// granted reports whether tok is a good grant of slide id.
func (s *Server) granted(ctx context.Context, id int64, tok string) bool {
	g, ok := parseGrant(tok, id, func(keyID int) []byte { return s.keys.get(ctx, s.db, keyID, s.now()) })
	if !ok {
		return false
	}
	k := grantKey{slideID: id, sessionID: g.sessionID, keyID: g.keyID}
	now := s.now()
	if ok, fresh := s.grants.get(k, now); fresh {
		return ok
	}
	ok, until, err := s.checkGrant(ctx, k, now)
	if err != nil {
		return false // not remembered: the next request asks again
	}
	s.grants.put(k, ok, until)
	return ok
}

// checkGrant asks the database whether a grant is good, and until when
// the answer may be trusted.
func (s *Server) checkGrant(ctx context.Context, k grantKey, now time.Time) (bool, time.Time, error) {
	until := now.Add(GrantCheckTTL)
	ring, _, err := readKeys(ctx, s.db)
	if err != nil {
		return false, until, err
	}
	if !ring.accepts(k.keyID) {
		return false, until, nil
	}
	var exps []time.Time
	if err := db.Select(ctx, s.db, &exps, s.db.Builder().Select("expires_at").From("slide_grants").
		Where("slide_id = ? AND session_id = ?", k.slideID, k.sessionID)); err != nil {
		return false, until, apperr.Wrap(err, "load grant")
	}
	if len(exps) == 0 || !exps[0].After(now) {
		return false, until, nil
	}
	if exps[0].Before(until) {
		until = exps[0]
	}
	p, err := s.sessions.SessionPrincipal(ctx, k.sessionID)
	if err != nil {
		if apperr.CodeOf(err) == apperr.Unauthorized {
			return false, until, nil
		}
		return false, until, err
	}
	sl, err := s.up.Load(ctx, k.slideID)
	if err != nil {
		if apperr.CodeOf(err) == apperr.NotFound {
			return false, until, nil
		}
		return false, until, err
	}
	return upload.Visible(access.WithPrincipal(ctx, p), sl, s.canSee), until, nil
}

type grantKey struct {
	slideID, sessionID int64
	keyID              int
}

type grantCheck struct {
	ok    bool
	until time.Time
	share *ShareGrant // what a share's grant opens
}

// grantCache remembers recent checks of grants.
type grantCache struct {
	mu sync.RWMutex
	m  map[grantKey]grantCheck
}

func (c *grantCache) get(k grantKey, now time.Time) (ok, fresh bool) {
	c.mu.RLock()
	g, found := c.m[k]
	c.mu.RUnlock()
	return g.ok, found && now.Before(g.until)
}

func (c *grantCache) entry(k grantKey, now time.Time) (grantCheck, bool) {
	c.mu.RLock()
	g, found := c.m[k]
	c.mu.RUnlock()
	return g, found && now.Before(g.until)
}

func (c *grantCache) put(k grantKey, ok bool, until time.Time) { c.putShare(k, ok, nil, until) }

func (c *grantCache) putShare(k grantKey, ok bool, share *ShareGrant, until time.Time) {
	c.mu.Lock()
	if c.m == nil || len(c.m) > 100000 {
		c.m = map[grantKey]grantCheck{}
	}
	c.m[k] = grantCheck{ok: ok, until: until, share: share}
	c.mu.Unlock()
}

// forget drops what is remembered of a session's grant of a slide (it was
// just renewed).
func (c *grantCache) forget(slideID, sessionID int64) {
	c.mu.Lock()
	for k := range c.m {
		if k.slideID == slideID && k.sessionID == sessionID {
			delete(c.m, k)
		}
	}
	c.mu.Unlock()
}

// keyCache holds the signing keys seen, by id. A key never changes; which
// keys are still accepted is asked of the database with each grant check.
type keyCache struct {
	mu     sync.RWMutex
	m      map[int][]byte
	loaded time.Time
}

func (c *keyCache) add(ring keyRing) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[int][]byte{}
	}
	for _, k := range []*slideKey{&ring.Current, ring.Previous} {
		if k == nil {
			continue
		}
		if b, err := hex.DecodeString(k.Key); err == nil && len(b) >= 16 {
			c.m[k.ID] = b
		}
	}
}

// get returns key id, reading the ring again (at most once a second, now
// being the time) when another process rotated to a key this one has not seen.
func (c *keyCache) get(ctx context.Context, d *db.DB, id int, now time.Time) []byte {
	c.mu.RLock()
	b, stale := c.m[id], now.Sub(c.loaded) > time.Second
	c.mu.RUnlock()
	if b != nil || !stale {
		return b
	}
	c.mu.Lock()
	c.loaded = now
	c.mu.Unlock()
	if ring, _, err := readKeys(ctx, d); err == nil {
		c.add(ring)
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[id]
}
