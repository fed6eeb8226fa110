package slideserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/settings"
)

// keysSetting is the settings row holding the signing keys of slide URLs,
// shared by every process on the database: the current key signs, the
// current and the previous one are accepted. Rotating makes a new current
// key; URLs signed with the key before the previous one stop working.
const keysSetting = "slide_url_keys"

// slideKey is one signing key; IDs grow by one at each rotation.
type slideKey struct {
	ID  int    `json:"id"`
	Key string `json:"key"` // hex
}

type keyRing struct {
	Current  slideKey  `json:"current"`
	Previous *slideKey `json:"previous,omitempty"`
}

// accepts reports whether URLs signed with key id are still good.
func (k keyRing) accepts(id int) bool {
	return id == k.Current.ID || (k.Previous != nil && id == k.Previous.ID)
}

func newKey(id int) slideKey {
	b := make([]byte, 32)
	rand.Read(b)
	return slideKey{ID: id, Key: hex.EncodeToString(b)}
}

// loadKeys returns the key ring, creating it on first use.
func loadKeys(ctx context.Context, d *db.DB) (keyRing, error) {
	ring, _, err := readKeys(ctx, d)
	if errors.Is(err, sql.ErrNoRows) {
		v, _ := json.Marshal(keyRing{Current: newKey(1)})
		if err := settings.Create(ctx, d, keysSetting, string(v), clock.Clock{}.Now()); err != nil {
			return keyRing{}, fmt.Errorf("slide url keys: %w", err)
		}
		ring, _, err = readKeys(ctx, d)
	}
	return ring, err
}

func readKeys(ctx context.Context, d *db.DB) (keyRing, string, error) {
	stored, err := settings.Value(ctx, d, keysSetting)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return keyRing{}, "", err
		}
		return keyRing{}, "", fmt.Errorf("slide url keys: %w", err)
	}
	var ring keyRing
	if err := json.Unmarshal([]byte(stored), &ring); err != nil || ring.Current.ID <= 0 {
		return keyRing{}, "", fmt.Errorf("slide url keys: bad value")
	}
	return ring, stored, nil
}

// RotateKey makes a new current signing key for slide URLs; the one it
// replaces is still accepted, the one before that no longer. Every process
// sees the change within seconds. It returns the new key's id.
func RotateKey(ctx context.Context, d *db.DB) (int, error) {
	for range 5 {
		ring, stored, err := readKeys(ctx, d)
		if errors.Is(err, sql.ErrNoRows) {
			if ring, err = loadKeys(ctx, d); err == nil {
				_, stored, err = readKeys(ctx, d)
			}
		}
		if err != nil {
			return 0, err
		}
		prev := ring.Current
		next := keyRing{Current: newKey(prev.ID + 1), Previous: &prev}
		v, _ := json.Marshal(next)
		// Compare-and-set: a concurrent rotation makes this one start over.
		swapped, err := settings.Swap(ctx, d, keysSetting, stored, string(v), clock.Clock{}.Now())
		if err != nil {
			return 0, fmt.Errorf("rotate slide url key: %w", err)
		}
		if swapped {
			return next.Current.ID, nil
		}
	}
	return 0, fmt.Errorf("rotate slide url key: concurrent rotations")
}

// grantToken is the opaque path segment of a grant's URLs:
// "<key id>.<session id>.<base64url of HMAC-SHA256(key id, slide id, session id)[:18]>".
type grantToken struct {
	keyID     int
	sessionID int64
}

func grantMAC(key []byte, keyID int, slideID, sessionID int64) []byte {
	m := hmac.New(sha256.New, key)
	var buf [64]byte
	b := append(buf[:0], "grant|"...)
	b = strconv.AppendInt(b, int64(keyID), 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, slideID, 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, sessionID, 10)
	m.Write(b)
	return m.Sum(nil)[:18]
}

func signGrant(k slideKey, slideID, sessionID int64) string {
	key, _ := hex.DecodeString(k.Key)
	return strconv.Itoa(k.ID) + "." + strconv.FormatInt(sessionID, 10) + "." +
		base64.RawURLEncoding.EncodeToString(grantMAC(key, k.ID, slideID, sessionID))
}

// parseGrant checks the signature of tok for slideID with keyOf (the key
// of an id, nil when unknown); it says nothing yet of the grant's validity.
func parseGrant(tok string, slideID int64, keyOf func(id int) []byte) (grantToken, bool) {
	k, rest, ok1 := strings.Cut(tok, ".")
	sess, mac, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 || len(mac) != 24 {
		return grantToken{}, false
	}
	keyID, err1 := strconv.Atoi(k)
	sessionID, err2 := strconv.ParseInt(sess, 10, 64)
	if err1 != nil || err2 != nil || keyID <= 0 || sessionID <= 0 {
		return grantToken{}, false
	}
	key := keyOf(keyID)
	if key == nil {
		return grantToken{}, false
	}
	var got [18]byte
	if n, err := base64.RawURLEncoding.Decode(got[:], []byte(mac)); err != nil || n != 18 {
		return grantToken{}, false
	}
	if !hmac.Equal(got[:], grantMAC(key, keyID, slideID, sessionID)) {
		return grantToken{}, false
	}
	return grantToken{keyID: keyID, sessionID: sessionID}, true
}
