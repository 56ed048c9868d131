package mfa

import (
	"encoding/base32"
	"strings"
	"testing"
	"time"
)

// RFC 6238 appendix B (SHA-1), last six digits.
func TestCodeMatchesRFC6238(t *testing.T) {
	t.Parallel()
	secret := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString([]byte("12345678901234567890"))
	for unix, want := range map[int64]string{59: "287082", 1111111109: "081804", 1234567890: "005924", 2000000000: "279037"} {
		got, err := Code(secret, Step(time.Unix(unix, 0)))
		if err != nil || got != want {
			t.Errorf("T=%d: code %q, %v; want %s", unix, got, err, want)
		}
	}
}

func TestMatchAllowsOneStepOfDrift(t *testing.T) {
	t.Parallel()
	secret, _ := NewSecret()
	now := time.Unix(1_800_000_000, 0)
	for d, ok := range map[int64]bool{-2: false, -1: true, 0: true, 1: true, 2: false} {
		code, _ := Code(secret, Step(now)+d)
		if _, got := Match(secret, code, now); got != ok {
			t.Errorf("drift %d: match %v, want %v", d, got, ok)
		}
	}
	if _, ok := Match(secret, "", now); ok {
		t.Error("empty code matched")
	}
	if _, ok := Match("not base32!", "123456", now); ok {
		t.Error("bad secret matched")
	}
}

func TestQRSVGIsSafeInADataURI(t *testing.T) {
	t.Parallel()
	svg, err := QRSVG(URI("Salaula", "mwila@example.com", "JBSWY3DPEHPK3PXP"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(svg, "<svg") || strings.ContainsAny(svg, "#%") {
		t.Fatalf("svg = %.80s...", svg)
	}
}
