package server

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"salaula/internal/forms"
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

// handleWaitlistConfirm is the confirm link of a waitlist e-mail. GET
// (opening the link, as a person or a mail system's link scanner does)
// changes nothing: it answers a page with a button. POST (that button)
// confirms the sign-up (forms.Service.Confirm: the referral it came through
// is credited now; an unsubscribed address is subscribed again) and sends
// the browser to the page the sign-up was made on, as a path (it stays at
// the address it was opened at), with the place and the personal link's
// code in the fragment (#wl_place=N&wl_ref=CODE), which that page shows.
// An unknown token answers 404 with a friendly page.
func (s *Server) handleWaitlistConfirm() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := r.URL.Query().Get("token")
		c, err := s.forms.Confirm(r.Context(), tok, r.Method == http.MethodPost, s.clientIP(r))
		switch {
		case errors.Is(err, forms.ErrUnknownConfirm):
			writeLinkPage(w, http.StatusNotFound, linkPage{Title: "Link not recognised", Text: "This confirmation link is incomplete or no longer valid. " +
				"Open the link in your latest Salaula e-mail again, or join the waitlist again on our website."})
		case err != nil:
			s.logger.Error("confirm waitlist sign-up", "err", err)
			writeLinkPage(w, http.StatusServiceUnavailable, linkPage{Title: "Please try again",
				Text: "We could not reach the waitlist just now. Please open the link again in a few minutes."})
		case r.Method == http.MethodPost:
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, c.PagePath+"#"+url.Values{"wl_place": {strconv.Itoa(c.Position)}, "wl_ref": {c.Code}}.Encode(), http.StatusSeeOther)
		case c.Unsubscribed:
			writeLinkPage(w, http.StatusOK, linkPage{Title: "Join the " + c.Program + " waitlist again?",
				Text:   "Press the button and " + c.Email + " will be back on the Salaula " + c.Program + " waitlist, at the end of the line, and get its e-mails again.",
				Action: forms.ConfirmPath(tok), Button: "Join again"})
		default:
			writeLinkPage(w, http.StatusOK, linkPage{Title: "Confirm your place on the " + c.Program + " waitlist",
				Text:   "Press the button to confirm that " + c.Email + " is yours and see your place in line. If you did not sign up, close this page: nothing changes.",
				Action: forms.ConfirmPath(tok), Button: "Confirm my address"})
		}
	})
}
