package referral

import (
	"testing"
	"time"

	"salaula/internal/store"
)

func TestSelfReferralRule(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	base := store.ReferralFacts{ReferrerEmail: "chanda.mwale@example.com", ReferrerIPHash: "ip-a", ReferrerAt: at.Add(-2 * time.Hour),
		Email: "mwila@example.com", IPHash: "ip-b", At: at}
	for _, c := range []struct {
		name   string
		change func(*store.ReferralFacts)
		want   string
	}{
		{"a friend on another device", func(*store.ReferralFacts) {}, ""},
		{"the same mailbox with a tag", func(f *store.ReferralFacts) { f.Email = "Chanda.Mwale+2@Example.com" }, ReasonSameAddress},
		{"the same mailbox without dots", func(f *store.ReferralFacts) { f.Email = "chandamwale@example.com" }, ReasonSameAddress},
		{"one Gmail inbox written two ways", func(f *store.ReferralFacts) {
			f.ReferrerEmail, f.Email = "chanda.mwale@gmail.com", "ChandaMwale+x@googlemail.com."
		}, ReasonSameAddress},
		{"the same local part elsewhere", func(f *store.ReferralFacts) { f.Email = "chanda.mwale@example.org" }, ""},
		{"the owner's Gmail as googlemail with a trailing dot", func(f *store.ReferralFacts) {
			f.ReferrerEmail, f.Email = "chanda.mwale@gmail.com", "ChandaMwale@googlemail.com."
		}, ReasonSameAddress},
		{"the owner's device within the hour", func(f *store.ReferralFacts) { f.IPHash, f.ReferrerAt = "ip-a", at.Add(-time.Minute) }, ReasonSameDevice},
		{"the owner's device later", func(f *store.ReferralFacts) { f.IPHash = "ip-a" }, ""},
		{"a device another referral came from", func(f *store.ReferralFacts) { f.SameIPReferrals = 1 }, ReasonSameDevice},
		{"no IP known", func(f *store.ReferralFacts) { f.IPHash, f.ReferrerIPHash, f.ReferrerAt = "", "", at }, ""},
	} {
		f := base
		c.change(&f)
		credited, reason := judge(f)
		if reason != c.want || credited != (c.want == "") {
			t.Errorf("%s: credited %v, reason %q; want %q", c.name, credited, reason, c.want)
		}
	}
}

func TestCodesAndLinks(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		c, err := NewCode()
		if err != nil || !ValidCode(c) || seen[c] {
			t.Fatalf("code %q: %v (repeated %v)", c, err, seen[c])
		}
		seen[c] = true
	}
	for _, bad := range []string{"", "short", "ABCDEFGHJK", "abcdefghij0", "abcdefgh1l", "<script>xx"} {
		if ValidCode(bad) {
			t.Errorf("ValidCode(%q) = true", bad)
		}
	}
	for _, c := range []struct{ page, want string }{
		{"/wardrobeclearance", "https://salaula.example/wardrobeclearance?ref=abcdefghjk"},
		{"", "https://salaula.example/?ref=abcdefghjk"},
		{"//evil.example/x", "https://salaula.example/?ref=abcdefghjk"},
		{"/impact?x=1", "https://salaula.example/?ref=abcdefghjk"},
		{"https://evil.example/", "https://salaula.example/?ref=abcdefghjk"},
	} {
		if got := ShareURL("https://salaula.example/", c.page, "abcdefghjk"); got != c.want {
			t.Errorf("ShareURL(%q) = %q, want %q", c.page, got, c.want)
		}
	}
	if HashIP("10.0.0.1") == HashIP("10.0.0.2") || HashIP("") != "" || len(HashIP("10.0.0.1")) != 16 {
		t.Error("HashIP")
	}
	if HashIP("2001:db8:1:2::1") != HashIP("2001:db8:1:2:abcd::9") || HashIP("2001:db8:1:2::1") == HashIP("2001:db8:1:3::1") {
		t.Error("HashIP: one /64 is one device, another /64 another")
	}
}
