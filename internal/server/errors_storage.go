package server

import (
	"net/http"
	"strconv"

	"salaula/internal/apierr"
	"salaula/internal/media"
)

// The storage family (/storage/v1) answers every error as the hosted
// storage service does: {"statusCode": "404", "error": "not_found",
// "message": "..."}. Its codes (the "error") are media.Code*; its status
// is statusOf(kind).

// writeStorageFailure writes a storage error body with status.
func writeStorageFailure(w http.ResponseWriter, status int, name, msg string) {
	writeJSON(w, status, map[string]string{"statusCode": strconv.Itoa(status), "error": name, "message": msg})
}

// storageCodeOf is the storage name of an error of kind k with no code of its own.
func storageCodeOf(k apierr.Kind, status int) string {
	switch k {
	case apierr.Internal:
		return media.CodeInternal
	case apierr.Unavailable:
		return media.CodeUnavailable
	case apierr.NotFound:
		return media.CodeNotFound
	default:
		return http.StatusText(status)
	}
}

// renderStorageError answers err in the storage shape.
func (s *Server) renderStorageError(w http.ResponseWriter, r *http.Request, err error) {
	e, status := s.typedError(r.Method+" "+r.URL.Path, err, "Something went wrong on our side. Please try again.")
	code := e.Code
	if code == "" {
		code = storageCodeOf(e.Kind, status)
	}
	writeStorageFailure(w, status, code, e.Message)
}

// storageAPI serves h as a storage route: its error is rendered by
// renderStorageError.
func (s *Server) storageAPI(h apiHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.renderStorageError(w, r, err)
		}
	})
}

// handleStorageNotFound answers unknown storage routes in storage's shape
// (404 not_found), so storage-js reads them as storage answers.
func (s *Server) handleStorageNotFound() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		return apierr.Coded(apierr.NotFound, media.CodeNotFound, "No storage route for "+r.Method+" "+r.URL.Path)
	})
}
