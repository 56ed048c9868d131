package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"salaula/internal/account"
	"salaula/internal/analytics"
	"salaula/internal/backup"
	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/server"
	"salaula/internal/store"
	"salaula/internal/webapp"
)

// appFS is the app the server serves; tests replace it.
var appFS = func() fs.FS { return webapp.FS() }

// sweepInterval is how often the server removes what the retention policy
// no longer allows to keep (internal/account).
const sweepInterval = time.Hour

// drainMargin is how long serve keeps accepting after the load balancer
// heard that it is stopping: requests it had already routed here arrive.
const drainMargin = 500 * time.Millisecond

// openStore opens and migrates the configured database.
func openStore(ctx context.Context, cfg *config.Config, logger *slog.Logger) (*store.DB, error) {
	if err := checkNotMoved(cfg); err != nil {
		return nil, err
	}
	db, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	applied, err := db.Migrate(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	for _, name := range applied {
		logger.Info("migration applied", "name", name)
	}
	return db, nil
}

// checkNotMoved refuses a SQLite data folder whose database was restored
// into PostgreSQL (backup.MovedFile), so a command run without DATABASE_URL
// never reads or writes the old copy.
func checkNotMoved(cfg *config.Config) error {
	if cfg.DatabaseURL != "" {
		return nil
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, backup.MovedFile)); err == nil {
		return fmt.Errorf("the database of %s moved to PostgreSQL (%s): set DATABASE_URL, e.g. with --env-file /etc/salaula/salaula.env as the service uses",
			cfg.DataDir, filepath.Join(cfg.DataDir, backup.MovedFile))
	}
	return nil
}

// openMedia returns the configured media store.
func openMedia(cfg *config.Config) (media.Store, error) {
	return media.Open(cfg.S3, filepath.Join(cfg.DataDir, "media"))
}

