package server

import (
	"os"
	"testing"

	"salaula/internal/mail/mailtest"
	"salaula/internal/media/mediatest"
	"salaula/internal/store/storetest"
)

// TestMain gives the tests databases copied from templates migrated once,
// and stops the real S3 gateway and SMTP server the tests of this package
// share.
func TestMain(m *testing.M) {
	code := storetest.Main(m)
	mediatest.StopShared()
	mailtest.StopShared()
	os.Exit(code)
}
