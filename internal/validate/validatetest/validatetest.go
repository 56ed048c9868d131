// Package validatetest reads testdata/validation-cases.json, the validation
// cases shared by the Go tests and the web tests.
package validatetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Case is one shared case: a complete form input and the field errors
// expected for it (empty means valid).
type Case struct {
	Name   string            `json:"name"`
	Input  json.RawMessage   `json:"input"`
	Errors map[string]string `json:"errors"`
}

// Load returns the cases of one form ("contact", "waitlist", ...), failing
// the test when the file cannot be read or the form has no cases.
func Load(t testing.TB, form string) []Case {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(here), "../../../testdata/validation-cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatalf("validation-cases.json: %v", err)
	}
	var cases []Case
	if err := json.Unmarshal(all[form], &cases); err != nil {
		t.Fatalf("validation-cases.json %s: %v", form, err)
	}
	if len(cases) == 0 {
		t.Fatalf("validation-cases.json has no %s cases", form)
	}
	return cases
}
