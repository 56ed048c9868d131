package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// newUserAndSession makes an account with one session whose first refresh
// token hash is refreshHash.
func newUserAndSession(t *testing.T, db *store.DB, email, refreshHash string) (*store.User, *store.Session) {
	t.Helper()
	ctx := context.Background()
	u := &store.User{Email: email, PasswordHash: "hash"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	s := &store.Session{UserID: u.ID, UserAgent: "test", IP: "127.0.0.1"}
	if err := db.StartSession(ctx, s, "password", refreshHash); err != nil {
		t.Fatal(err)
	}
	return u, s
}

func active(t *testing.T, db *store.DB, s *store.Session) bool {
	t.Helper()
	ok, err := db.SessionActive(context.Background(), s.ID, s.UserID)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestStartSessionRecordsMethod(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, s := newUserAndSession(t, db, "a@example.com", "h0")
		method, at, err := db.SessionMethod(ctx, s.ID)
		if err != nil || method != "password" || !at.Equal(s.CreatedAt) {
			t.Fatalf("SessionMethod = %q, %v, %v; want password, %v", method, at, err, s.CreatedAt)
		}
		// Sessions made by the older CreateSession default to password.
		old := &store.Session{UserID: s.UserID}
		if err := db.CreateSession(ctx, old); err != nil {
			t.Fatal(err)
		}
		if method, _, _ := db.SessionMethod(ctx, old.ID); method != "password" {
			t.Fatalf("default method = %q", method)
		}
		if _, _, err := db.SessionMethod(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing session: err = %v", err)
		}
	})
}

// A session for an account that is gone (deleted between the password
// check and the session) is refused, and neither it nor its refresh token
// is stored.
func TestStartSessionForAMissingAccountStoresNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := &store.Session{UserID: "no-such-account", UserAgent: "test", IP: "127.0.0.1"}
		if err := db.StartSession(ctx, s, "password", "h-missing"); err == nil {
			t.Fatal("a session for a missing account was started")
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM sessions`); n != 0 {
			t.Fatalf("%d sessions stored", n)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM refresh_tokens`); n != 0 {
			t.Fatalf("%d refresh tokens stored", n)
		}
	})
}

func TestRotateRefreshToken(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u, s := newUserAndSession(t, db, "a@example.com", "h0")
		now := store.Now()
		rot, err := db.RotateRefreshToken(ctx, "h0", "h1", "sealed-1", now, 10*time.Second)
		if err != nil || rot.SessionID != s.ID || rot.UserID != u.ID || rot.Sealed != "" {
			t.Fatalf("first rotation = %+v, %v", rot, err)
		}
		// The new token rotates in turn.
		if rot, err := db.RotateRefreshToken(ctx, "h1", "h2", "sealed-2", now.Add(time.Second), 10*time.Second); err != nil || rot.Sealed != "" {
			t.Fatalf("second rotation = %+v, %v", rot, err)
		}
		// Within the grace interval, both spent tokens answer the current active one.
		for _, h := range []string{"h0", "h1"} {
			rot, err := db.RotateRefreshToken(ctx, h, "unused", "x", now.Add(2*time.Second), 10*time.Second)
			if err != nil || rot.Sealed != "sealed-2" || rot.SessionID != s.ID {
				t.Fatalf("reuse of %s within grace = %+v, %v; want sealed-2", h, rot, err)
			}
		}
		if !active(t, db, s) {
			t.Fatal("reuse within the grace interval ended the session")
		}
		// Unknown tokens are not found.
		if _, err := db.RotateRefreshToken(ctx, "nope", "h9", "x", now, 10*time.Second); !errors.Is(err, store.ErrTokenNotFound) {
			t.Fatalf("unknown token: err = %v", err)
		}
		// After the grace interval, reuse revokes the whole session.
		if _, err := db.RotateRefreshToken(ctx, "h0", "h9", "x", now.Add(time.Minute), 10*time.Second); !errors.Is(err, store.ErrTokenReused) {
			t.Fatalf("reuse after grace: err = %v, want ErrTokenReused", err)
		}
		if active(t, db, s) {
			t.Fatal("session still active after refresh-token reuse")
		}
		if _, err := db.RotateRefreshToken(ctx, "h2", "h9", "x", now.Add(time.Minute), 10*time.Second); !errors.Is(err, store.ErrTokenNotFound) {
			t.Fatalf("active token of a revoked session: err = %v, want ErrTokenNotFound", err)
		}
	})
}

