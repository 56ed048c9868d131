// Package referral is the waitlists' referral loop: each subscribed
// sign-up has a place in its program's line and a personal link with an
// opaque code; a sign-up made through the link credits its owner, who
// moves ahead (store.LineStep people per credited referral), once the
// friend confirmed their address by the link e-mailed to it, unless the
// rule below finds it a self-referral or its mailbox was credited already
// (docs/decisions/0190-place-in-line.md,
// docs/decisions/0227-referral-credit-after-confirmation.md).
package referral

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"net/url"
	"strings"
	"time"

	"salaula/internal/clientip"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// Window is how long a device (an IP address) counts as the same person:
// a sign-up through a link from the IP address its owner signed up from,
// or from one another referral of the same owner came from, within this
// time, is not credited.
const Window = time.Hour

// Reasons a referral is not credited, as the console shows them.
const (
	ReasonSameAddress = "same address as the link's owner"
	ReasonSameDevice  = "same device as the link's owner or another of its referrals within an hour"
	ReasonUnconfirmed = store.ReferralUnconfirmed // credited once the friend confirms
	ReasonSameMailbox = store.ReferralSameMailbox
)

var codeEncoding = base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding)

// NewCode returns a new opaque link code: 10 characters (50 random bits)
// that tell nothing about the person.
func NewCode() (string, error) {
	b := make([]byte, 7)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return codeEncoding.EncodeToString(b)[:10], nil
}

// ValidCode reports whether s looks like a link code (so a long or odd
// ?ref= is dropped before it reaches the store).
func ValidCode(s string) bool {
	if len(s) != 10 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("abcdefghijkmnpqrstuvwxyz23456789", c) {
			return false
		}
	}
	return true
}

// HashIP is what is kept of the IP address a sign-up came from: enough to
// tell the same device again, not the address itself. An IPv6 address
// counts as its /64 (clientip.LimitKey), which one phone or home holds
// whole. 64 bits (16 hex characters) tell apart far more addresses than
// there are.
func HashIP(ip string) string {
	if ip == "" {
		return ""
	}
	h := sha256.Sum256([]byte("salaula referral ip\x00" + clientip.LimitKey(ip)))
	return hex.EncodeToString(h[:8])
}

// Rule is the self-referral rule the store applies to a sign-up through a
// link.
func Rule() store.ReferralRule {
	return store.ReferralRule{Since: Window, Judge: judge}
}

func judge(f store.ReferralFacts) (bool, string) {
	if validate.MailboxKey(f.Email) == validate.MailboxKey(f.ReferrerEmail) {
		return false, ReasonSameAddress
	}
	if f.IPHash != "" && ((f.IPHash == f.ReferrerIPHash && f.At.Sub(f.ReferrerAt) < Window) || f.SameIPReferrals > 0) {
		return false, ReasonSameDevice
	}
	return true, ""
}

// Entry is what a sign-up of email takes its place in line with (see
// store.JoinWaitlistInLine): code its new link code, ref the code of the
// link it came through ("" when not a valid code), ip where from, hashed.
func Entry(email, code, ref, ip string) store.LineEntry {
	if !ValidCode(ref) {
		ref = ""
	}
	return store.LineEntry{Code: code, RefCode: ref, IPHash: HashIP(ip), Mailbox: validate.MailboxKey(email)}
}

// PagePath is the page of the site a sign-up's form was on, when it is a
// plain path; else "/".
func PagePath(pagePath string) string {
	if strings.HasPrefix(pagePath, "/") && !strings.HasPrefix(pagePath, "//") && !strings.ContainsAny(pagePath, "?#\\ ") {
		return pagePath
	}
	return "/"
}

// ShareURL is the personal link: the site's address (and the page the
// form was on, when it is a plain path) with ?ref=CODE.
func ShareURL(publicURL, pagePath, code string) string {
	return strings.TrimRight(publicURL, "/") + PagePath(pagePath) + "?ref=" + url.QueryEscape(code)
}
