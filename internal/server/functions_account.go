package server

import (
	"errors"
	"net/http"
	"strings"

	"salaula/internal/account"
)

// Messages of the account functions.
const (
	msgAccountNoSession = "You must be logged in."
	msgPasswordNeeded   = "Please enter your password to delete your account"
	msgAccountDeleted   = "Your account has been deleted."
)

// handleAccountExport answers one JSON document (as a download) of
// everything held about the caller.
func (s *Server) handleAccountExport() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims := s.onboardingCaller(w, r, msgAccountNoSession)
		if claims == nil {
			return
		}
		x, err := s.account.ExportOwn(r.Context(), claims.Subject, claims.SessionID, s.publicURL(r))
		if errors.Is(err, account.ErrNoAccount) {
			writeFunctionError(w, http.StatusUnauthorized, msgAccountNoSession, nil)
			return
		}
		if err != nil {
			s.logger.Error("export account", "err", err)
			writeFunctionError(w, http.StatusInternalServerError, "Could not collect your data. Please try again.", nil)
			return
		}
		name := "salaula-my-data-" + x.ExportedAt.Format("2006-01-02") + ".json"
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		writeJSON(w, http.StatusOK, x)
	})
}

// handleAccountDelete deletes the caller's account and everything held
// about it when the body's password is the account's: 400 without one, 401
// for a wrong one (nothing changes).
func (s *Server) handleAccountDelete() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims := s.onboardingCaller(w, r, msgAccountNoSession)
		if claims == nil {
			return
		}
		var body struct {
			Password *string `json:"password"`
		}
		if err := decodeJSON(w, r, &body); err != nil {
			writeRequestError(w, err)
			return
		}
		if body.Password == nil || strings.TrimSpace(*body.Password) == "" {
			writeFunctionError(w, http.StatusBadRequest, msgPasswordNeeded, map[string]string{"password": msgPasswordNeeded})
			return
		}
		d, err := s.account.DeleteOwn(r.Context(), claims.Subject, *body.Password)
		switch {
		case errors.Is(err, account.ErrWrongPassword):
			writeFunctionError(w, http.StatusUnauthorized, err.Error(), map[string]string{"password": err.Error()})
			return
		case errors.Is(err, account.ErrNoAccount):
			writeFunctionError(w, http.StatusUnauthorized, msgAccountNoSession, nil)
			return
		case err != nil && d == nil:
			s.logger.Error("delete account", "err", err)
			writeFunctionError(w, http.StatusInternalServerError, "Could not delete your account. Please try again.", nil)
			return
		case err != nil:
			// The account is gone; a file left behind is the operators' to remove.
			s.logger.Error("delete account", "err", err)
		}
		writeJSON(w, http.StatusOK, map[string]any{"message": msgAccountDeleted, "deleted": d})
	})
}

// limitPasswordChecks counts account-delete's password checks with sign-in
// attempts (one per-IP limit for guessing passwords), answering as a function.
func (s *Server) limitPasswordChecks(next http.Handler) http.Handler {
	return s.limit("auth", s.authLimiter, func(w http.ResponseWriter) {
		writeFunctionError(w, http.StatusTooManyRequests, "Too many attempts. Please wait a few minutes and try again.", nil)
	}, next)
}
