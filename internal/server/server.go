// Package server is Salaula's HTTP server: the supabase-js compatible APIs
// (/auth/v1, /functions/v1, /storage/v1), the embedded React app, media,
// /healthz, /metrics and /config.json. Every route is listed in routes.go.
package server

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"salaula/internal/account"
	"salaula/internal/analytics"
	"salaula/internal/announce"
	"salaula/internal/auth"
	"salaula/internal/config"
	"salaula/internal/forms"
	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/onboarding"
	"salaula/internal/ratelimit"
	"salaula/internal/realtime"
	"salaula/internal/store"
)

// Deps are what the server needs from the outside.
type Deps struct {
	Config *config.Config
	DB     *store.DB
	Secret []byte           // server secret: seals stored secrets and signing keys
	Mailer *mail.Outbox     // outgoing e-mail
	Media  media.Store      // uploaded files
	Logger *slog.Logger     // one line per request goes here
	App    fs.FS            // the built React app (index.html, assets/...)
	Now    func() time.Time // clock; time.Now when nil
	// Analytics records page views and milestones; one is made when nil.
	// Give the one whose RollupEvery runs, so that it also drops the
	// day's salt from this server's memory when the day ends.
	Analytics *analytics.Collector
	// Context, when set, is the server's lifetime: once it is done, the
	// realtime sockets are closed ("server shutting down") and the server
	// stops following the store's changes.
	Context context.Context
	// Stopped, when set, is closed once the realtime sockets have been
	// closed after Context is done (serve waits for it before exiting, so
	// clients get the close reason instead of a dropped connection).
	Stopped chan struct{}
	// Drain, when set, is the stopping state GET /readyz reports.
	Drain *Drain
	// Collectors are more metrics for GET /metrics (the scheduled backups').
	Collectors []prometheus.Collector
}

// Server holds the dependencies shared by the handlers.
type Server struct {
	cfg      *config.Config
	db       *store.DB
	mailer   *mail.Outbox
	media    media.Store
	logger   *slog.Logger
	app      *appFiles
	metrics  *metrics
	now      func() time.Time
	keys     *keySource           // access-token signing keys
	auth     *auth.Service        // the auth API's rules
	account  *account.Rules       // export and delete a person
	forms    *forms.Service       // contact form, waitlist, unsubscribe
	profiles *onboarding.Service  // onboarding and the profile
	library  *media.Library       // the user-media bucket's rules
	realtime *realtime.Hub        // realtime sockets and channels
	stats    *analytics.Collector // page views and the funnel
	announce *announce.Service    // announcements to the waitlists

	analyticsLimiter ratelimit.Limiter
	authLimiter      ratelimit.Limiter
	formLimiter      ratelimit.Limiter
	uploadLimiter    ratelimit.Limiter

	drain     *Drain       // stopping: /readyz says so
	mailProbe mailProbe    // the mail server's last answer to /readyz
	lastReady atomic.Value // string: the last /readyz status and checks down, logged when it changes
	// settingsFile is the last /settings.json answered, with its ETag and compressed forms.
	settingsFile atomic.Pointer[appFile]
}

// New builds the server's handler from its dependencies.
func New(d Deps) (http.Handler, error) {
	h, _, err := NewWithMetrics(d)
	return h, err
}

// NewWithMetrics builds the server's handler and a second handler that
// serves only GET /metrics, without a token, for the separate metrics
// address (SALAULA_METRICS_HTTP); both count into the same metrics.
func NewWithMetrics(d Deps) (app, metrics http.Handler, err error) {
	if d.Now == nil {
		d.Now = time.Now
	}
	files, err := loadApp(d.App)
	if err != nil {
		return nil, nil, fmt.Errorf("load app: %w", err)
	}
	s := &Server{
		cfg: d.Config, db: d.DB, mailer: d.Mailer, media: d.Media,
		logger: d.Logger, app: files, metrics: newMetrics(d.DB.Stats, d.DB.OutboxCounts), now: d.Now,
		authLimiter:      ratelimit.For(d.DB, "auth", d.Config.AuthRateLimit.Count, d.Config.AuthRateLimit.Window, d.Logger),
		formLimiter:      ratelimit.For(d.DB, "forms", d.Config.FormRateLimit.Count, d.Config.FormRateLimit.Window, d.Logger),
		uploadLimiter:    ratelimit.For(d.DB, "uploads", d.Config.UploadRateLimit.Count, d.Config.UploadRateLimit.Window, d.Logger),
		analyticsLimiter: ratelimit.For(d.DB, "analytics", d.Config.AnalyticsRate.Count, d.Config.AnalyticsRate.Window, d.Logger),
		stats:            d.Analytics,
		drain:            d.Drain,
	}
	s.metrics.registry.MustRegister(d.Collectors...)
	if s.stats == nil {
		s.stats = analytics.New(d.DB, d.Now)
	}
	s.announce = s.newAnnouncer(d)
	s.account = &account.Rules{DB: d.DB, Media: d.Media, Mailer: d.Mailer, SupportEmail: d.Config.SupportEmail,
		PublicURL: d.Config.PublicURL, EmailQuota: ratelimit.EmailQuota{Count: d.Config.EmailRateLimit.Count, Window: d.Config.EmailRateLimit.Window},
		Logger: d.Logger, Now: d.Now}
	s.library = &media.Library{Files: d.Media, DB: d.DB, Logger: d.Logger}
	s.forms = &forms.Service{DB: d.DB, Mailer: d.Mailer, SupportEmail: d.Config.SupportEmail,
		PublicURL: d.Config.PublicURL, Logger: d.Logger}
	s.profiles = &onboarding.Service{DB: d.DB, Library: s.library, Account: s.account, Stats: s.stats, Logger: d.Logger, Now: d.Now}
	if s.auth, err = s.newAuth(d); err != nil {
		return nil, nil, err
	}
	if err := s.newKeys(context.Background(), d.Secret); err != nil {
		return nil, nil, fmt.Errorf("signing keys: %w", err)
	}
	s.realtime = realtime.New(d.Config.Realtime, realtimeAuth{s}, d.Logger)
	if d.DB.Dialect() == store.Postgres {
		s.realtime.RelayThrough(d.DB) // broadcasts and presence reach the other instances
	}
	s.metrics.registry.MustRegister(s.realtime.Collectors()...)
	stopChanges := d.DB.OnChangeWhen(s.realtime.Publish, s.realtime.Wants)
	if d.Context != nil {
		go func() {
			<-d.Context.Done()
			stopChanges()
			s.realtime.Close()
			if d.Stopped != nil {
				close(d.Stopped)
			}
		}()
	}
	mux := http.NewServeMux()
	s.routes(mux)
	return s.recoverPanics(s.logRequests(s.securityHeaders(s.plainURLs(mux, mux)))), s.metricsOnly(), nil
}
