package token

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Key is one signing key. For ES256, Private signs and Public verifies; for
// HS256, Secret does both and no public key is published.
type Key struct {
	ID        string
	Alg       string // "ES256" or "HS256"
	Private   *ecdsa.PrivateKey
	Secret    []byte
	CreatedAt time.Time
	RetiredAt *time.Time // rotated out: verifies, never signs
}

// NewES256Key makes a fresh P-256 key with a random kid.
func NewES256Key(now time.Time) (*Key, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	return &Key{ID: hex.EncodeToString(id), Alg: "ES256", Private: priv, CreatedAt: now}, nil
}

// HS256Key is the key of a shared secret; its kid is derived from the
// secret, so every instance sharing it names it alike.
func HS256Key(secret []byte) *Key {
	sum := sha256.Sum256(append([]byte("salaula hs256 kid:"), secret...))
	return &Key{ID: hex.EncodeToString(sum[:8]), Alg: "HS256", Secret: secret}
}

// MarshalPrivate encodes an ES256 private key (PKCS#8 DER) for sealing.
func (k *Key) MarshalPrivate() ([]byte, error) {
	if k.Private == nil {
		return nil, errors.New("not an ES256 key")
	}
	return x509.MarshalPKCS8PrivateKey(k.Private)
}

// ParseES256Private reverses MarshalPrivate.
func ParseES256Private(der []byte) (*ecdsa.PrivateKey, error) {
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, err
	}
	ec, ok := k.(*ecdsa.PrivateKey)
	if !ok || ec.Curve != elliptic.P256() {
		return nil, errors.New("not a P-256 key")
	}
	return ec, nil
}

// JWK is a public key as a JSON Web Key, the shape supabase-js imports with
// WebCrypto.
type JWK struct {
	Kty    string   `json:"kty"`
	Crv    string   `json:"crv"`
	X      string   `json:"x"`
	Y      string   `json:"y"`
	Kid    string   `json:"kid"`
	Alg    string   `json:"alg"`
	Use    string   `json:"use"`
	KeyOps []string `json:"key_ops"`
	Ext    bool     `json:"ext"`
}

// PublicJWK returns the public half of an ES256 key.
func (k *Key) PublicJWK() JWK {
	pad := func(n *big.Int) string {
		b := make([]byte, 32)
		n.FillBytes(b)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return JWK{Kty: "EC", Crv: "P-256", X: pad(k.Private.X), Y: pad(k.Private.Y), Kid: k.ID, Alg: "ES256",
		Use: "sig", KeyOps: []string{"verify"}, Ext: true}
}

// Keyring signs with its newest active key and verifies with any of its keys.
type Keyring struct {
	keys []*Key // newest first
	alg  string
}

// NewKeyring returns a keyring of keys, all of one algorithm; the newest key
// that is not retired signs.
func NewKeyring(keys []*Key) (*Keyring, error) {
	if len(keys) == 0 {
		return nil, errors.New("keyring: no keys")
	}
	kr := &Keyring{alg: keys[0].Alg}
	for _, k := range keys {
		if k.Alg != kr.alg {
			return nil, fmt.Errorf("keyring: key %s is %s, others %s", k.ID, k.Alg, kr.alg)
		}
		if k.Alg == "ES256" && k.Private == nil || k.Alg == "HS256" && len(k.Secret) == 0 {
			return nil, fmt.Errorf("keyring: key %s has no key material", k.ID)
		}
	}
	kr.keys = append([]*Key(nil), keys...)
	// Newest first, active before retired.
	for i := 1; i < len(kr.keys); i++ {
		for j := i; j > 0 && newer(kr.keys[j], kr.keys[j-1]); j-- {
			kr.keys[j], kr.keys[j-1] = kr.keys[j-1], kr.keys[j]
		}
	}
	if kr.keys[0].RetiredAt != nil {
		return nil, errors.New("keyring: every key is retired")
	}
	return kr, nil
}

func newer(a, b *Key) bool {
	if (a.RetiredAt == nil) != (b.RetiredAt == nil) {
		return a.RetiredAt == nil
	}
	return a.CreatedAt.After(b.CreatedAt)
}

// Current is the key that signs.
func (kr *Keyring) Current() *Key { return kr.keys[0] }

// Alg is the one algorithm the keyring signs and accepts.
func (kr *Keyring) Alg() string { return kr.alg }

// Has reports whether the keyring holds a key with this kid.
func (kr *Keyring) Has(kid string) bool { return kr.key(kid) != nil }

func (kr *Keyring) key(kid string) *Key {
	for _, k := range kr.keys {
		if k.ID == kid {
			return k
		}
	}
	return nil
}

// JWKS is the public key set: {"keys": [...]}, empty for HS256.
func (kr *Keyring) JWKS() map[string][]JWK {
	out := []JWK{}
	if kr.alg == "ES256" {
		for _, k := range kr.keys {
			out = append(out, k.PublicJWK())
		}
	}
	return map[string][]JWK{"keys": out}
}

// Sign returns the compact JWT of claims, signed by the current key, with
// its kid in the header. An ES256 signature is deterministic (RFC 6979),
// so every instance signs the same claims alike (the anon key), and spelt
// low-S (see lowS).
func (kr *Keyring) Sign(claims Claims) (string, error) {
	k := kr.Current()
	method := jwt.SigningMethod(jwt.SigningMethodHS256)
	if k.Alg == "ES256" {
		method = jwt.SigningMethodES256
	}
	tok := jwt.NewWithClaims(method, &claims)
	tok.Header["kid"] = k.ID
	unsigned, err := tok.SigningString()
	if err != nil {
		return "", err
	}
	var sig []byte
	if k.Alg == "ES256" {
		sig, err = signES256(k.Private, unsigned)
	} else {
		sig, err = method.Sign(unsigned, k.Secret)
	}
	if err != nil {
		return "", err
	}
	return unsigned + "." + tok.EncodeSegment(sig), nil
}

// signES256 is the JWS signature of unsigned by priv: r and s, 32 bytes
// each, deterministic (RFC 6979: no random source) and low-S.
func signES256(priv *ecdsa.PrivateKey, unsigned string) ([]byte, error) {
	digest := sha256.Sum256([]byte(unsigned))
	der, err := priv.Sign(nil, digest[:], crypto.SHA256)
	if err != nil {
		return nil, err
	}
	var rs struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &rs); err != nil {
		return nil, err
	}
	sig := make([]byte, 64)
	rs.R.FillBytes(sig[:32])
	rs.S.FillBytes(sig[32:])
	lowS(sig)
	return sig, nil
}

