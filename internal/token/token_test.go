package token

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

var now = time.Unix(1_800_000_000, 0)

func want(now time.Time) *Expect {
	return &Expect{Issuer: "https://salaula.test/auth/v1", Audience: "authenticated", Now: now}
}

func access(now time.Time) Claims {
	return Claims{Issuer: "https://salaula.test/auth/v1", Subject: "u1", Audience: "authenticated", Role: "authenticated",
		SessionID: "s1", IssuedAt: now.Unix(), ExpiresAt: now.Add(time.Hour).Unix()}
}

func esRing(t *testing.T) *Keyring {
	t.Helper()
	k, err := NewES256Key(now)
	if err != nil {
		t.Fatal(err)
	}
	kr, err := NewKeyring([]*Key{k})
	if err != nil {
		t.Fatal(err)
	}
	return kr
}

func TestES256RoundTripHasKid(t *testing.T) {
	t.Parallel()
	kr := esRing(t)
	tok, err := kr.Sign(access(now))
	if err != nil {
		t.Fatal(err)
	}
	parsed, _, err := jwt.NewParser().ParseUnverified(tok, &Claims{})
	if err != nil {
		t.Fatal(err)
	}
	if parsed.Header["alg"] != "ES256" || parsed.Header["kid"] != kr.Current().ID {
		t.Fatalf("header = %v", parsed.Header)
	}
	c, err := kr.Parse(tok, want(now))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if c.Subject != "u1" || c.SessionID != "s1" {
		t.Fatalf("claims = %+v", c)
	}
	jwks := kr.JWKS()["keys"]
	if len(jwks) != 1 || jwks[0].Kid != kr.Current().ID || jwks[0].Kty != "EC" || jwks[0].Crv != "P-256" || len(jwks[0].X) != 43 {
		t.Fatalf("jwks = %+v", jwks)
	}
}

func TestHS256HasKidAndNoPublicKeys(t *testing.T) {
	t.Parallel()
	kr, err := NewKeyring([]*Key{HS256Key([]byte("0123456789abcdef0123456789abcdef"))})
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := kr.Sign(access(now))
	p, _, _ := jwt.NewParser().ParseUnverified(tok, &Claims{})
	if p.Header["alg"] != "HS256" || p.Header["kid"] == "" {
		t.Fatalf("header = %v", p.Header)
	}
	if _, err := kr.Parse(tok, want(now)); err != nil {
		t.Fatal(err)
	}
	if len(kr.JWKS()["keys"]) != 0 {
		t.Fatal("an HS256 secret must never be published")
	}
}

func TestRotationKeepsOldKeyVerifying(t *testing.T) {
	t.Parallel()
	old, _ := NewES256Key(now.Add(-time.Hour))
	before, _ := NewKeyring([]*Key{old})
	oldTok, _ := before.Sign(access(now))
	retired := now
	old.RetiredAt = &retired
	fresh, _ := NewES256Key(now)
	after, err := NewKeyring([]*Key{old, fresh})
	if err != nil {
		t.Fatal(err)
	}
	if after.Current().ID != fresh.ID {
		t.Fatal("the new key must sign")
	}
	if _, err := after.Parse(oldTok, want(now)); err != nil {
		t.Fatalf("token of the retired key: %v", err)
	}
	only, _ := NewKeyring([]*Key{fresh})
	if _, err := only.Parse(oldTok, want(now)); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("unknown kid: err = %v", err)
	}
}

func TestParseRejectsBadTokens(t *testing.T) {
	t.Parallel()
	kr := esRing(t)
	good, _ := kr.Sign(access(now))
	parts := strings.Split(good, ".")
	mk := func(change func(*Claims)) string {
		c := access(now)
		change(&c)
		tok, err := kr.Sign(c)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	// A token signed with another key under the same kid.
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	forged := jwt.NewWithClaims(jwt.SigningMethodES256, &Claims{Subject: "u1", ExpiresAt: now.Add(time.Hour).Unix()})
	forged.Header["kid"] = kr.Current().ID
	forgedTok, _ := forged.SignedString(other)
	// HS256 signed with the public key's bytes: the classic algorithm confusion.
	hs := jwt.NewWithClaims(jwt.SigningMethodHS256, &Claims{Subject: "u1", ExpiresAt: now.Add(time.Hour).Unix()})
	hs.Header["kid"] = kr.Current().ID
	hsTok, _ := hs.SignedString([]byte(kr.Current().PublicJWK().X))

	cases := map[string]struct {
		tok  string
		want error
	}{
		"empty":          {"", ErrMalformed},
		"two parts":      {parts[0] + "." + parts[1], ErrMalformed},
		"tampered body":  {parts[0] + "." + parts[1] + "x." + parts[2], ErrMalformed},
		"alg none":       {"eyJhbGciOiJub25lIn0." + parts[1] + ".", ErrMalformed},
		"garbage base64": {"***.***.***", ErrMalformed},
		"other key":      {forgedTok, ErrMalformed},
		"padding bits":   {respelled(t, good), ErrMalformed},
		"high S":         {highSTwin(t, good), ErrMalformed},
		"hs256 confused": {hsTok, ErrMalformed},
		"expired":        {mk(func(c *Claims) { c.ExpiresAt = now.Add(-time.Minute).Unix() }), ErrExpired},
		"no exp":         {mk(func(c *Claims) { c.ExpiresAt = 0 }), ErrClaims},
		"wrong aud":      {mk(func(c *Claims) { c.Audience = "anon" }), ErrClaims},
		"no aud":         {mk(func(c *Claims) { c.Audience = "" }), ErrClaims},
		"wrong iss":      {mk(func(c *Claims) { c.Issuer = "https://evil.test/auth/v1" }), ErrClaims},
		"future iat":     {mk(func(c *Claims) { c.IssuedAt = now.Add(2 * Leeway).Unix() }), ErrClaims},
		"future nbf":     {mk(func(c *Claims) { c.NotBefore = now.Add(2 * Leeway).Unix() }), ErrClaims},
	}
	for name, tc := range cases {
		if _, err := kr.Parse(tc.tok, want(now)); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", name, err, tc.want)
		}
	}
	// Within the skew is fine.
	if _, err := kr.Parse(mk(func(c *Claims) { c.IssuedAt = now.Add(Leeway / 2).Unix() }), want(now)); err != nil {
		t.Errorf("iat within the skew: %v", err)
	}
}