func TestRotateRefreshTokenConcurrently(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, s := newUserAndSession(t, db, "a@example.com", "h0")
		const n = 6
		var wg sync.WaitGroup
		results := make([]store.Rotation, n)
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				results[i], errs[i] = db.RotateRefreshToken(ctx, "h0", "new-"+string(rune('a'+i)), "sealed-"+string(rune('a'+i)), store.Now(), 10*time.Second)
			})
		}
		wg.Wait()
		rotated, sealed := 0, map[string]bool{}
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("concurrent rotation %d: %v", i, errs[i])
			}
			if results[i].Sealed == "" {
				rotated++
			} else {
				sealed[results[i].Sealed] = true
			}
		}
		if rotated != 1 || len(sealed) > 1 {
			t.Fatalf("%d rotations and successors %v; want exactly one rotation that the others share", rotated, sealed)
		}
		if !active(t, db, s) {
			t.Fatal("concurrent refreshes ended the session")
		}
	})
}

func TestRevokeSessionsByScope(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u, a := newUserAndSession(t, db, "a@example.com", "ha")
		b := &store.Session{UserID: u.ID}
		c := &store.Session{UserID: u.ID}
		for i, s := range []*store.Session{b, c} {
			if err := db.StartSession(ctx, s, "password", "hb"+string(rune('0'+i))); err != nil {
				t.Fatal(err)
			}
		}
		_, other := newUserAndSession(t, db, "other@example.com", "hx")

		if err := db.RevokeSessions(ctx, u.ID, a.ID, store.ScopeOthers); err != nil {
			t.Fatal(err)
		}
		if !active(t, db, a) || active(t, db, b) || active(t, db, c) {
			t.Fatal("scope others: want only the current session left")
		}
		if _, err := db.RotateRefreshToken(ctx, "hb0", "n", "x", store.Now(), time.Hour); !errors.Is(err, store.ErrTokenNotFound) {
			t.Fatalf("refresh of a signed-out session: err = %v", err)
		}
		if err := db.RevokeSessions(ctx, u.ID, a.ID, store.ScopeLocal); err != nil {
			t.Fatal(err)
		}
		if active(t, db, a) {
			t.Fatal("scope local: current session still active")
		}
		d := &store.Session{UserID: u.ID}
		if err := db.StartSession(ctx, d, "password", "hd"); err != nil {
			t.Fatal(err)
		}
		if err := db.RevokeSessions(ctx, u.ID, "", store.ScopeGlobal); err != nil {
			t.Fatal(err)
		}
		if active(t, db, d) {
			t.Fatal("scope global: a session is still active")
		}
		if !active(t, db, other) {
			t.Fatal("another user's session was revoked")
		}
	})
}

func TestOneTimeTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u, _ := newUserAndSession(t, db, "a@example.com", "h0")
		now := store.Now()
		for _, h := range []string{"r1", "r2"} {
			if err := db.AddOneTimeToken(ctx, u.ID, store.TokenRecovery, h, now.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.AddOneTimeToken(ctx, u.ID, store.TokenRecovery, "old", now.Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.UseOneTimeToken(ctx, store.TokenConfirmation, "r1", now); !errors.Is(err, store.ErrTokenInvalid) {
			t.Fatalf("wrong kind: err = %v", err)
		}
		if _, err := db.UseOneTimeToken(ctx, store.TokenRecovery, "old", now); !errors.Is(err, store.ErrTokenInvalid) {
			t.Fatalf("expired: err = %v", err)
		}
		got, err := db.UseOneTimeToken(ctx, store.TokenRecovery, "r1", now)
		if err != nil || got != u.ID {
			t.Fatalf("UseOneTimeToken = %q, %v", got, err)
		}
		if _, err := db.UseOneTimeToken(ctx, store.TokenRecovery, "r1", now); !errors.Is(err, store.ErrTokenInvalid) {
			t.Fatalf("second use: err = %v", err)
		}
		if _, err := db.UseOneTimeToken(ctx, store.TokenRecovery, "r2", now); !errors.Is(err, store.ErrTokenInvalid) {
			t.Fatalf("sibling after a use: err = %v, want spent too", err)
		}
		if _, err := db.UseOneTimeToken(ctx, store.TokenRecovery, "unknown", now); !errors.Is(err, store.ErrTokenInvalid) {
			t.Fatalf("unknown: err = %v", err)
		}
	})
}

