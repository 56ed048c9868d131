package server

import (
	"os"
	"testing"

	"salaula/internal/mail/mailtest"
	"salaula/internal/media/mediatest"
	"salaula/internal/password"
	"salaula/internal/store/storetest"
)

// TestMain gives the tests databases copied from templates migrated once
// and a cheap password hash (a test that needs the published cost asks for
// it: publishedPasswordCost), and stops the real S3 gateway and SMTP server
// the tests of this package share.
func TestMain(m *testing.M) {
	password.SetTestCost(testPasswordMemoryKiB, 1)
	code := storetest.Main(m)
	mediatest.StopShared()
	mailtest.StopShared()
	os.Exit(code)
}

// testPasswordMemoryKiB is the memory of the tests' argon2id runs, with one
// pass: hashing is tens of microseconds instead of tens of milliseconds,
// and the package's tests hash thousands of passwords (decision 0246).
const testPasswordMemoryKiB = 64

// publishedPasswordCost makes the test's new hashes use the published
// argon2id parameters, for a test that reads them or counts on a hash's
// time.
func publishedPasswordCost(t *testing.T) {
	t.Cleanup(password.SetTestCost(0, 0))
}
