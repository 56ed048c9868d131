package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"salaula/internal/console"
	"salaula/internal/realtime"
	"salaula/internal/token"
)

// handleRealtime is GET /realtime/v1/websocket: the Supabase Realtime
// socket realtime-js opens (see internal/realtime).
func (s *Server) handleRealtime() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.realtime.Serve(w, r, s.clientIP(r))
	})
}

// handleRealtimeBroadcast is POST /realtime/v1/api/broadcast: what
// realtime-js's send() uses on a channel not joined yet, a batch
// {messages: [{topic, event, payload, private}]}.
func (s *Server) handleRealtimeBroadcast() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := s.realtimeSender(w, r)
		if !ok {
			return
		}
		var body struct {
			Messages []struct {
				Topic   string          `json:"topic"`
				Event   string          `json:"event"`
				Payload json.RawMessage `json:"payload"`
				Private bool            `json:"private"`
			} `json:"messages"`
		}
		if err := decodeJSON(w, r, &body); err != nil {
			var re *requestError
			if errors.As(err, &re) {
				writeRealtimeError(w, re.Status, re.Message)
				return
			}
			writeRealtimeError(w, http.StatusBadRequest, messageOf(err))
			return
		}
		msgs := make([]realtime.Message, len(body.Messages))
		for i, m := range body.Messages {
			if len(m.Payload) == 0 {
				m.Payload = json.RawMessage("{}")
			}
			msgs[i] = realtime.Message{Topic: m.Topic, Event: m.Event, Payload: m.Payload, JSON: true, Private: m.Private}
		}
		s.sendRealtime(w, id, msgs)
	})
}

// handleRealtimeSendEvent is POST
// /realtime/v1/api/broadcast/{topic}/events/{event}: realtime-js's
// httpSend(), whose body is the payload (JSON, or raw bytes as
// application/octet-stream) and whose ?private=true asks for a private
// channel.
func (s *Server) handleRealtimeSendEvent() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := s.realtimeSender(w, r)
		if !ok {
			return
		}
		isJSON := true
		if ct := r.Header.Get("Content-Type"); ct != "" {
			mt, _, err := mime.ParseMediaType(ct)
			switch {
			case err == nil && mt == "application/json":
			case err == nil && mt == "application/octet-stream":
				isJSON = false
			default:
				writeRealtimeError(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json or application/octet-stream")
				return
			}
		}
		if r.ContentLength > maxJSONBody {
			writeRealtimeError(w, http.StatusRequestEntityTooLarge, msgJSONTooLarge)
			return
		}
		payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
		if err != nil {
			writeRealtimeError(w, http.StatusRequestEntityTooLarge, msgJSONTooLarge)
			return
		}
		if isJSON && !json.Valid(payload) {
			writeRealtimeError(w, http.StatusBadRequest, "Request body is not valid JSON: send the payload")
			return
		}
		s.sendRealtime(w, id, []realtime.Message{{Topic: r.PathValue("topic"), Event: r.PathValue("event"),
			Payload: payload, JSON: isJSON, Private: r.URL.Query().Get("private") == "true"}})
	})
}

// realtimeSender checks a REST broadcast's apikey and access token as the
// socket checks them, answering the request when they do not pass.
func (s *Server) realtimeSender(w http.ResponseWriter, r *http.Request) (realtime.Identity, bool) {
	a := realtimeAuth{s}
	apikey := r.Header.Get("apikey")
	if apikey == "" {
		apikey = r.URL.Query().Get("apikey")
	}
	if err := a.CheckAPIKey(r.Context(), apikey); err != nil {
		writeRealtimeError(w, http.StatusUnauthorized, realtime.ReasonBadAPIKey)
		return realtime.Identity{}, false
	}
	tok := bearerToken(r)
	if tok == "" {
		writeRealtimeError(w, http.StatusUnauthorized, "Sign in to use live updates: send Authorization: Bearer <access token>")
		return realtime.Identity{}, false
	}
	id, err := a.Authenticate(r.Context(), tok)
	var tr *realtime.Transient
	switch {
	case errors.As(err, &tr):
		writeRealtimeError(w, http.StatusServiceUnavailable, realtime.Reason(err))
		return id, false
	case err != nil:
		writeRealtimeError(w, http.StatusUnauthorized, realtime.Reason(err))
		return id, false
	case id.UserID == "":
		writeRealtimeError(w, http.StatusUnauthorized, realtime.ReasonAnonKey)
		return id, false
	}
	return id, true
}

