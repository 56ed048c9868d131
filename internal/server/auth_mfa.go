package server

import "net/http"

// The two-step sign-in handlers: each calls one auth.Service method.

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
		if !s.decodeAuth(w, r, &body) {
			return
		}
		e, err := s.auth.Enroll(r.Context(), claims, u, body.FactorType, body.FriendlyName, body.Issuer)
		if err != nil {
			s.renderAuthError(w, "enroll factor", err)
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
			if !s.decodeAuth(w, r, &body) {
				return
			}
		}
		id, exp, err := s.auth.Challenge(r.Context(), u, r.PathValue("id"), s.clientIP(r))
		if err != nil {
			s.renderAuthError(w, "challenge factor", err)
			return
		}
		writeAuthJSON(w, http.StatusOK, map[string]any{"id": id, "type": "totp", "expires_at": exp.Unix()})
	})
}

// handleVerifyFactor checks a code against a challenge; when right, the
// session is raised to aal2 and answered with fresh tokens.
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
		if !s.decodeAuth(w, r, &body) {
			return
		}
		sess, err := s.auth.VerifyFactor(r.Context(), claims, u, r.PathValue("id"), body.ChallengeID, body.Code)
		s.answerSession(w, "verify factor", sess, err)
	})
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
		if err := s.auth.Unenroll(r.Context(), claims, u, id); err != nil {
			s.renderAuthError(w, "unenroll factor", err)
			return
		}
		writeAuthJSON(w, http.StatusOK, map[string]string{"id": id})
	})
}
