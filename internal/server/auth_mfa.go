package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"salaula/internal/mail"
	"salaula/internal/mfa"
	"salaula/internal/store"
	"salaula/internal/token"
)

// mfaError answers a rule's error as the hosted service does, or 500.
func (s *Server) mfaError(w http.ResponseWriter, err error) {
	var locked *mfa.LockedError
	switch {
	case errors.As(err, &locked):
		wait := max(locked.Until.Sub(s.now()), time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
		writeAuthError(w, http.StatusTooManyRequests, "over_request_rate_limit",
			"Too many wrong codes in a row. Wait "+minutes(wait)+", then type the code your app shows.")
	case errors.Is(err, mfa.ErrFactorNotFound):
		writeAuthError(w, http.StatusNotFound, "mfa_factor_not_found", err.Error())
	case errors.Is(err, mfa.ErrChallengeGone):
		writeAuthError(w, http.StatusUnprocessableEntity, "mfa_factor_not_found", err.Error())
	case errors.Is(err, mfa.ErrChallengeExpired):
		writeAuthError(w, http.StatusUnprocessableEntity, "mfa_challenge_expired", err.Error())
	case errors.Is(err, mfa.ErrBadCode):
		writeAuthError(w, http.StatusUnprocessableEntity, "mfa_verification_failed", err.Error())
	case errors.Is(err, mfa.ErrCodeReused):
		writeAuthError(w, http.StatusUnprocessableEntity, "mfa_verification_rejected", err.Error())
	case errors.Is(err, mfa.ErrTooManyFactors):
		writeAuthError(w, http.StatusUnprocessableEntity, "too_many_enrolled_mfa_factors", err.Error())
	case errors.Is(err, mfa.ErrNameConflict):
		writeAuthError(w, http.StatusUnprocessableEntity, "mfa_factor_name_conflict", err.Error())
	case errors.Is(err, mfa.ErrNameTooLong):
		writeAuthError(w, http.StatusBadRequest, "validation_failed", err.Error())
	case errors.Is(err, mfa.ErrInsufficientAAL), errors.Is(err, mfa.ErrNoVerifiedFactor):
		writeAuthError(w, http.StatusForbidden, "insufficient_aal", err.Error())
	default:
		s.fail(w, "mfa", err)
	}
}

// handleEnrollFactor adds an unverified TOTP factor and answers its secret,
// otpauth URI and QR code (SVG; supabase-js makes it a data URI).
func (s *Server) handleEnrollFactor() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims, u, ok := s.currentUser(w, r)
		if !ok {
			return
		}
		var body struct {
			FactorType   string `json:"factor_type"`
			FriendlyName string `json:"friendly_name"`
			Issuer       string `json:"issuer"`
		}
		if !decodeAuth(w, r, &body) {
			return
		}
		switch body.FactorType {
		case "totp":
		case "phone":
			writeAuthError(w, http.StatusUnprocessableEntity, "mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone: use an authenticator app (totp)")
			return
		case "webauthn":
			writeAuthError(w, http.StatusUnprocessableEntity, "mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn: use an authenticator app (totp)")
			return
		default:
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "factor_type needs to be totp")
			return
		}
		e, err := mfa.Enroll(r.Context(), s.db, s.factors, u, claims.AAL, body.FriendlyName, body.Issuer)
		if err != nil {
			s.mfaError(w, err)
			return
		}
		writeAuthJSON(w, http.StatusOK, map[string]any{
			"id": e.Factor.ID, "type": "totp", "friendly_name": e.Factor.FriendlyName,
			"totp": map[string]string{"qr_code": e.QRSVG, "secret": e.Secret, "uri": e.URI},
		})
	})
}

// handleChallengeFactor starts a challenge of one of the caller's factors.
func (s *Server) handleChallengeFactor() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, u, ok := s.currentUser(w, r)
		if !ok {
			return
		}
		if r.ContentLength != 0 {
			var body struct {
				Channel string `json:"channel"`
			}
			if !decodeAuth(w, r, &body) {
				return
			}
		}
		id, exp, err := mfa.Challenge(r.Context(), s.db, u.ID, r.PathValue("id"), s.clientIP(r), s.now().UTC().Truncate(time.Microsecond))
		if err != nil {
			s.mfaError(w, err)
			return
		}
		writeAuthJSON(w, http.StatusOK, map[string]any{"id": id, "type": "totp", "expires_at": exp.Unix()})
	})
}

