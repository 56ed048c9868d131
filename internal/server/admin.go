package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"salaula/internal/apierr"
	"salaula/internal/console"
	"salaula/internal/export"
	"salaula/internal/store"
)

// The founders' console API (/admin/v1): every handler runs behind
// s.operator, decodes, calls internal/console or internal/export, encodes.

// operator runs next for callers whose access token belongs to an active
// session of an account that holds the operator role now (read from the
// database on every call) and that passed two-step sign-in (mfa.RequireAAL2):
// 401 without a user's token (the anon key included), 403 "This page is for
// the Salaula team" for everyone else, and 403 with error_code
// insufficient_aal (the auth API's code and message) for an operator
// without a verified factor or with a password-only (aal1) session.
func (s *Server) operator(next func(w http.ResponseWriter, r *http.Request, by console.Actor)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims, err := s.authenticate(r.Context(), r)
		switch {
		case errors.Is(err, errCheckingSession):
			err = apierr.New(apierr.Unavailable, msgServiceBusy)
		case errors.Is(err, errNoToken), errors.Is(err, errNotUserToken), errors.Is(err, errSessionEnded):
			err = apierr.New(apierr.Unauthenticated, messageOf(err))
		case err != nil:
			err = apierr.New(apierr.Unauthenticated, msgAdminSessionBroken)
		}
		var u *store.User
		if err == nil {
			u, err = console.Admit(r.Context(), s.db, claims.Subject, claims.AAL)
		}
		if err != nil {
			s.renderAdminError(w, "check operator", err)
			return
		}
		next(w, r, console.Actor{ID: u.ID, Email: u.Email, IP: s.clientIP(r)})
	})
}

// adminAnswer writes v as JSON, or err as renderAdminError does.
func (s *Server) adminAnswer(w http.ResponseWriter, what string, v any, err error) {
	if err != nil {
		s.renderAdminError(w, what, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleAdminOverview() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		if len(r.URL.Query()) > 0 {
			s.renderAdminError(w, "overview", apierr.New(apierr.Invalid, "The overview takes no parameters"))
			return
		}
		o, err := console.GetOverview(r.Context(), s.db, s.now())
		s.adminAnswer(w, "overview", o, err)
	})
}

// adminList is a list endpoint: parse reads the filters, page answers.
func adminList[F any, T any](s *Server, filters []string, parse func(map[string]string) (F, error),
	page func(context.Context, *store.DB, F, console.Paging) (*console.Page[T], error)) http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		raw, p, err := console.Params(r.URL.Query(), filters...)
		if err != nil {
			s.adminAnswer(w, "", nil, err)
			return
		}
		f, err := parse(raw)
		if err != nil {
			s.adminAnswer(w, "", nil, err)
			return
		}
		res, err := page(r.Context(), s.db, f, p)
		s.adminAnswer(w, "list", res, err)
	})
}

// adminCSV is a CSV download: the list's filters and sort, streamed.
func adminCSV[F any](s *Server, name string, filters []string, parse func(map[string]string) (F, error),
	write func(context.Context, *store.DB, F, string, io.Writer) error) http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		raw, p, err := console.Params(r.URL.Query(), filters...)
		if err == nil && (p.Limit != 0 || p.Cursor != "") {
			err = apierr.New(apierr.Invalid, "A CSV download has every matching row: leave out limit and cursor")
		}
		var f F
		if err == nil {
			f, err = parse(raw)
		}
		if err != nil {
			s.adminAnswer(w, "", nil, err)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", `attachment; filename="salaula-`+name+`-`+s.now().UTC().Format("2006-01-02")+`.csv"`)
		h.Set("Cache-Control", "no-store")
		sw := &sentWriter{w: w}
		err = write(r.Context(), s.db, f, p.Sort, sw)
		if err != nil && !sw.sent {
			h.Del("Content-Disposition")
			s.adminAnswer(w, "csv "+name, nil, err)
		} else if err != nil {
			s.logger.Error("admin: csv "+name, "err", err) // the answer is cut short; the client sees a broken download
		}
	})
}

// sentWriter notes whether anything was written, so an error before the
// first byte can still be answered with its status.
type sentWriter struct {
	w    io.Writer
	sent bool
}

func (s *sentWriter) Write(p []byte) (int, error) {
	s.sent = true
	return s.w.Write(p)
}

func (s *Server) handleAdminWaitlist() http.Handler {
	return adminList(s, console.WaitlistFilters, console.ParseWaitlistFilter, console.ListWaitlist)
}

func (s *Server) handleAdminWaitlistCSV() http.Handler {
	return adminCSV(s, "waitlist", console.WaitlistFilters, console.ParseWaitlistFilter, export.Waitlist)
}

func (s *Server) handleAdminMessages() http.Handler {
	return adminList(s, console.MessageFilters, console.ParseMessageFilter, console.ListMessages)
}

func (s *Server) handleAdminMessagesCSV() http.Handler {
	return adminCSV(s, "messages", console.MessageFilters, console.ParseMessageFilter, export.Messages)
}

func (s *Server) handleAdminPeople() http.Handler {
	return adminList(s, console.PeopleFilters, console.ParsePeopleFilter, console.ListPeople)
}

func (s *Server) handleAdminPeopleCSV() http.Handler {
	return adminCSV(s, "people", console.PeopleFilters, console.ParsePeopleFilter, export.Profiles)
}

func (s *Server) handleAdminAudit() http.Handler {
	return adminList(s, nil, func(map[string]string) (struct{}, error) { return struct{}{}, nil },
		func(ctx context.Context, db *store.DB, _ struct{}, p console.Paging) (*console.Page[store.AuditEntry], error) {
			return console.ListAudit(ctx, db, p)
		})
}

func (s *Server) handleAdminUpdateMessage() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, by console.Actor) {
		var u console.MessageUpdate
		if err := decodeJSON(w, r, &u); err != nil {
			s.renderAdminError(w, "update message", err)
			return
		}
		m, err := console.UpdateMessage(r.Context(), s.db, by, r.PathValue("id"), u)
		s.adminAnswer(w, "update message", m, err)
	})
}

func (s *Server) handleAdminPerson() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		p, err := console.GetPerson(r.Context(), s.db, r.PathValue("id"))
		s.adminAnswer(w, "person", p, err)
	})
}

func (s *Server) handleAdminSignOutPerson() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, by console.Actor) {
		n, err := console.SignOutEverywhere(r.Context(), s.db, by, r.PathValue("id"))
		s.adminAnswer(w, "sign out person", map[string]any{"sessionsEnded": n, "at": time.Now().UTC()}, err)
	})
}
