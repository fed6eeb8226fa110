package auth

import (
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"telepath/internal/platform/apperr"
)

// argon2id parameters (RFC 9106 second recommendation, lighter memory).
const (
	argonThreads = 1
	argonKeyLen  = 32
)

// The cost of new hashes: time passes and memory in KiB. CheckPassword reads
// the cost from each stored hash, so lowering it changes nothing but speed.
var (
	argonTime   uint32 = 2
	argonMemory uint32 = 19 * 1024
)

// HashPassword returns an encoded argon2id hash of pw.
func HashPassword(pw string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$%s$%s", argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

// CheckPassword reports whether pw matches the encoded hash.
func CheckPassword(encoded, pw string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m > 256*1024 || t > 10 || p == 0 {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	want, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash makes a login for an unknown user cost as much as a real one.
var dummyHash, _ = HashPassword("unknown-user-timing-equaliser")

// CheckPolicy enforces the password policy: at least 8 characters, at most
// 64, three of the four classes lower, upper, digit, symbol; not a common
// password (nor one with a few letters swapped for look-alike digits and
// symbols, nor one with digits and symbols merely added at the end); and not
// containing the user name.
func CheckPolicy(field, pw, username string) error {
	n := utf8.RuneCountInString(pw)
	if n < 8 {
		return apperr.New(apperr.Invalid, "error.validation").Field(field, "password.too_short")
	}
	if n > 64 {
		return apperr.New(apperr.Invalid, "error.validation").Field(field, "field.too_long", "max", 64)
	}
	var lower, upper, digit, symbol int
	for _, r := range pw {
		switch {
		case unicode.IsLower(r):
			lower = 1
		case unicode.IsUpper(r):
			upper = 1
		case unicode.IsDigit(r):
			digit = 1
		default:
			symbol = 1
		}
	}
	if lower+upper+digit+symbol < 3 {
		return apperr.New(apperr.Invalid, "error.validation").Field(field, "password.classes")
	}
	if name := strings.ToLower(strings.TrimSpace(username)); name != "" && strings.Contains(strings.ToLower(pw), name) {
		return apperr.New(apperr.Invalid, "error.validation").Field(field, "password.contains_username")
	}
	if isCommon(pw) {
		return apperr.New(apperr.Invalid, "error.validation").Field(field, "password.common")
	}
	return nil
}

//go:embed common-passwords.txt
var commonText string

// common holds the common passwords, lower case.
var common = func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(commonText, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#!comment") {
			m[line] = true
		}
	}
	return m
}()

var unleet = strings.NewReplacer("@", "a", "4", "a", "0", "o", "1", "i", "!", "i", "3", "e", "$", "s", "5", "s", "7", "t")

// isCommon reports whether pw is a common password, ignoring case,
// look-alike substitutions (P@ssw0rd) and digits or symbols added at the end
// (Password123!) as long as a word of four letters or more remains.
func isCommon(pw string) bool {
	lower := strings.ToLower(pw)
	forms := []string{lower}
	if base := strings.TrimRightFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) }); base != lower && utf8.RuneCountInString(base) >= 4 {
		forms = append(forms, base)
	}
	for _, f := range forms {
		if common[f] || common[unleet.Replace(f)] {
			return true
		}
	}
	return false
}
