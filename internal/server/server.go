// Package server is Salaula's HTTP server: the supabase-js compatible APIs
// (/auth/v1, /functions/v1, /storage/v1), the embedded React app, media,
// /healthz, /metrics and /config.json. Every route is listed in routes.go.
package server

import (
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/ratelimit"
	"salaula/internal/store"
	"salaula/internal/token"
)

// Deps are what the server needs from the outside.
type Deps struct {
	Config *config.Config
	DB     *store.DB
	Secret []byte           // JWT signing secret
	Mailer mail.Mailer      // outgoing e-mail
	Media  media.Store      // uploaded files
	Logger *slog.Logger     // one line per request goes here
	App    fs.FS            // the built React app (index.html, assets/...)
	Now    func() time.Time // clock; time.Now when nil
}

// Server holds the dependencies shared by the handlers.
type Server struct {
	cfg     *config.Config
	db      *store.DB
	secret  []byte
	mailer  mail.Mailer
	media   media.Store
	logger  *slog.Logger
	app     *appFiles
	metrics *metrics
	now     func() time.Time
	anonKey string

	authLimiter   ratelimit.Limiter
	formLimiter   ratelimit.Limiter
	uploadLimiter ratelimit.Limiter
}

// New builds the server's handler from its dependencies.
func New(d Deps) (http.Handler, error) {
	if d.Now == nil {
		d.Now = time.Now
	}
	app, err := loadApp(d.App)
	if err != nil {
		return nil, fmt.Errorf("load app: %w", err)
	}
	s := &Server{
		cfg: d.Config, db: d.DB, secret: d.Secret, mailer: d.Mailer, media: d.Media,
		logger: d.Logger, app: app, metrics: newMetrics(d.DB.Stats), now: d.Now,
		authLimiter:   ratelimit.For(d.DB, d.Config.AuthRateLimit.Count, d.Config.AuthRateLimit.Window, d.Logger),
		formLimiter:   ratelimit.For(d.DB, d.Config.FormRateLimit.Count, d.Config.FormRateLimit.Window, d.Logger),
		uploadLimiter: ratelimit.For(d.DB, d.Config.UploadRateLimit.Count, d.Config.UploadRateLimit.Window, d.Logger),
	}
	s.anonKey, err = AnonKey(d.Secret)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	s.routes(mux)
	return s.recoverPanics(s.logRequests(s.securityHeaders(mux))), nil
}

// AnonKey returns the public anon key: a long-lived JWT with role "anon"
// signed by secret, as the hosted service issues. It is the same for every
// instance that shares the secret.
func AnonKey(secret []byte) (string, error) {
	return token.Sign(token.Claims{Issuer: "salaula", Role: "anon", IssuedAt: 1_767_225_600, ExpiresAt: 4_102_444_800}, secret)
}
