package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"sort"

	"salaula/internal/account"
	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/store"
)

// auditLog is how `admin user export|delete` record what an operator did
// in the audit log (the console shows it): who (the command line), what,
// and which account (by e-mail, since a deleted account has no row left).
var auditLog = func(db *store.DB) account.AuditFunc {
	return func(ctx context.Context, actor, action, subject string) error {
		return store.AppendAudit(ctx, db, &store.AuditEntry{
			ActorEmail: actor, Action: action, TargetType: "user", TargetID: subject,
			Detail: map[string]any{"email": subject}, IP: "command line",
		})
	}
}

// adminUser runs `salaula admin user export|delete EMAIL [--data DIR]`: the
// account page's export and delete for requests that arrive by e-mail or
// letter. Export writes the JSON document to stdout; delete removes the
// account and everything held about it, e-mails the confirmation and prints
// what went.
func adminUser(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 || (args[0] != "export" && args[0] != "delete") || args[1] == "" || args[1][0] == '-' {
		return errors.New("admin user: want `admin user export EMAIL` or `admin user delete EMAIL`")
	}
	verb, email := args[0], args[1]
	fs := flag.NewFlagSet("admin user "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "data folder (SALAULA_DATA)")
	if err := fs.Parse(args[2:]); err != nil {
		return err
	}
	cfgArgs := []string{}
	if *dataDir != "" {
		cfgArgs = append(cfgArgs, "--data", *dataDir)
	}
	cfg, err := config.Parse("admin user "+verb, cfgArgs, getenv, stderr)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := openStore(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer db.Close()
	media, err := openMedia(cfg)
	if err != nil {
		return err
	}
	mailer, err := mail.New(db, cfg.MailFrom, cfg.SMTPURL, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	rules := &account.Rules{DB: db, Media: media, Mailer: mailer, SupportEmail: cfg.SupportEmail, Audit: auditLog(db), Logger: logger}
	const actor = "operator (command line)"
	if verb == "export" {
		x, err := rules.ExportByEmail(ctx, actor, email, cfg.PublicURL)
		if errors.Is(err, account.ErrNoAccount) {
			return fmt.Errorf("admin user export: no account has the e-mail %s", email)
		}
		if err != nil {
			return err
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(x)
	}
	d, err := rules.DeleteByEmail(ctx, actor, email)
	if errors.Is(err, account.ErrNoAccount) {
		return fmt.Errorf("admin user delete: no account has the e-mail %s", email)
	}
	if d != nil {
		fmt.Fprintf(stdout, "%s: account deleted, %d file(s) removed\n", d.Email, d.Files)
		tables := make([]string, 0, len(d.Rows))
		for t := range d.Rows {
			tables = append(tables, t)
		}
		sort.Strings(tables)
		for _, t := range tables {
			fmt.Fprintf(stdout, "  %-18s %d row(s)\n", t, d.Rows[t])
		}
	}
	return err
}