func TestUserUpdates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u, _ := newUserAndSession(t, db, "a@example.com", "h0")
		at := store.Now()
		if err := db.SetPassword(ctx, u.ID, "new-hash"); err != nil {
			t.Fatal(err)
		}
		if err := db.ProveEmail(ctx, u.ID, at); err != nil {
			t.Fatal(err)
		}
		if err := db.ProveEmail(ctx, u.ID, at.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := db.RecordSignIn(ctx, u.ID, at); err != nil {
			t.Fatal(err)
		}
		if err := db.SetUserMetadata(ctx, u.ID, `{"name":"Mwila"}`); err != nil {
			t.Fatal(err)
		}
		got, err := db.UserByID(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.PasswordHash != "new-hash" || got.EmailConfirmedAt == nil || !got.EmailConfirmedAt.Equal(at) ||
			got.EmailProvenAt == nil || !got.EmailProvenAt.Equal(at) ||
			got.LastSignInAt == nil || !got.LastSignInAt.Equal(at) || got.UserMetadata != `{"name":"Mwila"}` {
			t.Fatalf("user after updates = %+v (confirmation must keep its first time)", got)
		}
		if err := db.SetPassword(ctx, "missing", "x"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("SetPassword(missing) err = %v", err)
		}
	})
}

func count(t *testing.T, db *store.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSpentTokensAreForgotten(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u, s := newUserAndSession(t, db, "a@example.com", "h0")
		now := store.Now()
		if _, err := db.RotateRefreshToken(ctx, "h0", "h1", "s1", now, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		later := now.Add(store.SpentTokenRetention + time.Hour)
		if _, err := db.RotateRefreshToken(ctx, "h1", "h2", "s2", later, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM refresh_tokens WHERE token_hash = 'h0'`); n != 0 {
			t.Fatal("a token spent longer ago than the retention is still stored")
		}
		if n := count(t, db, `SELECT COUNT(*) FROM refresh_tokens WHERE token_hash = 'h1'`); n != 1 {
			t.Fatal("the token spent just now was forgotten")
		}
		// A replay of a forgotten token is refused without ending the session.
		if _, err := db.RotateRefreshToken(ctx, "h0", "h9", "x", later, 10*time.Second); !errors.Is(err, store.ErrTokenNotFound) {
			t.Fatalf("forgotten token: err = %v", err)
		}
		if !active(t, db, s) {
			t.Fatal("session ended")
		}
		// Signing out deletes the session's tokens.
		if err := db.RevokeSessions(ctx, u.ID, s.ID, store.ScopeLocal); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM refresh_tokens WHERE session_id = ?`, s.ID); n != 0 {
			t.Fatalf("%d refresh tokens left for a signed-out session", n)
		}
	})
}

func TestSpentOneTimeTokensAreForgotten(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u, _ := newUserAndSession(t, db, "a@example.com", "h0")
		other, _ := newUserAndSession(t, db, "b@example.com", "hb")
		now := store.Now()
		for _, tok := range []struct {
			user, hash string
			exp        time.Time
		}{{u.ID, "used", now.Add(time.Hour)}, {u.ID, "expired", now.Add(-time.Minute)}, {other.ID, "other-expired", now.Add(-time.Minute)}} {
			if err := db.AddOneTimeToken(ctx, tok.user, store.TokenRecovery, tok.hash, tok.exp); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.UseOneTimeToken(ctx, store.TokenRecovery, "used", now); err != nil {
			t.Fatal(err)
		}
		if err := db.AddOneTimeToken(ctx, u.ID, store.TokenRecovery, "fresh", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM one_time_tokens WHERE user_id = ?`, u.ID); n != 1 {
			t.Fatalf("%d tokens for the user, want only the fresh one", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM one_time_tokens WHERE user_id = ?`, other.ID); n != 1 {
			t.Fatal("another user's tokens were touched")
		}
	})
}

// BenchmarkStartSession is a password sign-in's writes: the last sign-in
// time, the session and its first refresh token, in one commit.
func BenchmarkStartSession(b *testing.B) {
	storetest.EachBench(b, func(b *testing.B, engine store.Dialect) {
		db := storetest.Open(b, engine)
		ctx := context.Background()
		u := &store.User{Email: "chanda@example.com", PasswordHash: "hash"}
		if err := db.CreateUser(ctx, u); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			s := &store.Session{UserID: u.ID, UserAgent: "bench", IP: "127.0.0.1"}
			if err := db.StartSession(ctx, s, "password", fmt.Sprintf("hash-%d", i)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
