package server

import "net/http"

// handleGetProfileMe returns the caller's whole profile and e-mail; role is
// null until onboarding has set it (onboarding.Service.Profile). 401
// without a valid session.
func (s *Server) handleGetProfileMe() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		claims, err := s.caller(r, "")
		if err != nil {
			return err
		}
		p, err := s.profiles.Profile(r.Context(), claims.Subject, claims.Email)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, p)
		return nil
	})
}