// respelled returns tok with the last character of its signature changed
// to the one that differs only in base64's padding bits: the same bytes
// spelt another way, which a lenient decoder would take as the original.
func respelled(t *testing.T, tok string) string {
	t.Helper()
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	i := strings.IndexByte(alphabet, tok[len(tok)-1])
	if i < 0 || i&3 != 0 { // a 64-byte signature leaves 2 padding bits, zero when canonical
		t.Fatalf("signature does not end in a canonical character: %q", tok)
	}
	return tok[:len(tok)-1] + string(alphabet[i|1])
}

// twinS returns tok with its ES256 signature (r, s) spelt (r, n-s), which
// verifies as well by the curve's arithmetic, and whether tok itself was
// spelt high-S (s above n/2).
func twinS(t *testing.T, tok string) (twin string, wasHigh bool) {
	t.Helper()
	i := strings.LastIndexByte(tok, '.')
	sig, err := base64.RawURLEncoding.DecodeString(tok[i+1:])
	if err != nil || len(sig) != 64 {
		t.Fatalf("not an ES256 signature: %q", tok)
	}
	n := elliptic.P256().Params().N
	s := new(big.Int).SetBytes(sig[32:])
	wasHigh = s.Cmp(new(big.Int).Rsh(n, 1)) > 0
	s.Sub(n, s).FillBytes(sig[32:])
	return tok[:i+1] + base64.RawURLEncoding.EncodeToString(sig), wasHigh
}

// highSTwin is twinS's twin alone.
func highSTwin(t *testing.T, tok string) string {
	t.Helper()
	twin, _ := twinS(t, tok)
	return twin
}

// Every ES256 signature Sign writes is spelt low-S (about half of what
// ecdsa.Sign returns is not) and verifies; its high-S twin, which the
// JWT library alone would take, is refused.
func TestES256SignaturesHaveOneSpelling(t *testing.T) {
	t.Parallel()
	kr := esRing(t)
	lib := jwt.NewParser(jwt.WithValidMethods([]string{"ES256"}), jwt.WithoutClaimsValidation())
	for i := range 64 {
		c := access(now)
		c.Subject = fmt.Sprint("u", i)
		tok, err := kr.Sign(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := kr.Parse(tok, want(now)); err != nil {
			t.Fatalf("token %d does not verify: %v", i, err)
		}
		twin, high := twinS(t, tok)
		if high {
			t.Errorf("token %d is signed high-S", i)
		}
		if _, err := lib.ParseWithClaims(twin, &Claims{}, func(*jwt.Token) (any, error) { return &kr.Current().Private.PublicKey, nil }); err != nil {
			t.Fatalf("the JWT library refuses the high-S twin itself (%v): the test shows nothing", err)
		}
		if _, err := kr.Parse(twin, want(now)); !errors.Is(err, ErrMalformed) {
			t.Errorf("twin of token %d: err = %v, want %v", i, err, ErrMalformed)
		}
	}
}

func BenchmarkSignHS256(b *testing.B) {
	kr, _ := NewKeyring([]*Key{HS256Key([]byte("0123456789abcdef0123456789abcdef"))})
	claims := access(now)
	claims.AMR = []AMR{{Method: "password", Timestamp: now.Unix()}}
	claims.AppMetadata = map[string]any{"provider": "email", "providers": []string{"email"}}
	for b.Loop() {
		if _, err := kr.Sign(claims); err != nil {
			b.Fatal(err)
		}
	}
}
