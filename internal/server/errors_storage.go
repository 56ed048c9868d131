package server

import (
	"net/http"
	"strconv"

	"salaula/internal/apierr"
	"salaula/internal/media"
)

// The storage family (/storage/v1) answers every error as the hosted
// storage service does: {"statusCode": "404", "code": "NoSuchKey",
// "error": "not_found", "message": "..."}. Its names (the "error") are
// media.Code*, its "code" media.HostedCode (left out when it has none),
// its status statusOf(kind); storage-js's exists() reads code NoSuchKey
// as "no such file".

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

// renderStorageError answers err in the storage shape, logging it as what
// when it is the server's fault.
func (s *Server) renderStorageError(w http.ResponseWriter, what string, err error) {
	e, status := s.typedError(what, err, "Something went wrong on our side. Please try again.")
	name := e.Code
	if name == "" {
		name = storageCodeOf(e.Kind, status)
	}
	body := map[string]string{"statusCode": strconv.Itoa(status), "error": name, "message": e.Message}
	if code := media.HostedCode(e.Kind, name); code != "" {
		body["code"] = code
	}
	writeJSON(w, status, body)
}

// storageAPI serves h as a storage route: its error is rendered by
// renderStorageError.
func (s *Server) storageAPI(h apiHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.renderStorageError(w, r.Method+" "+r.URL.Path, err)
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
