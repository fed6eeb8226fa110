package auth

import (
	"crypto/rsa"
	"sync"
)

// UseTestCosts is for test binaries that start many servers, each seeding the
// demo users into a fresh database: new password hashes cost microseconds
// instead of ~50 ms, and every server of the process shares one login key
// instead of generating its own 2048-bit RSA key. Together these were more
// than half of those tests' CPU. Checking a password reads the cost from the
// stored hash, so behaviour is otherwise unchanged.
func UseTestCosts() {
	argonTime, argonMemory = 1, 64
	generate := generateLoginKey
	var once sync.Once
	var key *rsa.PrivateKey
	var err error
	generateLoginKey = func() (*rsa.PrivateKey, error) {
		once.Do(func() { key, err = generate() })
		return key, err
	}
}
