package slideserver

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

func TestGrantSignature(t *testing.T) {
	k1, k2 := newKey(1), newKey(2)
	keyOf := func(id int) []byte {
		for _, k := range []slideKey{k1, k2} {
			if k.ID == id {
				b, _ := hex.DecodeString(k.Key)
				return b
			}
		}
		return nil
	}
	tok := signGrant(k1, 5, 9)
	if g, ok := parseGrant(tok, 5, keyOf); !ok || g.sessionID != 9 || g.keyID != 1 {
		t.Fatalf("valid grant refused: %v %+v", ok, g)
	}
	forged := signGrant(slideKey{ID: 1, Key: k2.Key}, 5, 9)
	for name, c := range map[string]struct {
		tok string
		id  int64
	}{
		"other slide":   {tok, 6},
		"other session": {"1.8" + tok[3:], 5},
		"other key id":  {"2" + tok[1:], 5},
		"unknown key":   {"3" + tok[1:], 5},
		"wrong key":     {forged, 5},
		"garbage":       {"x", 5},
		"short":         {tok[:len(tok)-1], 5},
	} {
		if _, ok := parseGrant(c.tok, c.id, keyOf); ok {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Rotating keeps the replaced key accepted and drops the one before it.
func TestRotateKey(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, conn *db.DB) {
		ctx := context.Background()
		ring, err := loadKeys(ctx, conn)
		if err != nil || ring.Current.ID != 1 || ring.Previous != nil {
			t.Fatalf("first ring: %+v %v", ring, err)
		}
		for want := 2; want <= 3; want++ {
			if id, err := RotateKey(ctx, conn); err != nil || id != want {
				t.Fatalf("rotate: %d %v", id, err)
			}
		}
		ring, _ = loadKeys(ctx, conn)
		if !ring.accepts(3) || !ring.accepts(2) || ring.accepts(1) {
			t.Fatalf("after two rotations: %+v", ring)
		}
	})
}

// A session's grant whose MAC holds ".s" is not taken for a share's, and
// a share's grant checks out only for its own slide.
func TestShareGrantTokens(t *testing.T) {
	k := newKey(3)
	key := func(id int) []byte {
		if id != 3 {
			return nil
		}
		b, _ := hex.DecodeString(k.Key)
		return b
	}
	tok := signShare(k, 42, 7)
	if !isShareGrant(tok) || isShareGrant("3.15.s"+strings.Repeat("A", 23)) {
		t.Fatal("share grant not told from a session's")
	}
	if keyID, shareID, ok := parseShare(tok, 42, key); !ok || keyID != 3 || shareID != 7 {
		t.Fatalf("parse %s: %d %d %v", tok, keyID, shareID, ok)
	}
	if _, _, ok := parseShare(tok, 43, key); ok {
		t.Fatal("share grant good for another slide")
	}
	if _, _, ok := parseShare(signGrant(k, 42, 7), 42, key); ok {
		t.Fatal("a session's grant taken for a share's")
	}
}