// sendRealtime hands msgs to the hub and answers as the hosted service
// does: 202 Accepted with no body, or the refusal.
func (s *Server) sendRealtime(w http.ResponseWriter, id realtime.Identity, msgs []realtime.Message) {
	err := s.realtime.Send(id, msgs)
	var ref *realtime.Refused
	switch {
	case errors.As(err, &ref) && ref.Forbidden:
		writeRealtimeError(w, http.StatusForbidden, ref.Reason)
	case errors.As(err, &ref) && ref.TooMany:
		writeRealtimeError(w, http.StatusTooManyRequests, ref.Reason)
	case errors.As(err, &ref) && strings.Contains(ref.Reason, "too large"):
		writeRealtimeError(w, http.StatusRequestEntityTooLarge, ref.Reason)
	case err != nil:
		writeRealtimeError(w, http.StatusBadRequest, err.Error())
	default:
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusAccepted)
	}
}

// writeRealtimeError answers a refused REST broadcast: {"message": ...},
// which realtime-js's httpSend() reports.
func writeRealtimeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"message": msg})
}

// realtimeAuth checks realtime sockets' apikeys and channels' access
// tokens with the rules of the HTTP side (authenticate, Server.operator).
type realtimeAuth struct{ s *Server }

// CheckAPIKey accepts this server's anon key (or a user's access token,
// which supabase-js sends when it has no anon key at hand).
func (a realtimeAuth) CheckAPIKey(ctx context.Context, apikey string) error {
	if apikey == "" {
		return errors.New("no apikey")
	}
	c, err := a.s.parseAccessToken(ctx, apikey)
	if err == nil || (errors.Is(err, token.ErrClaims) && c != nil && c.Role == "anon") {
		return nil
	}
	return err
}

// Authenticate checks an access token as authenticate does (signature,
// expiry, an active session) and reads the operator role and the
// two-step sign-in now. The anon key is the apikey's role: the zero
// Identity, no error.
func (a realtimeAuth) Authenticate(ctx context.Context, raw string) (realtime.Identity, error) {
	s := a.s
	var id realtime.Identity
	claims, err := s.parseAccessToken(ctx, raw)
	switch {
	case errors.Is(err, token.ErrClaims) && claims != nil && claims.Role == "anon":
		return id, nil
	case errors.Is(err, token.ErrClaims) && claims != nil && claims.Role != "authenticated":
		return id, &realtime.Refusal{Reason: realtime.ReasonAnonKey}
	case errors.Is(err, token.ErrExpired):
		return id, &realtime.Refusal{Reason: "Token has expired: sign in again"}
	case err != nil:
		return id, &realtime.Refusal{Reason: "The access token is not valid: sign in again"}
	case claims.Subject == "" || claims.SessionID == "":
		return id, &realtime.Refusal{Reason: messageOf(errNotUserToken)}
	}
	ok, err := s.db.SessionActive(ctx, claims.SessionID, claims.Subject)
	if err != nil {
		return id, &realtime.Transient{Err: &realtime.Refusal{Reason: msgServiceBusy}}
	}
	if !ok {
		return id, &realtime.Refusal{Reason: messageOf(errSessionEnded)}
	}
	id = realtime.Identity{UserID: claims.Subject, SessionID: claims.SessionID, Expires: time.Unix(claims.ExpiresAt, 0)}
	if claims.ExpiresAt == 0 {
		id.Expires = time.Time{}
	}
	switch _, err := console.Admit(ctx, s.db, claims.Subject, claims.AAL); {
	case err == nil:
		id.Operator = true
	case errors.Is(err, console.ErrNoVerifiedFactor), errors.Is(err, console.ErrInsufficientAAL):
		id.NeedsAAL2 = true
	case !errors.Is(err, console.ErrNotOperator):
		return realtime.Identity{}, &realtime.Transient{Err: &realtime.Refusal{Reason: msgServiceBusy}}
	}
	return id, nil
}
