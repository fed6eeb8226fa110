package slideserver

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/i18n"
	"telepath/internal/upload"
)

// A share grant lets the visitors of one share (internal/share) read one
// slide through signed URLs, without a session: the token names the share
// instead ("<key id>.s<share id>.<MAC>"). It is good while the share lives
// (not expired, not cancelled, its owner still sees the case) and its key
// is current or previous. Checks are remembered like a session's grant
// (GrantCheckTTL, never past the share's end), and forgotten at once in
// this process when the share is cancelled (ForgetShare). Every image a
// share grant opens carries the share's watermark, drawn into its pixels
// (watermark.go). It never opens the macro image, the original file or
// the IIIF service; the label only when the share is not de-identified.

// ShareGrant is what a share lets its visitors see of a slide.
type ShareGrant struct {
	// Watermark is the text drawn into every image, per language (the
	// system watermark and "shared by … on …").
	Watermark map[i18n.Lang]string
	// Label: the label image may be shown (the share is not de-identified).
	Label bool
	// Until is when the share ends (zero: permanent).
	Until time.Time
}

// ShareCheck returns what share shareID shows of slide slideID; ok is false
// when it no longer shows it (unknown, expired, cancelled, not its case's).
type ShareCheck func(ctx context.Context, shareID, slideID int64) (g ShareGrant, ok bool)

// UseShares sets the check of share grants; without it none is good.
func (s *Server) UseShares(check ShareCheck) { s.shares = check }

func shareMAC(key []byte, keyID int, slideID, shareID int64) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("share|" + strconv.Itoa(keyID) + "|" + strconv.FormatInt(slideID, 10) + "|" + strconv.FormatInt(shareID, 10)))
	return m.Sum(nil)[:18]
}

func signShare(k slideKey, slideID, shareID int64) string {
	key, _ := hex.DecodeString(k.Key)
	return strconv.Itoa(k.ID) + ".s" + strconv.FormatInt(shareID, 10) + "." +
		base64.RawURLEncoding.EncodeToString(shareMAC(key, k.ID, slideID, shareID))
}

// parseShare checks the signature of a share grant of slideID; ok is
// false for anything else (a session's grant included).
func parseShare(tok string, slideID int64, keyOf func(id int) []byte) (keyID int, shareID int64, ok bool) {
	k, rest, ok1 := strings.Cut(tok, ".")
	sh, mac, ok2 := strings.Cut(rest, ".")
	sh, ok3 := strings.CutPrefix(sh, "s")
	if !ok1 || !ok2 || !ok3 || len(mac) != 24 {
		return 0, 0, false
	}
	keyID, err1 := strconv.Atoi(k)
	shareID, err2 := strconv.ParseInt(sh, 10, 64)
	if err1 != nil || err2 != nil || keyID <= 0 || shareID <= 0 {
		return 0, 0, false
	}
	key := keyOf(keyID)
	if key == nil {
		return 0, 0, false
	}
	var got [18]byte
	if n, err := base64.RawURLEncoding.Decode(got[:], []byte(mac)); err != nil || n != 18 {
		return 0, 0, false
	}
	return keyID, shareID, hmac.Equal(got[:], shareMAC(key, keyID, slideID, shareID))
}

// isShareGrant tells a share's grant ("<key id>.s<share id>.<MAC>") from a
// session's ("<key id>.<session id>.<MAC>", whose MAC may well hold ".s").
func isShareGrant(tok string) bool {
	_, rest, _ := strings.Cut(tok, ".")
	return strings.HasPrefix(rest, "s")
}

// shareGranted returns what tok, a share grant of slide id, opens; ok is
// false when it is not (or no longer) good.
func (s *Server) shareGranted(ctx context.Context, id int64, tok string) (*ShareGrant, bool) {
	keyID, shareID, ok := parseShare(tok, id, func(keyID int) []byte { return s.keys.get(ctx, s.db, keyID, s.now()) })
	if !ok || s.shares == nil {
		return nil, false
	}
	// Share grants sit in the grant cache under the share's negated id.
	k := grantKey{slideID: id, sessionID: -shareID, keyID: keyID}
	now := s.now()
	if c, fresh := s.grants.entry(k, now); fresh {
		return c.share, c.ok
	}
	ring, _, err := readKeys(ctx, s.db)
	if err != nil {
		return nil, false
	}
	var g ShareGrant
	if ring.accepts(keyID) {
		g, ok = s.shares(ctx, shareID, id)
	} else {
		ok = false
	}
	until := now.Add(GrantCheckTTL)
	if !g.Until.IsZero() && g.Until.Before(until) {
		until = g.Until // an expiring share stops at its end, not a check later
	}
	s.grants.putShare(k, ok, &g, until)
	return &g, ok
}

// ForgetShare drops what this process remembers of a share's grants (the
// share was just cancelled).
func (s *Server) ForgetShare(shareID int64) {
	s.grants.mu.Lock()
	for k := range s.grants.m {
		if k.sessionID == -shareID {
			delete(s.grants.m, k)
		}
	}
	s.grants.mu.Unlock()
}

// ShareViewer returns the share-signed URLs of a slide the share's case
// holds (the share domain checked it): the viewer's URLs without the
// macro, the original file and IIIF, and without the label unless label.
func (s *Server) ShareViewer(ctx context.Context, slideID, shareID int64, label bool) (*Viewer, error) {
	sl, err := s.up.Load(ctx, slideID)
	if err != nil {
		return nil, err
	}
	if sl.Viewable != 1 || sl.Status != upload.StatusUploaded {
		return nil, apperr.New(apperr.Conflict, "slide.load_failed")
	}
	ring, _, err := readKeys(ctx, s.db)
	if err != nil {
		return nil, apperr.Wrap(err, "slide url keys")
	}
	s.keys.add(ring)
	tok := signShare(ring.Current, slideID, shareID)
	sid := strconv.FormatInt(slideID, 10)
	v, err := s.viewerOf(sl, "/api/slides/"+sid+"/g/"+tok, "/api/iiif/"+sid+"/g/"+tok)
	if err != nil {
		return nil, err
	}
	v.MacroURL, v.DownloadURL, v.IIIFURL = "", "", ""
	if !label {
		v.LabelURL = ""
	}
	return v, nil
}
