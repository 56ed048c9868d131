package server

import (
	"errors"
	"net/http"

	"salaula/internal/analytics"
	"salaula/internal/apierr"
	"salaula/internal/console"
	"salaula/internal/mfa"
	"salaula/internal/settings"
)

// The admin family (/admin/v1, the founders' console) answers every error
// as {"error": "<message>"}, with "error_code" where the console tells
// cases apart.

// Codes of the admin family.
const (
	// adminInsufficientAAL: an operator without a verified factor or with a
	// password-only session (the auth API's code for it).
	adminInsufficientAAL = "insufficient_aal"
)

// Messages of the admin family.
const (
	msgAdminNoRecord      = "No record has this id"
	msgAdminSessionBroken = "Your session has expired or is not valid: sign in again"
	msgInsufficientAAL    = "AAL2 required: verify your two-step sign-in code first"
	msgNoVerifiedFactor   = "Two-step sign-in is required: enrol an authenticator app first"
)

// adminError is the body of every failed console call.
type adminError struct {
	Error     string `json:"error"`
	ErrorCode string `json:"error_code,omitempty"`
}

// renderAdminError answers err in the console's shape: the rules' bad
// input 400, an unknown id 404, not an operator 403, two-step sign-in
// missing 403 insufficient_aal, typed errors with their kind's status,
// anything else a 500 "service busy" logged as what.
func (s *Server) renderAdminError(w http.ResponseWriter, what string, err error) {
	var cBad *console.BadInput
	var sBad *settings.BadInput
	var aBad *analytics.BadInput
	switch {
	case errors.As(err, &cBad):
		err = apierr.New(apierr.Invalid, cBad.Message)
	case errors.As(err, &sBad):
		err = apierr.New(apierr.Invalid, sBad.Message)
	case errors.As(err, &aBad):
		err = apierr.New(apierr.Invalid, aBad.Message)
	case errors.Is(err, console.ErrNotFound):
		err = apierr.New(apierr.NotFound, msgAdminNoRecord)
	case errors.Is(err, console.ErrNotOperator):
		err = apierr.New(apierr.Forbidden, msgNotOperator)
	case errors.Is(err, mfa.ErrNoVerifiedFactor):
		err = apierr.Coded(apierr.Forbidden, adminInsufficientAAL, msgNoVerifiedFactor)
	case errors.Is(err, mfa.ErrInsufficientAAL):
		err = apierr.Coded(apierr.Forbidden, adminInsufficientAAL, msgInsufficientAAL)
	}
	e, status := s.typedError("admin: "+what, err, msgServiceBusy)
	writeJSON(w, status, adminError{Error: e.Message, ErrorCode: e.Code})
}
