package server

import (
	"net/http"

	"salaula/internal/account"
	"salaula/internal/apierr"
	"salaula/internal/token"
)

// The account functions (internal/account): a person's own data as a whole.

// msgAccountNoSession is the account functions' 401 without a session.
const msgAccountNoSession = "You must be logged in."

// callerOf is the account functions' caller from their access token.
func callerOf(claims *token.Claims) account.Caller {
	return account.Caller{UserID: claims.Subject, SessionID: claims.SessionID, AAL: claims.AAL}
}

// handleAccountAddress answers the caller's e-mail address, whether the
// account proved it and, once it did, the waitlist sign-ups and contact
// messages sent with it (account.Rules.AddressOf).
func (s *Server) handleAccountAddress() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		claims, err := s.caller(r, msgAccountNoSession)
		if err != nil {
			return err
		}
		a, err := s.account.AddressOf(r.Context(), claims.Subject)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, a)
		return nil
	})
}

// handleSendProof e-mails the caller's address a link that proves it
// (account.Rules.SendProof): 200 with the address, 409 when it is proven,
// 429 when the address had its share of e-mails lately.
func (s *Server) handleSendProof() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		claims, err := s.caller(r, msgAccountNoSession)
		if err != nil {
			return err
		}
		email, err := s.account.SendProof(r.Context(), callerOf(claims))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{"email": email,
			"message": "We have sent a link to " + email + ". Open it within one hour, signed in to this account, and press \"Prove this address\"."})
		return nil
	})
}

// handleProveAddress proves the caller's address with the token of the
// link e-mailed to it ({"token_hash": "..."}; account.Rules.ProveAddress)
// and answers account.Address, now with its rows: 400 without a token, 403
// for a token that is used, expired or another account's (nothing changes).
func (s *Server) handleProveAddress() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		claims, err := s.caller(r, msgAccountNoSession)
		if err != nil {
			return err
		}
		var body struct {
			TokenHash string `json:"token_hash"`
		}
		if err := decodeJSON(w, r, &body); err != nil {
			return err
		}
		if err := s.account.ProveAddress(r.Context(), callerOf(claims), body.TokenHash); err != nil {
			return err
		}
		a, err := s.account.AddressOf(r.Context(), claims.Subject)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, a)
		return nil
	})
}

// handleAccountExport answers one JSON document (as a download) of
// everything held about the caller (account.Rules.ExportOwn).
func (s *Server) handleAccountExport() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		claims, err := s.caller(r, msgAccountNoSession)
		if err != nil {
			return err
		}
		x, err := s.account.ExportOwn(r.Context(), callerOf(claims), s.publicURL(r))
		if err != nil {
			return apierr.Or(err, "Could not collect your data. Please try again.")
		}
		name := "salaula-my-data-" + x.ExportedAt.Format("2006-01-02") + ".json"
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		writeJSON(w, http.StatusOK, x)
		return nil
	})
}

// handleAccountDelete deletes the caller's account and everything held
// about it when the body's password is the account's
// (account.Rules.DeleteOwn): 400 without one, 401 for a wrong one (nothing
// changes).
func (s *Server) handleAccountDelete() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		claims, err := s.caller(r, msgAccountNoSession)
		if err != nil {
			return err
		}
		var body struct {
			Password string `json:"password" text:"-"` // only checked against its hash
		}
		if err := decodeJSON(w, r, &body); err != nil {
			return err
		}
		d, err := s.account.DeleteOwn(r.Context(), callerOf(claims), body.Password)
		if err != nil && d == nil {
			return apierr.Or(err, "Could not delete your account. Please try again.")
		}
		if err != nil {
			// The account is gone; a file left behind is the operators' to remove.
			s.logger.Error("delete account", "err", err)
		}
		writeJSON(w, http.StatusOK, map[string]any{"message": "Your account has been deleted.", "deleted": d})
		return nil
	})
}

// limitAuthFunction counts a function's attempts with sign-in attempts (one
// per-IP limit for guessing passwords and links: account-delete's password
// checks, account-prove-email's links and their proofs), answering as a
// function.
func (s *Server) limitAuthFunction(next http.Handler) http.Handler {
	return s.limit(s.authLimiter, func(w http.ResponseWriter) {
		writeFunctionError(w, http.StatusTooManyRequests, "Too many attempts. Please wait a few minutes and try again.", nil)
	}, next)
}
