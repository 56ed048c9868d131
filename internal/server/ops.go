package server

import (
	"context"
	"net/http"
	"time"
)

// handleHealth answers 200 when the database answers within 2 seconds, else 503.
func (s *Server) handleHealth() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.db.Ping(ctx); err != nil {
			s.logger.Warn("health check failed", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": "not answering"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "database": string(s.db.Dialect())})
	})
}

// handleConfig gives the app its API URL and public anon key at run time, so
// one build serves every deployment.
func (s *Server) handleConfig() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		anon, err := s.anonKey(r.Context())
		if err != nil {
			s.logger.Error("sign anon key", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": msgServiceBusy})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{
			"url":          s.publicURL(r),
			"anonKey":      anon,
			"supportEmail": s.cfg.SupportEmail,
		})
	})
}

// publicURL is SALAULA_PUBLIC_URL when set, else the origin the request came
// to, so the app calls back the host it was loaded from.
func (s *Server) publicURL(r *http.Request) string {
	if s.cfg.PublicURLSet {
		return s.cfg.PublicURL
	}
	scheme := "http"
	if r.TLS != nil || s.forwardedHTTPS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
