package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"salaula/internal/console"
	"salaula/internal/mfa"
	"salaula/internal/realtime"
	"salaula/internal/token"
)

// handleRealtime is GET /realtime/v1/websocket: the Supabase Realtime
// socket realtime-js opens (see internal/realtime).
func (s *Server) handleRealtime() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.realtime.Serve(w, r, s.clientIP(r))
	})
}

// realtimeAuth checks realtime sockets' apikeys and channels' access
// tokens with the rules of the HTTP side (authenticate, Server.operator).
type realtimeAuth struct{ s *Server }

// CheckAPIKey accepts this server's anon key (or a user's access token,
// which supabase-js sends when it has no anon key at hand).
func (a realtimeAuth) CheckAPIKey(ctx context.Context, apikey string) error {
	if apikey == "" {
		return errors.New("no apikey")
	}
	c, err := a.s.parseAccessToken(ctx, apikey)
	if err == nil || (errors.Is(err, token.ErrClaims) && c != nil && c.Role == "anon") {
		return nil
	}
	return err
}

// Authenticate checks an access token as authenticate does (signature,
// expiry, an active session) and reads the operator role and the
// two-step sign-in now.
func (a realtimeAuth) Authenticate(ctx context.Context, raw string) (realtime.Identity, error) {
	s := a.s
	var id realtime.Identity
	claims, err := s.parseAccessToken(ctx, raw)
	switch {
	case errors.Is(err, token.ErrClaims) && claims != nil && claims.Role != "authenticated":
		return id, errors.New("Sign in to use live updates: the anon key is not a person's token")
	case errors.Is(err, token.ErrExpired):
		return id, errors.New("Token has expired: sign in again")
	case err != nil:
		return id, errors.New("The access token is not valid: sign in again")
	case claims.Subject == "" || claims.SessionID == "":
		return id, errNotUserToken
	}
	ok, err := s.db.SessionActive(ctx, claims.SessionID, claims.Subject)
	if err != nil {
		return id, &realtime.Transient{Err: errors.New(msgServiceBusy)}
	}
	if !ok {
		return id, errSessionEnded
	}
	id = realtime.Identity{UserID: claims.Subject, SessionID: claims.SessionID, Expires: time.Unix(claims.ExpiresAt, 0)}
	if claims.ExpiresAt == 0 {
		id.Expires = time.Time{}
	}
	if _, err := console.Operator(ctx, s.db, claims.Subject); err == nil {
		err = mfa.RequireAAL2(ctx, s.db, claims.Subject, claims.AAL)
		switch {
		case err == nil:
			id.Operator = true
		case errors.Is(err, mfa.ErrNoVerifiedFactor), errors.Is(err, mfa.ErrInsufficientAAL):
			id.NeedsAAL2 = true
		default:
			return realtime.Identity{}, &realtime.Transient{Err: errors.New(msgServiceBusy)}
		}
	} else if !errors.Is(err, console.ErrNotOperator) {
		return realtime.Identity{}, &realtime.Transient{Err: errors.New(msgServiceBusy)}
	}
	return id, nil
}
