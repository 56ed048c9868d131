package ratelimit

import (
	"os"
	"testing"

	"salaula/internal/store/storetest"
)

// TestMain gives the tests databases copied from templates migrated once.
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }
