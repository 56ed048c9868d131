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
	msgAlreadyProven    = "Your e-mail address is already proven."
	msgTooManyEmails    = "We have sent several e-mails to this address in a short time. Please wait a few minutes and ask again."
	msgProofLinkNeeded  = "This link is incomplete. Open the link in the e-mail again, or ask for a new one from My account."
	msgProofLinkInvalid = "This link has expired, has already been used, or was sent for another account. " +
		"Sign in with the account it was sent for, or ask for a new link from My account."
)

// handleAccountAddress answers the caller's e-mail address, whether the
// account proved it and, once it did, the waitlist sign-ups and contact
// messages sent with it (account.Address).
func (s *Server) handleAccountAddress() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims := s.onboardingCaller(w, r, msgAccountNoSession)
		if claims == nil {
			return
		}
		a, err := s.account.AddressOf(r.Context(), claims.Subject)
		if s.accountFailed(w, "read the address's rows", err) {
			return
		}
		writeJSON(w, http.StatusOK, a)
	})
}

// handleSendProof e-mails the caller's address a link that proves it
// (account.SendProof): 200 with the address, 409 when it is proven, 429
// when the address had its share of e-mails lately.
func (s *Server) handleSendProof() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims := s.onboardingCaller(w, r, msgAccountNoSession)
		if claims == nil {
			return
		}
		email, err := s.account.SendProof(r.Context(), claims.Subject)
		switch {
		case errors.Is(err, account.ErrAlreadyProven):
			writeFunctionError(w, http.StatusConflict, msgAlreadyProven, nil)
		case errors.Is(err, account.ErrTooManyEmails):
			w.Header().Set("Retry-After", "60")
			writeFunctionError(w, http.StatusTooManyRequests, msgTooManyEmails, nil)
		case s.accountFailed(w, "send the proof link", err):
		default:
			writeJSON(w, http.StatusOK, map[string]any{"email": email,
				"message": "We have sent a link to " + email + ". Open it within one hour, signed in to this account, and press \"Prove this address\"."})
		}
	})
}

// handleProveAddress proves the caller's address with the token of the
// link e-mailed to it ({"token_hash": "..."}) and answers account.Address,
// now with its rows: 400 without a token, 403 for a token that is used,
// expired or another account's (nothing changes).
func (s *Server) handleProveAddress() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims := s.onboardingCaller(w, r, msgAccountNoSession)
		if claims == nil {
			return
		}
		var body struct {
			TokenHash *string `json:"token_hash"`
		}
		if err := decodeJSON(w, r, &body); err != nil {
			writeRequestError(w, err)
			return
		}
		if body.TokenHash == nil || strings.TrimSpace(*body.TokenHash) == "" {
			writeFunctionError(w, http.StatusBadRequest, msgProofLinkNeeded, nil)
			return
		}
		err := s.account.ProveAddress(r.Context(), claims.Subject, *body.TokenHash)
		if errors.Is(err, account.ErrLinkInvalid) {
			writeFunctionError(w, http.StatusForbidden, msgProofLinkInvalid, nil)
			return
		}
		if s.accountFailed(w, "prove the address", err) {
			return
		}
		a, err := s.account.AddressOf(r.Context(), claims.Subject)
		if s.accountFailed(w, "read the address's rows", err) {
			return
		}
		writeJSON(w, http.StatusOK, a)
	})
}

// accountFailed answers an error of the account rules (401 for an account
// that is gone, else 500, logged as what) and reports whether there was one.
func (s *Server) accountFailed(w http.ResponseWriter, what string, err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, account.ErrNoAccount):
		writeFunctionError(w, http.StatusUnauthorized, msgAccountNoSession, nil)
	default:
		s.logger.Error(what, "err", err)
		writeFunctionError(w, http.StatusInternalServerError, "Something went wrong on our side. Please try again.", nil)
	}
	return true
}

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

// limitAuthFunction counts a function's attempts with sign-in attempts (one
// per-IP limit for guessing passwords and links: account-delete's password
// checks, account-prove-email's links and their proofs), answering as a
// function.
func (s *Server) limitAuthFunction(next http.Handler) http.Handler {
	return s.limit("auth", s.authLimiter, func(w http.ResponseWriter) {
		writeFunctionError(w, http.StatusTooManyRequests, "Too many attempts. Please wait a few minutes and try again.", nil)
	}, next)
}
