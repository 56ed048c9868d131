package server

import "net/http"

func (s *Server) handleContactFormSubmit() http.Handler   { return notImplemented() }
func (s *Server) handleWaitlistSignup() http.Handler      { return notImplemented() }
func (s *Server) handleWaitlistUnsubscribe() http.Handler { return notImplemented() }