// p256Order is the order n of the P-256 group; halfOrder is n/2. An ES256
// signature (r, s) has a second spelling, (r, n-s), that verifies as well:
// exactly one of the two has s at most n/2, the low-S spelling.
var (
	p256Order = elliptic.P256().Params().N
	halfOrder = new(big.Int).Rsh(p256Order, 1)
)

// lowS rewrites an ES256 signature (r and s, 32 bytes each) in place to its
// low-S spelling, the only one Parse accepts.
func lowS(sig []byte) {
	if len(sig) != 64 {
		return
	}
	if s := new(big.Int).SetBytes(sig[32:]); s.Cmp(halfOrder) > 0 {
		s.Sub(p256Order, s).FillBytes(sig[32:])
	}
}

// highS reports whether tok's signature is an ES256 signature spelt with
// s above n/2. A signature that does not decode to 64 bytes is left to the
// parser, which refuses it.
func highS(tok string) bool {
	i := strings.LastIndexByte(tok, '.')
	if i < 0 {
		return false
	}
	sig, err := base64.RawURLEncoding.Strict().DecodeString(tok[i+1:])
	if err != nil || len(sig) != 64 {
		return false
	}
	return new(big.Int).SetBytes(sig[32:]).Cmp(halfOrder) > 0
}

// Parse verifies tok's signature with the key its kid names (an ES256
// signature in its low-S spelling only, so each token has one spelling)
// and, when want is given, checks exp (required), aud, iss, and that iat and nbf are not
// in the future beyond Leeway. ErrUnknownKey when the kid is not in the
// keyring (the caller may reload its keys and try again). With ErrClaims
// the claims come back too: the signature was good, so the caller may tell
// what kind of token it was.
func (kr *Keyring) Parse(tok string, want *Expect) (*Claims, error) {
	// Strict decoding: a token whose base64 carries nonzero padding bits
	// (another spelling of the same signature) is refused, so each token
	// has one spelling and an edited token never passes as the original.
	opts := []jwt.ParserOption{jwt.WithValidMethods([]string{kr.alg}), jwt.WithLeeway(Leeway), jwt.WithStrictDecoding()}
	if want != nil {
		opts = append(opts, jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithTimeFunc(func() time.Time { return want.Now }),
			jwt.WithAudience(want.Audience), jwt.WithIssuer(want.Issuer))
	} else {
		opts = append(opts, jwt.WithoutClaimsValidation())
	}
	if kr.alg == "ES256" && highS(tok) {
		return nil, ErrMalformed
	}
	var c Claims
	unknown := false
	_, err := jwt.ParseWithClaims(tok, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		k := kr.key(kid)
		if k == nil {
			unknown = true
			return nil, ErrUnknownKey
		}
		if k.Alg == "ES256" {
			return &k.Private.PublicKey, nil
		}
		return k.Secret, nil
	}, opts...)
	switch {
	case err == nil:
		return &c, nil
	case unknown:
		return nil, ErrUnknownKey
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, ErrExpired
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing), errors.Is(err, jwt.ErrTokenInvalidAudience),
		errors.Is(err, jwt.ErrTokenInvalidIssuer), errors.Is(err, jwt.ErrTokenUsedBeforeIssued),
		errors.Is(err, jwt.ErrTokenNotValidYet), errors.Is(err, jwt.ErrTokenInvalidClaims):
		return &c, ErrClaims // signed by us: the claims say what the token is
	default:
		return nil, ErrMalformed
	}
}

// ErrUnknownKey: the token names a kid the keyring does not hold.
var ErrUnknownKey = errors.New("invalid JWT: signed by a key this server does not know (kid)")
