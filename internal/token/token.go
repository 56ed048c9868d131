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
	// Transformations is a signed image URL's sizing (storage's
	// "width:192,height:192,resize:cover"), as Supabase Storage signs it.
	Transformations string `json:"transformations,omitempty"`
}

// AMR is one authentication method reference: how and when the session was
// authenticated (method "password", "recovery", "otp" or "totp").
type AMR struct {
	Method    string `json:"method"`
	Timestamp int64  `json:"timestamp"`
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
