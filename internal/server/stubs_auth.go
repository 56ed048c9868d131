package server

import "net/http"

// notImplemented answers 501 until the capability lands.
func notImplemented() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotImplemented, map[string]string{"error": "Not implemented yet"})
	})
}

func (s *Server) handleAuthSettings() http.Handler { return notImplemented() }
func (s *Server) handleSignup() http.Handler       { return notImplemented() }
func (s *Server) handleToken() http.Handler        { return notImplemented() }
func (s *Server) handleGetUser() http.Handler      { return notImplemented() }
func (s *Server) handleUpdateUser() http.Handler   { return notImplemented() }
func (s *Server) handleLogout() http.Handler       { return notImplemented() }
func (s *Server) handleRecover() http.Handler      { return notImplemented() }
func (s *Server) handleVerify() http.Handler       { return notImplemented() }
