package server

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"salaula/internal/seal"
	"salaula/internal/token"
)

// keySource holds the server's signing keyring. With SALAULA_JWT_SECRET it
// is that shared secret (HS256) for good; otherwise the ES256 keys stored in
// the database, looked at again when a request needs them and they were
// loaded keyReload ago or more, so that a rotation or a revocation (`salaula
// admin keys rotate|revoke`, from any process, on any instance's database)
// reaches every instance within a second; sooner (keyRetry after the last
// load) when a token names a kid not loaded or a client asks for the key set.
type keySource struct {
	load func(ctx context.Context) (*token.Keyring, error)

	mu       sync.Mutex
	kr       *token.Keyring
	loadedAt time.Time         // last load, successful or not
	anon     map[string]string // anon key by the kid that signed it
}

const (
	keyReload = time.Second
	keyRetry  = 100 * time.Millisecond
	// keyLoadTimeout bounds one load of the keys; a request waits for it.
	keyLoadTimeout = 5 * time.Second
)

// newKeys builds the key source of the server and loads it once.
func (s *Server) newKeys(ctx context.Context, secret []byte) error {
	ks := &keySource{anon: map[string]string{}}
	if s.cfg.JWTSecret != "" {
		kr, err := token.NewKeyring([]*token.Key{token.HS256Key([]byte(s.cfg.JWTSecret))})
		if err != nil {
			return err
		}
		ks.load = func(context.Context) (*token.Keyring, error) { return kr, nil }
	} else {
		box, err := seal.New(secret, token.SealPurpose)
		if err != nil {
			return err
		}
		keep := s.cfg.AccessTokenTTL + token.Leeway
		ks.load = func(ctx context.Context) (*token.Keyring, error) {
			return token.LoadES256(ctx, s.db, box, keep, s.now())
		}
	}
	kr, err := ks.load(ctx)
	if err != nil {
		return err
	}
	ks.kr, ks.loadedAt = kr, s.now()
	s.keys = ks
	return nil
}

// keyring answers the current keyring, reloading it when it was loaded
// keyReload ago (soon: keyRetry ago); requests that come meanwhile wait for
// that load, so none verifies with a key revoked before it began. A
// failed reload keeps the keys already loaded. The load is one small read
// of the signing_keys table (a few rows).
func (s *Server) keyring(ctx context.Context, soon bool) *token.Keyring {
	ks := s.keys
	ks.mu.Lock()
	defer ks.mu.Unlock()
	now := s.now()
	maxAge := keyReload
	if soon {
		maxAge = keyRetry
	}
	if now.Sub(ks.loadedAt) >= maxAge {
		ks.loadedAt = now
		// Not cut short by the request that happens to load the keys
		// for everyone.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), keyLoadTimeout)
		defer cancel()
		if kr, err := ks.load(ctx); err != nil {
			s.logger.Error("reload signing keys", "err", err)
		} else {
			ks.kr = kr
		}
	}
	return ks.kr
}

// signToken signs claims with the current key.
func (s *Server) signToken(ctx context.Context, c token.Claims) (string, error) {
	return s.keyring(ctx, false).Sign(c)
}

// issuer is the iss of every access token.
func (s *Server) issuer() string { return s.cfg.PublicURL + "/auth/v1" }

// parseAccessToken verifies a user's access token: signature by a key of
// the server, exp, aud "authenticated", iss, and no iat/nbf in the future.
func (s *Server) parseAccessToken(ctx context.Context, raw string) (*token.Claims, error) {
	want := &token.Expect{Issuer: s.issuer(), Audience: "authenticated", Now: s.now()}
	c, err := s.keyring(ctx, false).Parse(raw, want)
	if errors.Is(err, token.ErrUnknownKey) {
		c, err = s.keyring(ctx, true).Parse(raw, want)
	}
	return c, err
}

// anonKey is the public anon key: a long-lived JWT with role "anon" signed
// by the current key. It changes when the keys are rotated and reaches the
// app through /config.json; the server never requires it, so an app still
// holding an older one keeps working.
func (s *Server) anonKey(ctx context.Context) (string, error) {
	kr := s.keyring(ctx, false)
	kid := kr.Current().ID
	s.keys.mu.Lock()
	k, ok := s.keys.anon[kid]
	s.keys.mu.Unlock()
	if ok {
		return k, nil
	}
	k, err := AnonKey(kr)
	if err != nil {
		return "", err
	}
	s.keys.mu.Lock()
	s.keys.anon[kid] = k
	s.keys.mu.Unlock()
	return k, nil
}

// AnonKey returns the anon key signed by kr's current key, as the hosted
// service issues it.
func AnonKey(kr *token.Keyring) (string, error) {
	return kr.Sign(token.Claims{Issuer: "salaula", Role: "anon", IssuedAt: 1_767_225_600, ExpiresAt: 4_102_444_800})
}

// handleJWKS serves the public keys that verify access tokens, for
// supabase-js getClaims() (which caches them for ten minutes). With a
// shared HS256 secret the set is empty and clients ask GET /user instead.
func (s *Server) handleJWKS() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=600")
		// Looked at again keyRetry after the last load: clients fetch the
		// set when a token names a kid they do not know.
		writeAuthJSON(w, http.StatusOK, s.keyring(r.Context(), true).JWKS())
	})
}
