package server

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
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

// mustJSON encodes a constant answer once, at start-up.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// writeRawJSON writes an answer already encoded by mustJSON.
func writeRawJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
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

// functionError is the body of every failed function call:
// {"error": "<message>", "fields": {"<field>": "<spec message>"}}.
type functionError struct {
	Error  string            `json:"error"`
	Fields map[string]string `json:"fields,omitempty"`
}

// writeFunctionError answers a failed function call.
func writeFunctionError(w http.ResponseWriter, status int, msg string, fields map[string]string) {
	writeJSON(w, status, functionError{Error: msg, Fields: fields})
}

// writeRequestError answers err from decodeJSON (or any other error as 400).
func writeRequestError(w http.ResponseWriter, err error) {
	var re *requestError
	if errors.As(err, &re) {
		writeFunctionError(w, re.Status, re.Message, nil)
		return
	}
	writeFunctionError(w, http.StatusBadRequest, err.Error(), nil)
}

// handleAPINotFound answers unknown API paths with JSON, never the app's HTML.
func (s *Server) handleAPINotFound() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]any{"code": 404, "error_code": "not_found", "msg": "No API route for " + r.Method + " " + r.URL.Path, "error": "Not found"})
	})
}
