// Package token signs and verifies the HS256 JSON Web Tokens the server hands
// out: user access tokens (role "authenticated") and the public anon key
// (role "anon"), shaped like the hosted auth service's so supabase-js reads them.
package token

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// Claims are the fields of a Salaula JWT.
type Claims struct {
	Issuer       string         `json:"iss,omitempty"`
	Subject      string         `json:"sub,omitempty"`
	Audience     string         `json:"aud,omitempty"`
	ExpiresAt    int64          `json:"exp,omitempty"`
	IssuedAt     int64          `json:"iat,omitempty"`
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
// authenticated (method "password", "recovery" or "otp").
type AMR struct {
	Method    string `json:"method"`
	Timestamp int64  `json:"timestamp"`
}

// Errors returned by Parse.
var (
	ErrMalformed = errors.New("invalid JWT: unable to parse or verify signature")
	ErrExpired   = errors.New("invalid JWT: token is expired")
)

var header = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))

// Sign returns the compact HS256 JWT of claims signed with secret.
func Sign(claims Claims, secret []byte) (string, error) {
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	unsigned := header + "." + base64.RawURLEncoding.EncodeToString(payload)
	return unsigned + "." + signature(unsigned, secret), nil
}

func signature(unsigned string, secret []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(unsigned))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// Parse verifies tok's HS256 signature with secret and its expiry against now
// and returns its claims.
func Parse(tok string, secret []byte, now time.Time) (*Claims, error) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return nil, ErrMalformed
	}
	hdr, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		return nil, ErrMalformed
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(hdr, &h) != nil || h.Alg != "HS256" {
		return nil, ErrMalformed
	}
	want := signature(parts[0]+"."+parts[1], secret)
	if !hmac.Equal([]byte(want), []byte(parts[2])) {
		return nil, ErrMalformed
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, ErrMalformed
	}
	var c Claims
	if err := json.Unmarshal(payload, &c); err != nil {
		return nil, ErrMalformed
	}
	if c.ExpiresAt != 0 && now.Unix() >= c.ExpiresAt {
		return nil, ErrExpired
	}
	return &c, nil
}
