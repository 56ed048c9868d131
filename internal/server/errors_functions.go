package server

import (
	"net/http"
	"strconv"
	"strings"

	"salaula/internal/apierr"
	"salaula/internal/ratelimit"
)

// The functions family (/functions/v1) answers every error as
// {"error": "<message>", "fields": {"<field>": "<message>"}}, with
// "error_code" where a client must tell the case apart (insufficient_aal:
// do two-step sign-in, then try again); its status is statusOf(kind).

// msgSomethingWrong is a function's answer to an error of ours with no
// message of its own.
const msgSomethingWrong = "Something went wrong on our side. Please try again."

// functionError is the body of every failed function call.
type functionError struct {
	Error     string            `json:"error"`
	ErrorCode string            `json:"error_code,omitempty"`
	Fields    map[string]string `json:"fields,omitempty"`
}

// writeFunctionError writes a function's error body with status.
func writeFunctionError(w http.ResponseWriter, status int, msg string, fields map[string]string) {
	writeJSON(w, status, functionError{Error: msg, Fields: fields})
}

// renderFunctionError answers err in the functions' shape: typed errors
// with their kind's status (429 with Retry-After: the error's wait, else 60 s), decodeJSON's with
// theirs, anything else as a logged 500.
func (s *Server) renderFunctionError(w http.ResponseWriter, r *http.Request, err error) {
	e, status := s.typedError(r.Method+" "+r.URL.Path, err, msgSomethingWrong)
	if e.Kind == apierr.TooMany && w.Header().Get("Retry-After") == "" {
		retry := "60"
		if e.RetryAfter > 0 {
			retry = strconv.Itoa(ratelimit.Seconds(e.RetryAfter))
		}
		w.Header().Set("Retry-After", retry)
	}
	writeJSON(w, status, functionError{Error: e.Message, ErrorCode: e.Code, Fields: e.Fields})
}

// function serves h as a function: its error is rendered by
// renderFunctionError.
func (s *Server) function(h apiHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.renderFunctionError(w, r, err)
		}
	})
}

// handleFunctionNotFound answers a path under /functions/v1/ that no route
// takes: 405 with Allow for a function that exists but does not take the
// method (the methods routes.go gives it), else handleAPINotFound's 404.
func (s *Server) handleFunctionNotFound(mux *http.ServeMux) http.Handler {
	notFound := s.handleAPINotFound()
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			probe := &http.Request{Method: m, URL: r.URL, Host: r.Host}
			if _, pattern := mux.Handler(probe); pattern != "" && !strings.HasSuffix(pattern, "/functions/v1/") {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			notFound.ServeHTTP(w, r)
			return nil
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		name := strings.TrimPrefix(r.URL.Path, "/functions/v1/")
		return apierr.New(apierr.MethodNotAllowed, name+" takes "+strings.Join(allow, " or ")+", not "+r.Method)
	})
}
