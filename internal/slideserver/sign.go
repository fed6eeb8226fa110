package slideserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"telepath/internal/platform/db"
)

// secretKey is the settings row holding the tile URL signing key, shared
// by every process on the database.
const secretKey = "slide_url_secret"

// loadSecret returns the signing key, creating it on first use.
func loadSecret(ctx context.Context, d *db.DB) ([]byte, error) {
	b := make([]byte, 32)
	rand.Read(b)
	v, _ := json.Marshal(hex.EncodeToString(b))
	if _, err := db.Exec(ctx, d, d.Builder().Insert("settings").Columns("key", "value", "updated_at").
		Values(secretKey, string(v), time.Now().UTC()).Suffix("ON CONFLICT (key) DO NOTHING")); err != nil {
		return nil, fmt.Errorf("slide url secret: %w", err)
	}
	var stored string
	if err := db.Get(ctx, d, &stored, d.Builder().Select("value").From("settings").Where("key = ?", secretKey)); err != nil {
		return nil, fmt.Errorf("slide url secret: %w", err)
	}
	var h string
	if err := json.Unmarshal([]byte(stored), &h); err != nil {
		return nil, fmt.Errorf("slide url secret: %w", err)
	}
	key, err := hex.DecodeString(h)
	if err != nil || len(key) < 16 {
		return nil, fmt.Errorf("slide url secret: bad value")
	}
	return key, nil
}

// signer makes and checks the signature segment of tile URLs:
// "<user id>.<base64url of HMAC-SHA256(slide id, user id, expiry)[:18]>".
type signer struct{ key []byte }

func (s signer) mac(slideID, userID, exp int64) []byte {
	m := hmac.New(sha256.New, s.key)
	var buf [64]byte
	b := strconv.AppendInt(buf[:0], slideID, 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, userID, 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, exp, 10)
	m.Write(b)
	return m.Sum(nil)[:18]
}

func (s signer) sign(slideID, userID, exp int64) string {
	return strconv.FormatInt(userID, 10) + "." + base64.RawURLEncoding.EncodeToString(s.mac(slideID, userID, exp))
}

// verify checks sig for slideID and expiry exp (unix seconds) at now; it
// returns the user the URL was issued to.
func (s signer) verify(slideID int64, expText, sig string, now time.Time) (userID int64, ok bool) {
	exp, err := strconv.ParseInt(expText, 10, 64)
	if err != nil || exp < now.Unix() {
		return 0, false
	}
	u, m, found := strings.Cut(sig, ".")
	if !found || len(m) != 24 {
		return 0, false
	}
	userID, err = strconv.ParseInt(u, 10, 64)
	if err != nil || userID <= 0 {
		return 0, false
	}
	var got [18]byte
	if n, err := base64.RawURLEncoding.Decode(got[:], []byte(m)); err != nil || n != 18 {
		return 0, false
	}
	return userID, hmac.Equal(got[:], s.mac(slideID, userID, exp))
}
