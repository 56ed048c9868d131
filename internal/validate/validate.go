// Package validate holds the server's copy of the spec's validation rules
// (section 5) for every form, with the spec's messages. The web app has the
// same rules; testdata/validation-cases.json is read by the tests of both.
package validate

import (
	"regexp"
	"strings"
)

// Errors maps a field name to the spec's message for it; empty means valid.
type Errors map[string]string

// Blank reports whether s is empty or only whitespace.
func Blank(s string) bool { return strings.TrimSpace(s) == "" }

// emailPattern is the spec's shape: text, at sign, text, dot, text, no spaces.
var emailPattern = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)

// Email reports whether the trimmed s has the spec's e-mail shape.
func Email(s string) bool { return emailPattern.MatchString(strings.TrimSpace(s)) }

// NormaliseEmail trims and lower-cases an e-mail address.
func NormaliseEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