// handleVerifyFactor checks a code against a challenge; when right, the
// session is raised to aal2 and answered with fresh tokens. Attempts are
// limited per person (verifyLimiter).
func (s *Server) handleVerifyFactor() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims, u, ok := s.currentUser(w, r)
		if !ok {
			return
		}
		var body struct {
			ChallengeID string `json:"challenge_id"`
			Code        string `json:"code"`
		}
		if !decodeAuth(w, r, &body) {
			return
		}
		if strings.TrimSpace(body.ChallengeID) == "" {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "challenge_id is required")
			return
		}
		if strings.TrimSpace(body.Code) == "" {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Code needs to be non-empty")
			return
		}
		if ok, _ := s.verifyLimiter.Allow(u.ID); !ok {
			writeAuthError(w, http.StatusTooManyRequests, "over_request_rate_limit", "Too many codes tried. Please wait a few minutes and try again.")
			return
		}
		ctx := r.Context()
		err := mfa.Verify(ctx, s.db, s.factors, mfa.Attempt{UserID: u.ID, SessionID: claims.SessionID, FactorID: r.PathValue("id"),
			ChallengeID: body.ChallengeID, Code: body.Code, Now: s.now().UTC().Truncate(time.Microsecond)},
			func(ctx context.Context, tx *store.Tx) error { return s.queueMail(ctx, tx, s.wrongCodesMail(u.Email)) })
		if err != nil {
			s.mfaError(w, err)
			return
		}
		s.answerRaisedSession(w, r, u, claims)
	})
}

// wrongCodesMail tells the person at to that someone who knows their
// password is trying two-step sign-in codes.
func (s *Server) wrongCodesMail(to string) mail.Message {
	return mail.Message{
		To: to, Subject: "Someone is trying to sign in to your Salaula account", Kind: "mfa-wrong-codes",
		Body: fmt.Sprintf("Someone signed in to your Salaula account with your password, then typed %d wrong two-step sign-in codes in a row.\n\n", mfa.LockAfter) +
			"If it was you, there is nothing to do. Wait " + minutes(mfa.FirstDelay) + ", then type the code your authenticator app shows. " +
			"Each further wrong code makes the next wait longer, up to " + minutes(mfa.MaxDelay) + ".\n\n" +
			"If it was not you, someone knows your password. Without a code from your app they cannot get in, but change your password now: " +
			"on the sign-in page choose \"Forgot password?\" (" + s.cfg.PublicURL + "/sign_up?mode=login). A new password signs out every other device.\n\n" +
			"Salaula\n",
	}
}

// minutes says d, rounded up to whole minutes, in words: "1 minute",
// "4 minutes", "1 hour".
func minutes(d time.Duration) string {
	m := int((d + time.Minute - 1) / time.Minute)
	switch {
	case m == 60:
		return "1 hour"
	case m <= 1:
		return "1 minute"
	}
	return strconv.Itoa(m) + " minutes"
}

// answerRaisedSession answers new tokens of the caller's session after its
// assurance level changed: a new refresh token replaces the active one.
func (s *Server) answerRaisedSession(w http.ResponseWriter, r *http.Request, u *store.User, claims *token.Claims) {
	ctx := r.Context()
	refresh, err := newOpaqueToken()
	if err != nil {
		s.fail(w, "new token", err)
		return
	}
	sealed, err := s.seal(refresh)
	if err != nil {
		s.fail(w, "seal token", err)
		return
	}
	if err := s.db.ReplaceRefreshToken(ctx, claims.SessionID, u.ID, hashToken(refresh), sealed, store.Now()); err != nil {
		s.fail(w, "replace refresh token", err)
		return
	}
	auth, err := s.db.SessionAuthOf(ctx, claims.SessionID)
	if err != nil {
		s.fail(w, "find session", err)
		return
	}
	sess, err := s.sessionAnswer(ctx, u, claims.SessionID, auth, refresh)
	if err != nil {
		s.fail(w, "sign token", err)
		return
	}
	writeAuthJSON(w, http.StatusOK, sess)
}

// handleUnenrollFactor removes one of the caller's factors (a verified one
// only from an aal2 session).
func (s *Server) handleUnenrollFactor() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims, u, ok := s.currentUser(w, r)
		if !ok {
			return
		}
		id := r.PathValue("id")
		if err := mfa.Unenroll(r.Context(), s.db, u.ID, id, claims.AAL); err != nil {
			s.mfaError(w, err)
			return
		}
		writeAuthJSON(w, http.StatusOK, map[string]string{"id": id})
	})
}
