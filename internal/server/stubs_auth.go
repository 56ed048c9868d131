package server

import "net/http"

// notImplemented answers 501 until the capability lands. (The auth handlers
// are in auth.go; the other stub files still use this.)
func notImplemented() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotImplemented, map[string]string{"error": "Not implemented yet"})
	})
}
