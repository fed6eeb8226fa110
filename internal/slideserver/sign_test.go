package slideserver

import (
	"strconv"
	"testing"
	"time"
)

func TestSigner(t *testing.T) {
	s := signer{key: []byte("0123456789abcdef0123456789abcdef")}
	now := time.Unix(1_800_000_000, 0)
	exp := now.Add(time.Hour).Unix()
	sig := s.sign(5, 9, exp)
	e := strconv.FormatInt(exp, 10)
	if u, ok := s.verify(5, e, sig, now); !ok || u != 9 {
		t.Fatalf("valid signature refused: %v %d", ok, u)
	}
	for name, c := range map[string]struct {
		id       int64
		exp, sig string
		at       time.Time
	}{
		"expired":     {5, e, sig, now.Add(2 * time.Hour)},
		"other slide": {6, e, sig, now},
		"other user":  {5, e, "8" + sig[1:], now},
		"later exp":   {5, strconv.FormatInt(exp+3600, 10), sig, now},
		"garbage":     {5, e, "x", now},
		"bad exp":     {5, "soon", sig, now},
		"other key":   {5, e, signer{key: []byte("another key of thirty-two bytes!")}.sign(5, 9, exp), now},
	} {
		if _, ok := s.verify(c.id, c.exp, c.sig, c.at); ok {
			t.Errorf("%s: accepted", name)
		}
	}
}
