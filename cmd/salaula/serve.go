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
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

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

// openStore opens and migrates the configured database.
func openStore(ctx context.Context, cfg *config.Config, logger *slog.Logger) (*store.DB, error) {
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
	logs := newLogBuffer(stdout)
	defer logs.Close()
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	secret, err := cfg.Secret()
	if err != nil {
		return err
	}
	db, err := openStore(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer db.Close()
	defer processorsFor(db, getenv, logger)()
	defer func() {
		if st := db.WriteStats(); st.Commits > 0 {
			logger.Info("group commit", "commits", st.Commits, "writes", st.Writes, "largest", st.Largest, "statements", st.Statements,
				"mean", float64(st.Writes)/float64(st.Commits), "sizes", st.Sizes, "bounds", store.GroupSizeBounds)
		}
	}()
	mediaStore, err := openMedia(cfg)
	if err != nil {
		return err
	}
	mailer, err := mail.New(db, cfg.MailFrom, cfg.SMTPURL, logger)
	if err != nil {
		return err
	}
	// The e-mail sender runs until the server has stopped, so e-mails
	// queued by the last requests still go out (or wait for the next start).
	senderCtx, stopSender := context.WithCancel(context.WithoutCancel(ctx))
	senderDone := make(chan struct{})
	go func() { defer close(senderDone); mailer.Run(senderCtx) }()
	defer func() { stopSender(); <-senderDone }()
	stats := analytics.New(db, nil)
	realtimeClosed := make(chan struct{})
	handler, metricsHandler, err := server.NewWithMetrics(server.Deps{Config: cfg, DB: db, Secret: secret, Mailer: mailer, Media: mediaStore, Logger: logger, App: appFS(),
		Analytics: stats, Context: ctx, Stopped: realtimeClosed})
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
	go rules.SweepEvery(ctx, account.DefaultRetention(cfg.ConfirmEmail), sweepInterval)
	go stats.RollupEvery(ctx, sweepInterval, logger)
	// Start-up (migrations, compressing the app, the dummy password hash)
	// leaves garbage behind; hand its pages back to the system now rather
	// than keep them resident until the background scavenger gets to them.
	debug.FreeOSMemory()
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return err
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
	if cfg.BackupEvery > 0 {
		go backup.Schedule(ctx, backup.Options{DB: db, DataDir: cfg.DataDir, S3Media: cfg.S3.Bucket != ""}, cfg.BackupEvery, cfg.BackupKeep,
			func(path string, rep backup.Report) {
				logger.Info("backup written", "file", path, "database", rep.Database, "media_files", rep.MediaFiles, "notes", rep.Notes)
			},
			func(err error) { logger.Error("backup failed", "err", err) })
	}
	logger.Info("serving", "addr", ln.Addr().String(), "url", cfg.PublicURL, "database", string(db.Dialect()), "data", cfg.DataDir)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", cfg.ShutdownTimeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	select { // realtime sockets are not HTTP requests: Shutdown does not wait for them
	case <-realtimeClosed:
	case <-shutdownCtx.Done():
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}

// defaultProcs is how many goroutines Go runs at once by default here (the
// CPUs, or the container's CPU limit, or GOMAXPROCS when it is set), read
// before serve changes it.
var defaultProcs = runtime.GOMAXPROCS(0)

// processorsFor sets how many goroutines run at once for db's engine while
// the server runs, and returns a function that stops doing so and puts the
// setting back. On SQLite every write is committed by one goroutine in this
// process (the group-commit writer), which holds a processor for a group's
// statements (about half a millisecond under load) and whose answers wake
// the requests' goroutines onto that same processor's queue: with as many
// processors as CPUs, under a stream of writes those goroutines wait behind
// the writer's next group unless the one other processor is free. One
// processor more than CPUs lets them run at once, the kernel sharing the
// CPUs between the threads (c16 sign-ups +8 %, docs/decisions.md). But an
// idle processor costs whenever the server is not saturated: each
// goroutine woken wakes a thread to look for work on it, and one finding
// work wakes the next (a sequential sign-in's work above the hash +6 %).
// So the extra processor runs only while writes queue for the writer (see
// processorPolicy). On PostgreSQL the writer waits on the network and
// nothing changes. A GOMAXPROCS set in the environment is kept.
func processorsFor(db *store.DB, getenv func(string) string, logger *slog.Logger) (stop func()) {
	if db.Dialect() != store.SQLite || getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	prev := runtime.GOMAXPROCS(0)
	policy := &processorPolicy{base: defaultProcs, procs: prev, last: db.WriteStats()}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(processorPoll)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
			if n, changed := policy.observe(db.WriteStats()); changed {
				runtime.GOMAXPROCS(n)
				logger.Debug("processors", "gomaxprocs", n, "cpus", defaultProcs)
			}
		}
	}()
	return func() {
		close(quit)
		<-done
		runtime.GOMAXPROCS(prev)
	}
}

// How the processor count follows the writer: it looks every
// processorPoll; writes queue for the writer when a poll saw at least
// queuedCommits commits carrying on average a quarter more writes than
// commits (groups, not lone writes); after quietPolls polls without, the
// extra processor goes. A change stops the world for a moment, so it is
// made at most once per quietPolls polls.
const (
	processorPoll = 200 * time.Millisecond
	queuedCommits = 20
	quietPolls    = 10
)

// processorPolicy decides from the writer's counts how many processors to
// run: base (the CPUs) while writes come one at a time, base+1 while they
// queue for the writer.
type processorPolicy struct {
	base, procs int
	quiet       int              // polls since writes last queued
	last        store.WriteStats // the counts at the previous poll
}

// observe takes the writer's counts at a poll and returns how many
// processors to run and whether that is a change.
func (p *processorPolicy) observe(st store.WriteStats) (procs int, changed bool) {
	commits, writes := st.Commits-p.last.Commits, st.Writes-p.last.Writes
	p.last = st
	want := p.procs
	switch {
	case commits >= queuedCommits && 4*writes >= 5*commits:
		p.quiet = 0
		want = p.base + 1
	case p.procs != p.base:
		if p.quiet++; p.quiet >= quietPolls {
			want = p.base
		}
	}
	changed = want != p.procs
	p.procs = want
	return want, changed
}

// migrate applies the migrations and exits.
func migrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Parse("migrate", args, getenv, stderr)
	if err != nil {
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
