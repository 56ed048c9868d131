package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/store"
)

// admin runs the operators' subcommands: grant/revoke the operator role,
// export data as CSV, and show the e-mails the server sent. They work while the server runs, on either database.
func admin(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("admin: missing subcommand (grant, revoke, export, mail, backup or restore)")
	}
	switch args[0] {
	case "grant", "revoke":
		if len(args) < 2 || len(args[1]) == 0 || args[1][0] == '-' {
			return fmt.Errorf("admin %s: missing EMAIL", args[0])
		}
		db, err := openAdminStore(ctx, "admin "+args[0], args[2:], getenv, stderr)
		if err != nil {
			return err
		}
		defer db.Close()
		if err := db.SetAdmin(ctx, normaliseEmail(args[1]), args[0] == "grant"); errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("admin %s: no account has the e-mail %s", args[0], args[1])
		} else if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: operator role %sed\n", args[1], map[string]string{"grant": "grant", "revoke": "revok"}[args[0]])
		return nil
	case "export":
		if len(args) < 2 {
			return errors.New("admin export: say what to export: waitlist, messages or profiles")
		}
		fs := flag.NewFlagSet("admin export "+args[1], flag.ContinueOnError)
		fs.SetOutput(stderr)
		program := fs.String("program", "", "only sign-ups of this program (waitlist)")
		dataDir := fs.String("data", "", "data folder (SALAULA_DATA)")
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		cfgArgs := []string{}
		if *dataDir != "" {
			cfgArgs = append(cfgArgs, "--data", *dataDir)
		}
		db, err := openAdminStore(ctx, "admin export", cfgArgs, getenv, stderr)
		if err != nil {
			return err
		}
		defer db.Close()
		return exportCSV(ctx, db, args[1], *program, stdout)
	case "mail":
		return printMail(ctx, args[1:], getenv, stdout, stderr)
	case "backup":
		return backupCmd(ctx, args[1:], getenv, stdout, stderr)
	case "restore":
		return restoreCmd(ctx, args[1:], stdout, stderr)
	default:
		return fmt.Errorf("admin: unknown subcommand %q", args[0])
	}
}

// openAdminStore opens and migrates the database named by the flags in args
// and the environment, logging nothing.
func openAdminStore(ctx context.Context, name string, args []string, getenv func(string) string, stderr io.Writer) (*store.DB, error) {
	cfg, err := config.Parse(name, args, getenv, stderr)
	if err != nil {
		return nil, err
	}
	return openStore(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// printMail shows the newest e-mails the server sent to one address, newest
// first, so a developer without SMTP can open a reset or unsubscribe link.
func printMail(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("admin mail", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := fs.String("to", "", "the recipient's e-mail address (required)")
	limit := fs.Int("limit", 5, "how many e-mails at most")
	dataDir := fs.String("data", "", "data folder (SALAULA_DATA)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if strings.TrimSpace(*to) == "" {
		return errors.New("admin mail: --to EMAIL is required")
	}
	if *limit < 1 || *limit > 1000 {
		return errors.New("admin mail: --limit must be between 1 and 1000")
	}
	cfgArgs := []string{}
	if *dataDir != "" {
		cfgArgs = append(cfgArgs, "--data", *dataDir)
	}
	db, err := openAdminStore(ctx, "admin mail", cfgArgs, getenv, stderr)
	if err != nil {
		return err
	}
	defer db.Close()
	sent, err := mail.Recent(ctx, db, normaliseEmail(*to), *limit)
	if err != nil {
		return err
	}
	if len(sent) == 0 {
		fmt.Fprintf(stderr, "no e-mail sent to %s\n", *to)
		return nil
	}
	for i, m := range sent {
		if i > 0 {
			fmt.Fprintln(stdout, "----")
		}
		fmt.Fprintf(stdout, "To: %s\nSubject: %s\nKind: %s\nSent: %s (via %s)\n\n%s\n",
			m.To, m.Subject, m.Kind, m.CreatedAt.UTC().Format(time.RFC3339), m.Via, strings.TrimRight(m.Body, "\n"))
	}
	return nil
}
