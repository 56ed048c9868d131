// Package token signs and verifies the JSON Web Tokens the server hands out:
// user access tokens (role "authenticated") and the public anon key (role
// "anon"), shaped like the hosted auth service's so supabase-js reads them.
//
// Tokens are signed with ES256 by a Keyring whose public keys are served as
// a JWKS (so clients check tokens themselves), or with HS256 and a shared
// secret when the operator sets one. Every header carries a kid. Parsing
// accepts only the algorithm the keyring signs with.
package token

import (
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"salaula/internal/jsonappend"
)

// Claims are the fields of a Salaula JWT.
type Claims struct {
	Issuer       string         `json:"iss,omitempty"`
	Subject      string         `json:"sub,omitempty"`
	Audience     string         `json:"aud,omitempty"`
	ExpiresAt    int64          `json:"exp,omitempty"`
	IssuedAt     int64          `json:"iat,omitempty"`
	NotBefore    int64          `json:"nbf,omitempty"`
	Role         string         `json:"role"`
	Email        string         `json:"email,omitempty"`
	SessionID    string         `json:"session_id,omitempty"`
	AAL          string         `json:"aal,omitempty"`
	AMR          []AMR          `json:"amr,omitempty"`
	IsAnonymous  bool           `json:"is_anonymous,omitempty"`
	AppMetadata  map[string]any `json:"app_metadata,omitempty"`
	UserMetadata map[string]any `json:"user_metadata,omitempty"`
}

// AMR is one authentication method reference: how and when the session was
// authenticated (method "password", "recovery", "otp" or "totp").
type AMR struct {
	Method    string `json:"method"`
	Timestamp int64  `json:"timestamp"`
}

// appendJSON appends the claims as encoding/json writes them (fields in
// order, empty ones left out as their tags say), by hand: a sign-in signs
// one token, and encoding/json's reflection was most of that work.
func (c *Claims) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	field := func(name string) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = jsonappend.Key(b, name)
	}
	for _, f := range [...]struct{ name, v string }{{"iss", c.Issuer}, {"sub", c.Subject}, {"aud", c.Audience}} {
		if f.v != "" {
			field(f.name)
			b = jsonappend.String(b, f.v)
		}
	}
	for _, f := range [...]struct {
		name string
		v    int64
	}{{"exp", c.ExpiresAt}, {"iat", c.IssuedAt}, {"nbf", c.NotBefore}} {
		if f.v != 0 {
			field(f.name)
			b = jsonappend.Int(b, f.v)
		}
	}
	field("role")
	b = jsonappend.String(b, c.Role)
	for _, f := range [...]struct{ name, v string }{{"email", c.Email}, {"session_id", c.SessionID}, {"aal", c.AAL}} {
		if f.v != "" {
			field(f.name)
			b = jsonappend.String(b, f.v)
		}
	}
	if len(c.AMR) > 0 {
		field("amr")
		b = append(b, '[')
		for i, a := range c.AMR {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonappend.String(append(b, `{"method":`...), a.Method)
			b = jsonappend.Int(append(b, `,"timestamp":`...), a.Timestamp)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if c.IsAnonymous {
		field("is_anonymous")
		b = append(b, "true"...)
	}
	var err error
	for _, f := range [...]struct {
		name string
		v    map[string]any
	}{{"app_metadata", c.AppMetadata}, {"user_metadata", c.UserMetadata}} {
		if len(f.v) > 0 && err == nil {
			field(f.name)
			b, err = jsonappend.Value(b, f.v)
		}
	}
	return append(b, '}'), err
}

func numeric(v int64) *jwt.NumericDate {
	if v == 0 {
		return nil
	}
	return jwt.NewNumericDate(time.Unix(v, 0))
}

// The jwt.Claims interface, so the parser checks the registered claims.

func (c *Claims) GetExpirationTime() (*jwt.NumericDate, error) { return numeric(c.ExpiresAt), nil }
func (c *Claims) GetIssuedAt() (*jwt.NumericDate, error)       { return numeric(c.IssuedAt), nil }
func (c *Claims) GetNotBefore() (*jwt.NumericDate, error)      { return numeric(c.NotBefore), nil }
func (c *Claims) GetIssuer() (string, error)                   { return c.Issuer, nil }
func (c *Claims) GetSubject() (string, error)                  { return c.Subject, nil }
func (c *Claims) GetAudience() (jwt.ClaimStrings, error) {
	if c.Audience == "" {
		return nil, nil
	}
	return jwt.ClaimStrings{c.Audience}, nil
}

// Errors returned by Parse.
var (
	ErrMalformed = errors.New("invalid JWT: unable to parse or verify signature")
	ErrExpired   = errors.New("invalid JWT: token is expired")
	ErrClaims    = errors.New("invalid JWT: its claims are not those of an access token of this server")
)

// Leeway is how far the clocks of the server and another signer may differ:
// a token issued (iat) or valid from (nbf) further in the future is refused.
const Leeway = 30 * time.Second

// Expect is what an access token must carry besides a good signature.
type Expect struct {
	Issuer   string    // iss, exactly
	Audience string    // aud, e.g. "authenticated"
	Now      time.Time // the time to check exp, iat and nbf against
}
