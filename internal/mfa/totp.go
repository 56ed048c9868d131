package mfa

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// TOTP parameters (RFC 6238 defaults, what every authenticator app uses).
const (
	Period = 30 * time.Second
	Digits = 6
	// Drift is how many steps before or after now a code may be from.
	Drift = 1
)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewSecret returns a fresh 160-bit TOTP secret in base32, as apps take it.
func NewSecret() (string, error) {
	raw := make([]byte, 20)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	return b32.EncodeToString(raw), nil
}

// Step is the 30-second step that t falls in.
func Step(t time.Time) int64 { return t.Unix() / int64(Period/time.Second) }

// Code is the 6-digit code of secret (base32) for step (RFC 4226 HOTP).
func Code(secret string, step int64) (string, error) {
	key, err := b32.DecodeString(strings.ToUpper(strings.TrimSpace(secret)))
	if err != nil {
		return "", fmt.Errorf("totp secret: %w", err)
	}
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(step))
	mac := hmac.New(sha1.New, key)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	n := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	return fmt.Sprintf("%06d", n%1_000_000), nil
}

// Match returns the step whose code equals code, looking Drift steps
// either side of now's step; ok false when none does.
func Match(secret, code string, now time.Time) (step int64, ok bool) {
	cur := Step(now)
	for d := int64(-Drift); d <= Drift; d++ {
		want, err := Code(secret, cur+d)
		if err != nil {
			return 0, false
		}
		if hmac.Equal([]byte(want), []byte(code)) {
			return cur + d, true
		}
	}
	return 0, false
}

// URI is the otpauth:// link an authenticator app reads from the QR code.
func URI(issuer, account, secret string) string {
	v := url.Values{}
	v.Set("secret", secret)
	v.Set("issuer", issuer)
	v.Set("algorithm", "SHA1")
	v.Set("digits", fmt.Sprint(Digits))
	v.Set("period", fmt.Sprint(int(Period/time.Second)))
	label := url.PathEscape(issuer) + ":" + url.PathEscape(account)
	return "otpauth://totp/" + label + "?" + v.Encode()
}
