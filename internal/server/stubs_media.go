package server

import "net/http"

func (s *Server) handleUploadObject() http.Handler   { return notImplemented() }
func (s *Server) handlePublicObject() http.Handler   { return notImplemented() }
func (s *Server) handleRemoveObjects() http.Handler  { return notImplemented() }
func (s *Server) handleOnboardNewUser() http.Handler { return notImplemented() }
func (s *Server) handleOnboardSeller() http.Handler  { return notImplemented() }
