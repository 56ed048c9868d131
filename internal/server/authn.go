package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"salaula/internal/apierr"
	"salaula/internal/auth"
	"salaula/internal/mfa"
	"salaula/internal/ratelimit"
	"salaula/internal/seal"
	"salaula/internal/token"
)

// Errors of authenticate.
var (
	errNoToken      = apierr.New(apierr.Unauthenticated, "Missing authorization header: sign in first")
	errNotUserToken = apierr.New(apierr.Unauthenticated, "This call needs a signed-in user's token, not the anon key")
	errSessionEnded = apierr.New(apierr.Unauthenticated, "Session not found: it has ended or was signed out")
)

// errCheckingSession is authenticate's answer when the database did not say
// whether the session is active: the caller is not at fault, so it gets 503
// (msgServiceBusy), never 401 or the database's own words.
var errCheckingSession = errors.New("could not check the session")

// msgServiceBusy tells a person the fault is ours and passing.
const msgServiceBusy = "The service is busy. Please try again in a moment."

// bearerToken returns the token of an "Authorization: Bearer ..." header.
func bearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// authenticate returns the claims of the caller's access token after
// checking its signature, expiry, role and that its session is still active,
// so a signed-out session's tokens stop working at once everywhere.
func (s *Server) authenticate(ctx context.Context, r *http.Request) (*token.Claims, error) {
	raw := bearerToken(r)
	if raw == "" {
		return nil, errNoToken
	}
	claims, err := s.parseAccessToken(ctx, raw)
	if errors.Is(err, token.ErrClaims) && claims != nil && claims.Role != "authenticated" {
		return nil, errNotUserToken // e.g. the anon key
	}
	if err != nil {
		return nil, err
	}
	if claims.Role != "authenticated" || claims.Subject == "" || claims.SessionID == "" {
		return nil, errNotUserToken
	}
	ok, err := s.db.SessionActive(ctx, claims.SessionID, claims.Subject)
	if err != nil {
		s.logger.Error("check session", "err", err)
		return nil, errCheckingSession
	}
	if !ok {
		return nil, errSessionEnded
	}
	return claims, nil
}

// newAuth builds the auth service of the server.
func (s *Server) newAuth(d Deps) (*auth.Service, error) {
	successors, err := seal.New(d.Secret, "salaula refresh-token successor")
	if err != nil {
		return nil, err
	}
	factors, err := seal.New(d.Secret, mfa.SealPurpose)
	if err != nil {
		return nil, err
	}
	return &auth.Service{
		DB: d.DB, Config: d.Config, Mailer: d.Mailer,
		Emails:         &ratelimit.Emails{DB: d.DB, Quota: ratelimit.EmailQuota{Count: d.Config.EmailRateLimit.Count, Window: d.Config.EmailRateLimit.Window}},
		CodeTries:      ratelimit.For(d.DB, "mfa-code-tries", 10, 5*time.Minute, d.Logger),
		WrongPasswords: auth.NewWrongPasswords(d.DB, d.Logger),
		Sign:           s.signToken, Issuer: s.issuer(),
		Successors: successors, Factors: factors,
		Milestone: s.countMilestone, QueueMail: d.Mailer.Enqueue,
		Logger: d.Logger, Now: d.Now,
	}, nil
}
