// Package seal encrypts small secrets kept in the database (rotated refresh
// tokens, signing keys, TOTP secrets) with AES-256-GCM under a key derived
// from the server secret and a purpose, so a copy of the database alone
// reveals none of them and a value sealed for one purpose opens for no other.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// Box seals and opens values for one purpose.
type Box struct{ aead cipher.AEAD }

// New returns the box of purpose keyed from secret.
func New(secret []byte, purpose string) (*Box, error) {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(purpose))
	block, err := aes.NewCipher(mac.Sum(nil))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// ErrOpen is returned by Open for a value that was not sealed by this box
// or was changed.
var ErrOpen = errors.New("sealed value is damaged or was sealed with another key")

// Seal encrypts plain, answering base64 text.
func (b *Box) Seal(plain []byte) (string, error) {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return base64.RawStdEncoding.EncodeToString(b.aead.Seal(nonce, nonce, plain, nil)), nil
}

// Open reverses Seal.
func (b *Box) Open(sealed string) ([]byte, error) {
	raw, err := base64.RawStdEncoding.Strict().DecodeString(sealed) // one spelling per sealed value
	if err != nil || len(raw) < b.aead.NonceSize() {
		return nil, ErrOpen
	}
	plain, err := b.aead.Open(nil, raw[:b.aead.NonceSize()], raw[b.aead.NonceSize():], nil)
	if err != nil {
		return nil, ErrOpen
	}
	return plain, nil
}
