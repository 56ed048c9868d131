package server

import (
	"context"
	"testing"
	"time"

	"salaula/internal/seal"
	"salaula/internal/token"
)

// keyring is the server's keyring as the tests see it: the HS256 secret
// when the config sets one, else the ES256 keys stored in the database.
func (e *testEnv) keyring(t testing.TB) *token.Keyring {
	fatal := func(err error) {
		if t != nil {
			t.Helper()
			t.Fatal(err)
		}
		panic(err)
	}
	if e.Config.JWTSecret != "" {
		kr, err := token.NewKeyring([]*token.Key{token.HS256Key([]byte(e.Config.JWTSecret))})
		if err != nil {
			fatal(err)
		}
		return kr
	}
	box, err := seal.New(testSecret, token.SealPurpose)
	if err != nil {
		fatal(err)
	}
	kr, err := token.LoadES256(context.Background(), e.DB, box, e.Config.AccessTokenTTL+token.Leeway, time.Now())
	if err != nil {
		fatal(err)
	}
	return kr
}

// sign signs claims with the server's current key.
func (e *testEnv) sign(t testing.TB, c token.Claims) string {
	t.Helper()
	tok, err := e.keyring(t).Sign(c)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// claimsOf verifies tok's signature (not its claims) and returns them.
func (e *testEnv) claimsOf(t testing.TB, tok string) (*token.Claims, error) {
	return e.keyring(t).Parse(tok, nil)
}

// accessClaims are good claims of an access token for the user's session.
func (e *testEnv) accessClaims(userID, sessionID, email string) token.Claims {
	now := time.Now()
	return token.Claims{Issuer: e.Config.PublicURL + "/auth/v1", Subject: userID, Audience: "authenticated", Role: "authenticated",
		SessionID: sessionID, Email: email, IssuedAt: now.Unix(), ExpiresAt: now.Add(time.Hour).Unix(), AAL: "aal1"}
}
