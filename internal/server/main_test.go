package server

import (
	"os"
	"testing"

	"salaula/internal/media/mediatest"
)

// TestMain stops the real S3 gateway the tests of this package share.
func TestMain(m *testing.M) {
	code := m.Run()
	mediatest.StopShared()
	os.Exit(code)
}
