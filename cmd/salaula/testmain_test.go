package main

import (
	"os"
	"testing"

	"salaula/internal/media/mediatest"
)

// TestMain stops the real S3 gateway the tests of this package share. Run
// with SALAULA_TEST_AS_MAIN=1, the test binary is the salaula command
// itself, so tests can start `salaula serve` processes without a build;
// with SALAULA_TEST_EXEC_SERVE=1 it serves a tiny app (runAsServe).
func TestMain(m *testing.M) {
	if os.Getenv("SALAULA_TEST_AS_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	if os.Getenv(execServeEnv) == "1" {
		runAsServe()
	}
	code := m.Run()
	mediatest.StopShared()
	os.Exit(code)
}
