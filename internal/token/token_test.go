package token

import (
	"strings"
	"testing"
	"time"
)

func TestSignParseRoundTrip(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	now := time.Unix(1_800_000_000, 0)
	tok, err := Sign(Claims{Subject: "u1", Role: "authenticated", Audience: "authenticated", SessionID: "s1", ExpiresAt: now.Add(time.Hour).Unix()}, secret)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(tok, secret, now)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if c.Subject != "u1" || c.SessionID != "s1" || c.Role != "authenticated" {
		t.Fatalf("claims = %+v", c)
	}
}

func TestParseRejectsBadTokens(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	now := time.Unix(1_800_000_000, 0)
	good, _ := Sign(Claims{Subject: "u1", Role: "authenticated", ExpiresAt: now.Add(time.Hour).Unix()}, secret)
	expired, _ := Sign(Claims{Subject: "u1", Role: "authenticated", ExpiresAt: now.Add(-time.Second).Unix()}, secret)
	parts := strings.Split(good, ".")
	cases := map[string]struct {
		tok  string
		want error
	}{
		"empty":          {"", ErrMalformed},
		"two parts":      {parts[0] + "." + parts[1], ErrMalformed},
		"other secret":   {mustSign(t, []byte("another-secret-another-secret-xx"), now), ErrMalformed},
		"tampered body":  {parts[0] + "." + parts[1] + "x." + parts[2], ErrMalformed},
		"alg none":       {"eyJhbGciOiJub25lIn0." + parts[1] + ".", ErrMalformed},
		"expired":        {expired, ErrExpired},
		"garbage base64": {"***.***.***", ErrMalformed},
	}
	for name, tc := range cases {
		if _, err := Parse(tc.tok, secret, now); err != tc.want {
			t.Errorf("%s: err = %v, want %v", name, err, tc.want)
		}
	}
}

func mustSign(t *testing.T, secret []byte, now time.Time) string {
	t.Helper()
	tok, err := Sign(Claims{Subject: "u1", Role: "authenticated", ExpiresAt: now.Add(time.Hour).Unix()}, secret)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
