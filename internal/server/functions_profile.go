package server

import (
	"errors"
	"net/http"

	"salaula/internal/store"
)

// profileMe is the answer of get-profile-me: the whole profile and the
// account's e-mail.
type profileMe struct {
	*store.Profile
	Email string `json:"email"`
}

// handleGetProfileMe returns the caller's whole profile; role is null until
// onboarding has set it. 401 without a valid session.
func (s *Server) handleGetProfileMe() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims, err := s.authenticate(r.Context(), r)
		if errors.Is(err, errCheckingSession) {
			writeFunctionError(w, http.StatusServiceUnavailable, msgServiceBusy, nil)
			return
		}
		if err != nil {
			writeFunctionError(w, http.StatusUnauthorized, err.Error(), nil)
			return
		}
		p, err := s.db.ProfileByUser(r.Context(), claims.Subject)
		if errors.Is(err, store.ErrNotFound) {
			writeJSON(w, http.StatusOK, map[string]any{"user_id": claims.Subject, "email": claims.Email, "role": nil})
			return
		}
		if err != nil {
			s.logger.Error("get profile", "err", err)
			writeFunctionError(w, http.StatusInternalServerError, "Could not read your profile. Please try again.", nil)
			return
		}
		writeJSON(w, http.StatusOK, profileMe{Profile: p, Email: claims.Email})
	})
}
