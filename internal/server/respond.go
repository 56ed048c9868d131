package server

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"salaula/internal/apierr"
)

// maxJSONBody is the largest JSON request body the API reads.
const maxJSONBody = 64 << 10

// writeJSON writes v as a JSON answer with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// requestError is a client mistake in a request, with the status to answer.
type requestError struct {
	Status  int
	Message string
}

func (e *requestError) Error() string { return e.Message }

// decodeJSON reads a JSON object body of at most maxJSONBody bytes into v.
// Its errors are *requestError: 415 for another content type, 413 for a body
// too large, 400 for malformed JSON or a body that is not one object.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return &requestError{http.StatusUnsupportedMediaType, "Content-Type must be application/json"}
		}
	}
	body := http.MaxBytesReader(w, r.Body, maxJSONBody)
	dec := json.NewDecoder(body)
	if err := dec.Decode(v); err != nil {
		var tooLarge *http.MaxBytesError
		var syntax *json.SyntaxError
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &tooLarge):
			return &requestError{http.StatusRequestEntityTooLarge, "Request body is too large (at most 64 KiB)"}
		case errors.Is(err, io.EOF):
			return &requestError{http.StatusBadRequest, "Request body is empty: send a JSON object"}
		case errors.As(err, &typeErr):
			field := typeErr.Field
			if field == "" {
				return &requestError{http.StatusBadRequest, "Request body must be a JSON object"}
			}
			return &requestError{http.StatusBadRequest, "Field " + field + " has the wrong type"}
		case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF):
			return &requestError{http.StatusBadRequest, "Request body is not valid JSON"}
		default:
			return &requestError{http.StatusBadRequest, "Request body is not valid JSON"}
		}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &requestError{http.StatusRequestEntityTooLarge, "Request body is too large (at most 64 KiB)"}
		}
		return &requestError{http.StatusBadRequest, "Request body must hold a single JSON object"}
	}
	return nil
}

// handleAPINotFound answers unknown API paths with JSON, never the app's
// HTML (the auth API's shape; storage and functions have their own).
func (s *Server) handleAPINotFound() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]any{"code": 404, "error_code": "not_found", "msg": "No API route for " + r.Method + " " + r.URL.Path, "error": "Not found"})
	})
}

// messageOf is the sentence to show for err: a typed error's message, or
// the error's own text.
func messageOf(err error) string {
	if e := apierr.As(err); e != nil {
		return e.Message
	}
	return err.Error()
}

// apiHandler is a handler that returns its error instead of writing it; a
// family's adapter (function, storageAPI, adminAPI) renders the error in
// that family's wire shape.
type apiHandler func(w http.ResponseWriter, r *http.Request) error

// statusOf is the HTTP status of an error of kind k, for every API family.
func statusOf(k apierr.Kind) int {
	switch k {
	case apierr.Invalid:
		return http.StatusBadRequest
	case apierr.Unauthenticated:
		return http.StatusUnauthorized
	case apierr.Forbidden:
		return http.StatusForbidden
	case apierr.NotFound:
		return http.StatusNotFound
	case apierr.MethodNotAllowed:
		return http.StatusMethodNotAllowed
	case apierr.Conflict:
		return http.StatusConflict
	case apierr.TooLarge:
		return http.StatusRequestEntityTooLarge
	case apierr.UnsupportedType:
		return http.StatusUnsupportedMediaType
	case apierr.TooMany:
		return http.StatusTooManyRequests
	case apierr.Unavailable:
		return http.StatusServiceUnavailable
	case apierr.NotOffered:
		return http.StatusNotImplemented
	default:
		return http.StatusInternalServerError
	}
}

// typedError returns err as an *apierr.Error and its status: a decodeJSON
// mistake keeps its status and message, anything untyped is Internal with
// fallback as its message. It logs, as what, errors that are the server's
// fault.
func (s *Server) typedError(what string, err error, fallback string) (*apierr.Error, int) {
	var re *requestError
	if errors.As(err, &re) {
		return &apierr.Error{Kind: apierr.Invalid, Message: re.Message}, re.Status
	}
	e := apierr.As(err)
	if e == nil {
		e = apierr.Wrap(err, fallback)
	}
	if e.Message == "" {
		c := *e // never change a shared error value
		c.Message = fallback
		e = &c
	}
	if e.Kind == apierr.Internal || e.Kind == apierr.Unavailable && e.Err != nil {
		s.logger.Error(what, "err", e)
	}
	return e, statusOf(e.Kind)
}
