package server

import (
	"errors"
	"net/http"

	"salaula/internal/apierr"
	"salaula/internal/token"
	"salaula/internal/validate"
)

// Messages of the functions when the caller has no session (spec section 6).
const (
	msgProfileNoSession = "Could not get user session. Please log in again."
	msgSellerNoSession  = "You must be logged in."
)

// caller returns the claims of a function's signed-in caller, or its
// error: Unavailable when the session could not be checked, else
// Unauthenticated with noSession (or, when it is "", what was wrong with
// the token).
func (s *Server) caller(r *http.Request, noSession string) (*token.Claims, error) {
	claims, err := s.authenticate(r.Context(), r)
	if errors.Is(err, errCheckingSession) {
		return nil, apierr.New(apierr.Unavailable, msgServiceBusy)
	}
	if err != nil {
		if noSession == "" {
			noSession = messageOf(err)
		}
		return nil, apierr.New(apierr.Unauthenticated, noSession)
	}
	return claims, nil
}

// handleOnboardNewUser saves the buyer (style) half of the caller's profile
// from the onboarding payload (spec call 9; onboarding.Service.SaveBuyer).
func (s *Server) handleOnboardNewUser() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		claims, err := s.caller(r, msgProfileNoSession)
		if err != nil {
			return err
		}
		var in validate.ProfileInput
		if err := decodeJSON(w, r, &in); err != nil {
			return err
		}
		saved, err := s.profiles.SaveBuyer(r.Context(), claims.Subject, in)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, saved)
		return nil
	})
}

// handleOnboardSeller saves the seller (business) half of the caller's
// profile from the seller payload (spec call 10; onboarding.Service.SaveSeller).
func (s *Server) handleOnboardSeller() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		claims, err := s.caller(r, msgSellerNoSession)
		if err != nil {
			return err
		}
		var in validate.SellerInput
		if err := decodeJSON(w, r, &in); err != nil {
			return err
		}
		saved, err := s.profiles.SaveSeller(r.Context(), claims.Subject, in)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, saved)
		return nil
	})
}