// serve runs the HTTP server until ctx ends, then stops accepting, lets
// in-flight requests finish (up to the shutdown timeout) and closes the database.
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Parse("serve", args, getenv, stderr)
	if err != nil {
		return err
	}
	if cfg.MemoryLimit > 0 {
		// Garbage of password hashing is reclaimed before it piles up (decision 0241).
		debug.SetMemoryLimit(cfg.MemoryLimit)
	}
	logger := slog.New(server.NewLogHandler(stdout, cfg.LogLevel, cfg.DataDir))
	// Packages logging through slog's default logger (the database's
	// change listener, realtime) write the same JSON lines.
	slog.SetDefault(logger)
	secret, err := cfg.Secret()
	if err != nil {
		return err
	}
	db, err := openStore(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := checkSecretSwitch(ctx, cfg, db, logger); err != nil {
		return err
	}
	mediaStore, err := openMedia(cfg)
	if err != nil {
		return err
	}
	mailer, err := mail.New(db, cfg.MailFrom, cfg.SMTPURL, logger)
	if err != nil {
		return err
	}
	mailer.ClearBodies = cfg.EmailBodyRetention == 0
	// The e-mail sender runs until the server has stopped, so e-mails
	// queued by the last requests still go out (or wait for the next start).
	senderCtx, stopSender := context.WithCancel(context.WithoutCancel(ctx))
	senderDone := make(chan struct{})
	go func() { defer close(senderDone); mailer.Run(senderCtx) }()
	defer func() { stopSender(); <-senderDone }()
	stats := analytics.New(db, nil)
	backups, err := scheduleBackups(cfg, db, mediaStore, logger)
	if err != nil {
		return err
	}
	realtimeClosed := make(chan struct{})
	drain := server.NewDrain()
	handler, metricsHandler, err := server.NewWithMetrics(server.Deps{Config: cfg, DB: db, Secret: secret, Mailer: mailer, Media: mediaStore, Logger: logger, App: appFS(),
		Analytics: stats, Context: ctx, Stopped: realtimeClosed, Drain: drain, Collectors: backupCollectors(backups)})
	if err != nil {
		return err
	}
	if cfg.MetricsHTTP != "" {
		mln, err := net.Listen("tcp", cfg.MetricsHTTP)
		if err != nil {
			return fmt.Errorf("SALAULA_METRICS_HTTP: %w", err)
		}
		msrv := &http.Server{Handler: metricsHandler, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: time.Minute}
		logger.Info("serving metrics", "addr", mln.Addr().String())
		go msrv.Serve(mln)
		defer msrv.Close()
	}
	rules := &account.Rules{DB: db, Media: mediaStore, Mailer: mailer, SupportEmail: cfg.SupportEmail, Logger: logger}
	retention := account.DefaultRetention(cfg.ConfirmEmail)
	retention.EmailBodies = account.EmailBodiesFor(cfg.EmailBodyRetention)
	retention.Outbox = cfg.EmailRetention
	go rules.SweepEvery(ctx, retention, sweepInterval)
	go stats.RollupEvery(ctx, sweepInterval, logger)
	// Start-up (migrations, compressing the app, the dummy password hash)
	// leaves garbage behind; hand its pages back to the system now rather
	// than keep them resident until the background scavenger gets to them.
	debug.FreeOSMemory()
	ln, err := systemdListener(getenv)
	if err != nil {
		return err
	}
	fromSystemd := ln != nil
	if !fromSystemd {
		if ln, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
			return err
		}
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute, // slow phones uploading photos
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	// newConns counts the connections whose first request is not read yet.
	var newConns sync.WaitGroup
	var pending sync.Map
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		if st == http.StateNew {
			newConns.Add(1)
			pending.Store(c, true)
		} else if _, ok := pending.LoadAndDelete(c); ok {
			newConns.Done()
		}
	}
	if backups != nil {
		go backups.Run(ctx)
	}
	logger.Info("serving", "addr", ln.Addr().String(), "socket_activation", fromSystemd, "url", cfg.PublicURL, "database", string(db.Dialect()), "data", cfg.DataDir)
	if !cfg.PublicURLSet {
		logger.Warn(publicURLNotice(cfg.PublicURL), "url", cfg.PublicURL)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Readiness says "stopping" first; once the load balancer's probe has
	// heard it (and a moment for requests it had already sent here), the
	// server stops accepting and lets the requests under way finish. A
	// socket from systemd stays open while the server restarts: new
	// connections wait in it for the next process, so there is nothing to
	// wait for (decision 0239).
	drain.Begin()
	if !fromSystemd {
		logger.Info("shutting down: not ready any more", "drain_max", cfg.ShutdownDrain.String())
		drain.Wait(cfg.ShutdownDrain, drainMargin)
	}
	logger.Info("shutting down", "timeout", cfg.ShutdownTimeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	// Stop accepting, then let each connection accepted so far send its
	// first request before Shutdown: net/http closes a connection whose
	// request arrives once it is shutting down, unanswered. (The
	// connections not accepted wait in systemd's socket, or are refused.)
	ln.Close()
	if err := <-errc; err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	fresh := make(chan struct{})
	go func() { newConns.Wait(); close(fresh) }()
	select {
	case <-fresh:
	case <-shutdownCtx.Done():
	}
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	select { // realtime sockets are not HTTP requests: Shutdown does not wait for them
	case <-realtimeClosed:
	case <-shutdownCtx.Done():
	}
	logger.Info("stopped")
	return nil
}

// systemdListener returns the listening socket systemd passed this process
// (socket activation, sd_listen_fds(3): LISTEN_PID is this process and the
// first of LISTEN_FDS sockets is fd 3), or nil when there is none. It
// unsets the variables so no child process takes them for its own.
func systemdListener(getenv func(string) string) (net.Listener, error) {
	if getenv("LISTEN_PID") != strconv.Itoa(os.Getpid()) {
		return nil, nil
	}
	fds := getenv("LISTEN_FDS")
	for _, k := range []string{"LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"} {
		os.Unsetenv(k)
	}
	if n, err := strconv.Atoi(fds); err != nil || n < 1 {
		return nil, fmt.Errorf("LISTEN_FDS=%q: systemd passed no socket (salaula.socket needs one ListenStream=)", fds)
	}
	f := os.NewFile(3, "systemd socket")
	defer f.Close() // the listener holds its own copy
	ln, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("the socket systemd passed (fd 3): %w", err)
	}
	return ln, nil
}

