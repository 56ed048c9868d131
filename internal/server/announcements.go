package server

import (
	"errors"
	"net/http"
	"strconv"

	"salaula/internal/announce"
	"salaula/internal/apierr"
	"salaula/internal/console"
)

// The console's announcements and referrals (/admin/v1/announcements,
// /admin/v1/referrals, /admin/v1/bounces): each handler decodes, calls
// internal/announce or the store, and renders.

func (s *Server) handleAdminAnnouncements() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		list, err := s.announce.List(r.Context())
		s.adminAnswer(w, "announcements", map[string]any{"items": list}, err)
	})
}

func (s *Server) handleAdminCreateAnnouncement() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, by console.Actor) {
		var d announce.Draft
		if err := decodeJSON(w, r, &d); err != nil {
			s.renderAdminError(w, "create announcement", err)
			return
		}
		a, err := s.announce.Create(r.Context(), by, d)
		s.adminAnswer(w, "create announcement", a, err)
	})
}

func (s *Server) handleAdminAnnouncement() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		a, err := s.announce.Get(r.Context(), r.PathValue("id"))
		s.adminAnswer(w, "announcement", a, err)
	})
}

func (s *Server) handleAdminEditAnnouncement() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		var d announce.Draft
		if err := decodeJSON(w, r, &d); err != nil {
			s.renderAdminError(w, "edit announcement", err)
			return
		}
		a, err := s.announce.Edit(r.Context(), r.PathValue("id"), d)
		s.adminAnswer(w, "edit announcement", a, err)
	})
}

func (s *Server) handleAdminPreviewAnnouncement() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, by console.Actor) {
		p, err := s.announce.Preview(r.Context(), r.PathValue("id"), by.Email)
		s.adminAnswer(w, "preview announcement", p, err)
	})
}

func (s *Server) handleAdminTestAnnouncement() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, by console.Actor) {
		p, err := s.announce.SendTest(r.Context(), s.mailer, by, r.PathValue("id"))
		s.adminAnswer(w, "test announcement", p, err)
	})
}

// handleAdminMoveAnnouncement is send, pause, resume and cancel.
func (s *Server) handleAdminMoveAnnouncement() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, by console.Actor) {
		a, err := s.announce.Move(r.Context(), by, r.PathValue("id"), r.PathValue("action"))
		s.adminAnswer(w, "move announcement", a, err)
	})
}

func (s *Server) handleAdminBounces() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		list, err := s.db.Bounces(r.Context(), 500)
		s.adminAnswer(w, "bounces", map[string]any{"items": list}, err)
	})
}

// handleAdminReferrals answers the sign-ups through links per program and
// the top referrers (of ?program= when given; ?limit= up to 100).
func (s *Server) handleAdminReferrals() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		q := r.URL.Query()
		limit := 20
		if v := q.Get("limit"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 100 {
				s.renderAdminError(w, "", apierr.New(apierr.Invalid, "limit is a number from 1 to 100"))
				return
			}
			limit = n
		}
		counts, err := s.db.ReferralCounts(r.Context())
		if err != nil {
			s.adminAnswer(w, "referral counts", nil, err)
			return
		}
		top, err := s.db.TopReferrers(r.Context(), q.Get("program"), limit)
		s.adminAnswer(w, "top referrers", map[string]any{"programs": counts, "top": top}, err)
	})
}

// handleAdminReferralsOf lists the sign-ups made through one person's link.
func (s *Server) handleAdminReferralsOf() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		list, err := s.db.ReferralsOf(r.Context(), r.PathValue("id"), 500)
		s.adminAnswer(w, "referrals of", map[string]any{"items": list}, err)
	})
}

// handleAnnouncementUnsubscribe is an announcement e-mail's unsubscribe
// link and List-Unsubscribe address, as handleWaitlistUnsubscribe is the
// confirmation's: GET answers a page with a button, POST unsubscribes.
func (s *Server) handleAnnouncementUnsubscribe() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := r.URL.Query().Get("token")
		su, err := s.announce.Unsubscribe(r.Context(), tok, r.Method == http.MethodPost)
		switch {
		case errors.Is(err, console.ErrNotFound):
			writeLinkPage(w, http.StatusNotFound, linkPage{Title: "Link not recognised", Text: "This unsubscribe link is incomplete or no longer valid. " +
				"Open the link in your latest Salaula e-mail again, or write to " + s.cfg.SupportEmail + " and we will take you off the list."})
		case err != nil:
			s.logger.Error("announcement unsubscribe", "err", err)
			writeLinkPage(w, http.StatusServiceUnavailable, linkPage{Title: "Please try again",
				Text: "We could not reach the waitlist just now. Please open the link again in a few minutes."})
		case su.UnsubscribedAt != nil:
			writeLinkPage(w, http.StatusOK, linkPage{Title: "You have been unsubscribed",
				Text: su.Email + " will get no more e-mails about the " + su.Program + " waitlist. Changed your mind? Join again on our website at any time."})
		default:
			writeLinkPage(w, http.StatusOK, linkPage{Title: "Unsubscribe from the " + su.Program + " waitlist?",
				Text:   "Press the button and " + su.Email + " will get no more e-mails about the Salaula " + su.Program + " waitlist.",
				Action: r.URL.RequestURI(), Button: "Unsubscribe"})
		}
	})
}

// newAnnouncer is the announcements service; its pacer runs for the
// server's lifetime when d.Context is set.
func (s *Server) newAnnouncer(d Deps) *announce.Service {
	wake := func() {}
	if d.Mailer != nil {
		wake = d.Mailer.Wake
	}
	a := announce.New(d.DB, d.Config.PublicURL, d.Logger, wake)
	if d.Context != nil {
		go a.Run(d.Context)
	}
	return a
}
