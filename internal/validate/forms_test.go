package validate_test

import (
	"encoding/json"
	"maps"
	"testing"

	"salaula/internal/validate"
	"salaula/internal/validate/validatetest"
)

func TestContactFollowsTheSharedCases(t *testing.T) {
	t.Parallel()
	for _, tc := range validatetest.Load(t, "contact") {
		t.Run(tc.Name, func(t *testing.T) {
			var in validate.Contact
			if err := json.Unmarshal(tc.Input, &in); err != nil {
				t.Fatal(err)
			}
			if got := validate.CheckContact(in); !maps.Equal(got, validate.Errors(tc.Errors)) {
				t.Fatalf("CheckContact = %v, want %v", got, tc.Errors)
			}
		})
	}
}

func TestWaitlistFollowsTheSharedCases(t *testing.T) {
	t.Parallel()
	for _, tc := range validatetest.Load(t, "waitlist") {
		t.Run(tc.Name, func(t *testing.T) {
			var in validate.Waitlist
			if err := json.Unmarshal(tc.Input, &in); err != nil {
				t.Fatal(err)
			}
			if got := validate.CheckWaitlist(in); !maps.Equal(got, validate.Errors(tc.Errors)) {
				t.Fatalf("CheckWaitlist = %v, want %v", got, tc.Errors)
			}
		})
	}
}

func TestSubjectLabels(t *testing.T) {
	t.Parallel()
	if got := validate.ContactSubjectLabel("Unsolved issue"); got != "Unsolved Issue" {
		t.Fatalf("label = %q", got)
	}
	if got := validate.ContactSubjectLabel("nope"); got != "nope" {
		t.Fatalf("unknown label = %q", got)
	}
}
