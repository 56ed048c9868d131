package server

import (
	"context"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"

	"salaula/internal/analytics"
	"salaula/internal/apierr"
	"salaula/internal/console"
)

// handleAnalyticsEvent takes one page view from the app's beacon
// (internal/analytics): 202 with no body when taken (counted or not: bots
// and browsers asking not to be tracked are not counted), 400 with a JSON
// error for a bad body, 415 for a body that is not JSON or text.
func (s *Server) handleAnalyticsEvent() http.Handler {
	return s.function(func(w http.ResponseWriter, r *http.Request) error {
		if ct := r.Header.Get("Content-Type"); ct != "" {
			mt, _, err := mime.ParseMediaType(ct)
			if err != nil || mt != "application/json" && mt != "text/plain" {
				return apierr.New(apierr.UnsupportedType, "Send the event as JSON (application/json or text/plain)")
			}
		}
		hit, err := analytics.Parse(r.Body, r.ContentLength)
		if err != nil {
			return err
		}
		if analytics.Private(r.Header.Get("DNT"), r.Header.Get("Sec-GPC")) || analytics.IsBot(r.UserAgent()) {
			w.WriteHeader(http.StatusAccepted)
			return nil
		}
		if err := s.stats.Record(r.Context(), hit, s.clientIP(r), r.UserAgent(), s.siteHosts(r)...); err != nil {
			return &apierr.Error{Kind: apierr.Unavailable, Message: msgServiceBusy, Err: fmt.Errorf("analytics: record: %w", err)}
		}
		w.WriteHeader(http.StatusAccepted)
		return nil
	})
}

// siteHosts are this site's host names (the public URL's and the
// request's), so that a referrer from its own pages is no source.
func (s *Server) siteHosts(r *http.Request) []string {
	hosts := []string{r.Host}
	if h, _, err := net.SplitHostPort(r.Host); err == nil {
		hosts = append(hosts, h)
	}
	if u, err := url.Parse(s.cfg.PublicURL); err == nil && u.Hostname() != "" {
		hosts = append(hosts, u.Hostname())
	}
	return hosts
}

// limitAnalytics applies the analytics events' rate limit.
func (s *Server) limitAnalytics(next http.Handler) http.Handler {
	return s.limit(s.analyticsLimiter, func(w http.ResponseWriter) {
		writeFunctionError(w, http.StatusTooManyRequests, "Too many events from this address. Please wait a few minutes.", nil)
	}, next)
}

// handleAdminAnalytics answers the console's analytics for ?from=&to=
// (YYYY-MM-DD; the last 30 days by default).
func (s *Server) handleAdminAnalytics() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		from, to, err := analytics.ParseRange(r.URL.Query(), s.now())
		if err != nil {
			s.renderAdminError(w, "analytics", err)
			return
		}
		rep, err := analytics.GetReport(r.Context(), s.db, from, to)
		s.adminAnswer(w, "analytics", rep, err)
	})
}

// countMilestone counts a funnel milestone after the change it counts is
// committed; a failure is logged (the change itself stands).
func (s *Server) countMilestone(ctx context.Context, name string) {
	if err := s.stats.Milestone(context.WithoutCancel(ctx), name); err != nil {
		s.logger.Error("analytics: count milestone", "milestone", name, "err", err)
	}
}
