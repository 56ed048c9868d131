package server

import (
	"context"
	"errors"
	"net/http"

	"salaula/internal/forms"
	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// The public forms (internal/forms): contact-form-submit, waitlist-signup
// and the waitlist's unsubscribe link.

// handleContactFormSubmit stores a Contact Us message and e-mails it to the
// support address (forms.Service.Contact). 400 with field errors for
// invalid input.
func (s *Server) handleContactFormSubmit() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		var req validate.Contact
		if err := decodeJSON(w, r, &req); err != nil {
			return err
		}
		sent, err := s.forms.Contact(r.Context(), req, r.Header.Get("Idempotency-Key"), s.clientIP(r))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, sent)
		return nil
	})
}

// handleWaitlistSignup puts an e-mail on a program's waitlist once and sends
// the confirmation with its unsubscribe link (forms.Service.JoinWaitlist).
// A repeat answers 200 and changes nothing.
func (s *Server) handleWaitlistSignup() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		var req forms.Signup
		if err := decodeJSON(w, r, &req); err != nil {
			return err
		}
		sent, err := s.forms.JoinWaitlist(r.Context(), req, s.clientIP(r))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, sent)
		return nil
	})
}

// handleWaitlistUnsubscribe is the unsubscribe link of the confirmation
// e-mail, and its List-Unsubscribe address. GET (opening the link, as a
// person or a mail system's link scanner does) changes nothing: it answers
// a page naming the sign-up with an Unsubscribe button. POST (that button,
// or a mail program's one-click unsubscribe, RFC 8058, whatever its body)
// marks the sign-up unsubscribed and answers a page saying so. An unknown
// token answers 404 with a friendly page.
func (s *Server) handleWaitlistUnsubscribe() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, err := s.forms.Unsubscribe(r.Context(), r.URL.Query().Get("token"), r.Method == http.MethodPost)
		switch {
		case errors.Is(err, forms.ErrUnknownLink):
			writeLinkPage(w, http.StatusNotFound, linkPage{Title: "Link not recognised", Text: "This unsubscribe link is incomplete or no longer valid. " +
				"Open the link in your latest Salaula e-mail again, or write to " + s.cfg.SupportEmail + " and we will take you off the list."})
		case err != nil:
			s.logger.Error("unsubscribe", "err", err)
			writeLinkPage(w, http.StatusServiceUnavailable, linkPage{Title: "Please try again",
				Text: "We could not reach the waitlist just now. Please open the link again in a few minutes."})
		case u.Unsubscribed:
			writeLinkPage(w, http.StatusOK, linkPage{Title: "You have been unsubscribed",
				Text: u.Email + " will get no more e-mails about the " + u.Program + " waitlist. Changed your mind? Join again on our website at any time."})
		default:
			writeLinkPage(w, http.StatusOK, linkPage{Title: "Unsubscribe from the " + u.Program + " waitlist?",
				Text:   "Press the button and " + u.Email + " will get no more e-mails about the Salaula " + u.Program + " waitlist.",
				Action: forms.UnsubscribePath(u.Token), Button: "Unsubscribe"})
		}
	})
}

// queueMail queues m inside tx with the server's mailer (mail.Queue).
func (s *Server) queueMail(ctx context.Context, tx *store.Tx, m mail.Message) error {
	return mail.Queue(ctx, s.mailer, tx, m)
}
