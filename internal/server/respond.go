package server

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"salaula/internal/apierr"
	"salaula/internal/auth"
	"salaula/internal/media"
	"salaula/internal/validate"
)

// maxJSONBody is the largest JSON request body the API reads.
const maxJSONBody = 64 << 10

// msgJSONTooLarge is the answer to a body over maxJSONBody.
const msgJSONTooLarge = "Request body is too large (at most 64 KiB)"

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
// too large, 400 for malformed JSON or a body that is not one object; and a
// text the body holds that validate.Text refuses (a NUL byte, a control
// character, a new line in a one-line field) is an Invalid *apierr.Error
// naming the field (textError). A body whose Content-Length is over the
// limit is refused before any of it is read, so a client waiting for
// "100 Continue" gets the 413 instead.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return &requestError{http.StatusUnsupportedMediaType, "Content-Type must be application/json"}
		}
	}
	if r.ContentLength > maxJSONBody {
		return &requestError{http.StatusRequestEntityTooLarge, msgJSONTooLarge}
	}
	body := http.MaxBytesReader(w, r.Body, maxJSONBody)
	dec := json.NewDecoder(body)
	if err := dec.Decode(v); err != nil {
		var tooLarge *http.MaxBytesError
		var syntax *json.SyntaxError
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &tooLarge):
			return &requestError{http.StatusRequestEntityTooLarge, msgJSONTooLarge}
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
			return &requestError{http.StatusRequestEntityTooLarge, msgJSONTooLarge}
		}
		return &requestError{http.StatusBadRequest, "Request body must hold a single JSON object"}
	}
	if e := validate.RequestText(v); e != nil {
		return textError(e)
	}
	return nil
}

// textError is the Invalid error of a request text validate.Text refuses:
// the sentence names the field, the field's message is Text's.
func textError(e *validate.TextError) *apierr.Error {
	return apierr.Fields(e.Sentence(), map[string]string{e.Field: e.Message})
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

// plainURLs refuses an API request whose path or query holds a text that
// validate.Text refuses (a NUL byte, a control character, bytes that are
// not UTF-8: %00 in a factor's id, ?program=%00 on the console), before any
// handler reads it, answered 400 in the family's own shape (renderTextError)
// and naming the path's wildcard (as routes.go names it) or the parameter.
// A plain path and query (printable ASCII, escapes of printable bytes) is
// passed on without parsing.
func (s *Server) plainURLs(mux *http.ServeMux, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if family(r.URL.Path) != "" {
			if e := urlText(mux, r); e != nil {
				s.renderTextError(w, r, e)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// family is the API family of a path ("auth", "functions", "storage",
// "admin", "analytics", "realtime"), or "" for the app's pages.
func family(p string) string {
	for _, f := range []string{"auth", "functions", "storage", "admin", "analytics", "realtime"} {
		if rest, ok := strings.CutPrefix(p, "/"+f+"/v1"); ok && (rest == "" || rest[0] == '/') {
			return f
		}
	}
	return ""
}

// urlText returns the first text of r's path or query that validate.Text
// refuses, or nil.
func urlText(mux *http.ServeMux, r *http.Request) *validate.TextError {
	if msg := validate.Text(r.URL.Path, false); msg != "" {
		segs := strings.Split(r.URL.Path, "/")
		for i, seg := range segs {
			if msg := validate.Text(seg, false); msg != "" {
				return &validate.TextError{Field: wildcardAt(mux, r, i), Message: msg}
			}
		}
		return &validate.TextError{Field: "path", Message: msg}
	}
	if !escapesText(r.URL.RawQuery) {
		return nil
	}
	q, _ := url.ParseQuery(r.URL.RawQuery) // a malformed pair is the handler's to refuse
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if msg := validate.Text(name, false); msg != "" {
			return &validate.TextError{Field: "query", Message: msg}
		}
		for _, v := range q[name] {
			if msg := validate.Text(v, false); msg != "" {
				return &validate.TextError{Field: name, Message: msg}
			}
		}
	}
	return nil
}

// escapesText reports whether a raw query may hold a byte validate.Text
// looks at: one outside printable ASCII, as it is or %-escaped.
func escapesText(raw string) bool {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '%' && i+2 < len(raw) {
			c = unhex(raw[i+1])<<4 | unhex(raw[i+2])
		}
		if c < 0x20 || c >= 0x7f {
			return true
		}
	}
	return false
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// wildcardAt is the name routes.go gives the i-th segment of r's path
// ("id" in /auth/v1/factors/{id}/challenge; the last {name...} for the
// segments it takes), or "path" when it is no wildcard.
func wildcardAt(mux *http.ServeMux, r *http.Request, i int) string {
	_, pattern := mux.Handler(r)
	if j := strings.IndexByte(pattern, '/'); j >= 0 {
		pattern = pattern[j:]
	}
	segs := strings.Split(pattern, "/")
	for k, seg := range segs {
		name, ok := strings.CutPrefix(seg, "{")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, "}")
		if rest, ok := strings.CutSuffix(name, "..."); ok && i >= k {
			return rest
		}
		if k == i {
			return name
		}
	}
	return "path"
}

// renderTextError answers a request text validate.Text refuses in the
// shape of its API family: 400 with the sentence naming the field (auth:
// validation_failed; functions and analytics: with the field's message in
// "fields"; storage: InvalidKey for an object's path, else InvalidRequest).
func (s *Server) renderTextError(w http.ResponseWriter, r *http.Request, e *validate.TextError) {
	err := textError(e)
	switch family(r.URL.Path) {
	case "auth":
		s.renderAuthError(w, "text", &auth.Error{Code: auth.CodeBadText, Detail: err.Message})
	case "storage":
		if e.Field == "path" || e.Field == "bucket" {
			err.Code = media.CodeInvalidKey
		}
		s.renderStorageError(w, "text", err)
	case "admin":
		s.renderAdminError(w, "text", err)
	case "realtime":
		writeRealtimeError(w, http.StatusBadRequest, err.Message)
	default:
		s.renderFunctionError(w, r, err)
	}
}
