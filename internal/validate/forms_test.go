package validate

import (
	"encoding/json"
	"maps"
	"os"
	"testing"
)

// sharedCases reads one form's array of testdata/validation-cases.json.
func sharedCases[T any](t *testing.T, form string) []struct {
	Name   string `json:"name"`
	Input  T      `json:"input"`
	Errors Errors `json:"errors"`
} {
	t.Helper()
	raw, err := os.ReadFile("../../testdata/validation-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name   string `json:"name"`
		Input  T      `json:"input"`
		Errors Errors `json:"errors"`
	}
	if err := json.Unmarshal(all[form], &cases); err != nil {
		t.Fatalf("%s cases: %v", form, err)
	}
	if len(cases) < 5 {
		t.Fatalf("%s: only %d shared cases", form, len(cases))
	}
	return cases
}

func TestContactFollowsTheSharedCases(t *testing.T) {
	for _, tc := range sharedCases[Contact](t, "contact") {
		t.Run(tc.Name, func(t *testing.T) {
			if got := CheckContact(tc.Input); !maps.Equal(got, tc.Errors) {
				t.Fatalf("CheckContact = %v, want %v", got, tc.Errors)
			}
		})
	}
}

func TestWaitlistFollowsTheSharedCases(t *testing.T) {
	for _, tc := range sharedCases[Waitlist](t, "waitlist") {
		t.Run(tc.Name, func(t *testing.T) {
			if got := CheckWaitlist(tc.Input); !maps.Equal(got, tc.Errors) {
				t.Fatalf("CheckWaitlist = %v, want %v", got, tc.Errors)
			}
		})
	}
}

func TestSubjectLabels(t *testing.T) {
	if got := ContactSubjectLabel("Unsolved issue"); got != "Unsolved Issue" {
		t.Fatalf("label = %q", got)
	}
	if got := ContactSubjectLabel("nope"); got != "nope" {
		t.Fatalf("unknown label = %q", got)
	}
}
