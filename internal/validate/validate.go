// Package validate holds the server's copy of the spec's validation rules
// (section 5) for every form, with the spec's messages. The web app has the
// same rules; testdata/validation-cases.json is read by the tests of both.
package validate

import "strings"

// Errors maps a field name to the spec's message for it; empty means valid.
type Errors map[string]string

// Blank reports whether s is empty or only whitespace.
func Blank(s string) bool { return strings.TrimSpace(s) == "" }

// Email reports whether the trimmed s has the spec's e-mail shape, the
// pattern ^[^\s@]+@[^\s@]+\.[^\s@]+$ (text, at sign, text, dot, text, no
// spaces), checked by hand: it is on every form's path, and the regular
// expression cost a sign-up more than the rest of its validation
// (FuzzEmailShape compares the two).
func Email(s string) bool {
	s = strings.TrimSpace(s)
	at := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\t', '\n', '\f', '\r', ' ': // the pattern's \s
			return false
		case '@':
			if at >= 0 {
				return false
			}
			at = i
		}
	}
	if at < 1 {
		return false
	}
	// The domain needs a dot with text on both sides.
	domain := s[at+1:]
	return len(domain) >= 3 && strings.IndexByte(domain[1:len(domain)-1], '.') >= 0
}

// NormaliseEmail trims and lower-cases an e-mail address.
func NormaliseEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// MailboxKey is the mailbox an e-mail address reaches, to count one person
// once however they write their address: trimmed and lower-cased, without
// a trailing dot after the domain, without a "+tag" before the @, with
// googlemail.com as gmail.com and, for Gmail, without the dots before the
// @ (Gmail ignores them). It is a key to compare, never an address to send
// to.
func MailboxKey(email string) string {
	local, domain, ok := strings.Cut(NormaliseEmail(email), "@")
	if !ok {
		return NormaliseEmail(email)
	}
	domain = strings.TrimRight(domain, ".")
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	if domain == "googlemail.com" {
		domain = "gmail.com"
	}
	if domain == "gmail.com" {
		local = strings.ReplaceAll(local, ".", "")
	}
	return local + "@" + domain
}
