package server

import (
	"os"
	"testing"

	"salaula/internal/mail/mailtest"
	"salaula/internal/media/mediatest"
)

// TestMain stops the real S3 gateway and SMTP server the tests of this package share.
func TestMain(m *testing.M) {
	code := m.Run()
	mediatest.StopShared()
	mailtest.StopShared()
	os.Exit(code)
}
