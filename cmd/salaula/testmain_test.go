package main

import (
	"os"
	"testing"

	"salaula/internal/media/mediatest"
	"salaula/internal/store/storetest"
)

// TestMain gives the tests databases copied from templates migrated once
// (storetest.Main) and stops the real S3 gateway they share. Run
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
	code := storetest.Main(m)
	mediatest.StopShared()
	os.Exit(code)
}
