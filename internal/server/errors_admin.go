package server

import (
	"net/http"
)

// The admin family (/admin/v1, the founders' console) answers every error
// as {"error": "<message>"}, with "error_code" where the console tells
// cases apart (insufficient_aal: console.ErrNoVerifiedFactor,
// console.ErrInsufficientAAL).

// msgAdminSessionBroken answers a console call whose token is not valid.
const msgAdminSessionBroken = "Your session has expired or is not valid: sign in again"

// adminError is the body of every failed console call.
type adminError struct {
	Error     string `json:"error"`
	ErrorCode string `json:"error_code,omitempty"`
}

// renderAdminError answers err in the console's shape: typed errors with
// their kind's status (bad input 400, an unknown id 404, not an operator or
// two-step sign-in missing 403), anything else a 500 "service busy" logged
// as what.
func (s *Server) renderAdminError(w http.ResponseWriter, what string, err error) {
	e, status := s.typedError("admin: "+what, err, msgServiceBusy)
	writeJSON(w, status, adminError{Error: e.Message, ErrorCode: e.Code})
}