// checkSecretSwitch refuses a SALAULA_JWT_SECRET that differs from the
// data folder's jwt-secret (the secret that sealed the stored two-step
// secrets and signing keys: they would no longer open), and says in the
// log that access tokens signed with the stored ES256 keys stop working
// when SALAULA_JWT_SECRET is set over them (sessions go on: a refresh
// answers an HS256 token).
func checkSecretSwitch(ctx context.Context, cfg *config.Config, db *store.DB, logger *slog.Logger) error {
	if cfg.JWTSecret == "" {
		return nil
	}
	path := filepath.Join(cfg.DataDir, backup.SecretFile)
	if b, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(b)) != cfg.JWTSecret {
		return fmt.Errorf("SALAULA_JWT_SECRET differs from %s, which sealed the stored two-step sign-in secrets and signing keys: "+
			"set SALAULA_JWT_SECRET to that file's content, or better leave it unset and copy the file to every instance (docs/deploy.md)", path)
	}
	keys, err := db.SigningKeys(ctx)
	if err != nil {
		return err
	}
	if len(keys) > 0 {
		logger.Warn("SALAULA_JWT_SECRET is set: access tokens are signed with it (HS256); those signed with the stored ES256 keys are refused "+
			"until the app refreshes its session (sessions themselves go on). Unset it to go back to the ES256 keys.", "es256_keys", len(keys))
	}
	return nil
}

// scheduleBackups returns the backup scheduler SALAULA_BACKUP_EVERY asks
// for (nil when it is not set).
func scheduleBackups(cfg *config.Config, db *store.DB, st media.Store, logger *slog.Logger) (*backup.Scheduler, error) {
	if cfg.BackupEvery <= 0 {
		return nil, nil
	}
	s := &backup.Scheduler{Options: backup.Options{DB: db, DataDir: cfg.DataDir, Media: st}, Every: cfg.BackupEvery, Keep: cfg.BackupKeep, Dir: cfg.BackupDir,
		OnDone: func(path string, rep backup.Report) {
			logger.Info("backup written", "file", path, "tables", len(rep.Tables), "rows", rep.Rows, "media_files", rep.MediaFiles)
		},
		OnErr: func(err error) { logger.Error("backup failed", "err", err) }}
	if cfg.BackupS3.Bucket != "" {
		off, err := backup.NewOffSite(cfg.BackupS3)
		if err != nil {
			return nil, err
		}
		s.OffSite = off
	}
	return s, nil
}

// backupCollectors are the scheduled backups' metrics: when the last one
// was written and how many failed (none when backups are off).
func backupCollectors(s *backup.Scheduler) []prometheus.Collector {
	if s == nil {
		return nil
	}
	return []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "salaula_backup_last_success_timestamp_seconds",
			Help: "When the newest scheduled backup was written (Unix time; 0: none yet)."},
			func() float64 {
				if t := s.LastSuccess(); !t.IsZero() {
					return float64(t.Unix())
				}
				return 0
			}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "salaula_backup_failures_total",
			Help: "Scheduled backups that failed since the server started."},
			func() float64 { return float64(s.Failures()) }),
	}
}

// migrate applies the migrations and exits.
func migrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Parse("migrate", args, getenv, stderr)
	if err != nil {
		return err
	}
	if err := checkNotMoved(cfg); err != nil {
		return err
	}
	db, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer db.Close()
	applied, err := db.Migrate(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d migration(s) applied\n", len(applied))
	for _, name := range applied {
		fmt.Fprintln(stdout, " ", name)
	}
	return nil
}

// publicURLNotice is the start-up line of a server without --public-url:
// the address its e-mailed links carry (pages follow the address they
// were opened at; e-mails never take it from a request) and how to set it.
func publicURLNotice(url string) string {
	return "no public URL set: e-mailed links (confirm, reset, unsubscribe, share) will say " + url +
		"; set --public-url or SALAULA_PUBLIC_URL to the address people open"
}
