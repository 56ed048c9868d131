package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"salaula/internal/auth"
	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/seal"
	"salaula/internal/store"
	"salaula/internal/token"
)

// admin runs the operators' subcommands: grant/revoke the operator role,
// export data as CSV, and show the e-mails the server sent. They work while the server runs, on either database.
func admin(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("admin: missing subcommand (grant, revoke, export, mail, user, settings, reset-mfa, keys, backup or restore)")
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
		if args[0] == "grant" {
			fmt.Fprintln(stdout, "The console needs two-step sign-in: at their first visit to /admin it walks them through enrolling an authenticator app (QR code to scan; or Account > Two-step sign-in, /account/security), then asks for its code at every sign-in.")
		}
		return nil
	case "reset-mfa":
		if len(args) < 2 || len(args[1]) == 0 || args[1][0] == '-' {
			return errors.New("admin reset-mfa: missing EMAIL")
		}
		db, err := openAdminStore(ctx, "admin reset-mfa", args[2:], getenv, stderr)
		if err != nil {
			return err
		}
		defer db.Close()
		n, err := (&auth.Service{DB: db}).ResetMFA(ctx, normaliseEmail(args[1]))
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("admin reset-mfa: no account has the e-mail %s", args[1])
		} else if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d second factor(s) removed; they sign in with their password alone until they enrol again\n", args[1], n)
		return nil
	case "keys":
		return adminKeys(ctx, args[1:], getenv, stdout, stderr)
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
	case "user":
		return adminUser(ctx, args[1:], getenv, stdout, stderr)
	case "backup":
		return backupCmd(ctx, args[1:], getenv, stdout, stderr)
	case "restore":
		return restoreCmd(ctx, args[1:], getenv, stdout, stderr)
	case "settings":
		return adminSettings(ctx, args[1:], getenv, stdout, stderr)
	default:
		return fmt.Errorf("admin: unknown subcommand %q", args[0])
	}
}

// adminKeys runs `salaula admin keys list|rotate|revoke KID`. Running
// servers see the change within a second, on every instance.
func adminKeys(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || !slices.Contains([]string{"list", "rotate", "revoke"}, args[0]) {
		return errors.New("admin keys: say what to do: list, rotate or revoke KID")
	}
	verb, kid := args[0], ""
	if verb == "revoke" {
		if len(args) < 2 || args[1] == "" || args[1][0] == '-' {
			return errors.New("admin keys revoke: missing KID (the kid in a token's header; `salaula admin keys list` shows them)")
		}
		kid, args = args[1], args[1:]
	}
	name := "admin keys " + verb
	cfg, err := config.Parse(name, args[1:], getenv, stderr)
	if err != nil {
		return err
	}
	if cfg.JWTSecret != "" {
		return fmt.Errorf("%s: SALAULA_JWT_SECRET is set, so tokens are signed with that shared secret (HS256) and there are no keys to %s; unset it (ES256 keys) or change the secret", name, verb)
	}
	secret, err := cfg.Secret()
	if err != nil {
		return err
	}
	db, err := openStore(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer db.Close()
	box, err := seal.New(secret, token.SealPurpose)
	if err != nil {
		return err
	}
	now := time.Now()
	keep := cfg.AccessTokenTTL + token.Leeway
	// Loading checks that the stored keys open with this server secret
	// (and makes the first key of a new database).
	if _, err := token.LoadES256(ctx, db, box, keep, now); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	switch verb {
	case "list":
		return listKeys(ctx, db, keep, now, stdout)
	case "revoke":
		next, err := token.Revoke(ctx, db, box, kid, now)
		if errors.Is(err, token.ErrNoSuchKey) {
			return fmt.Errorf("%s: no signing key has the kid %s (`salaula admin keys list` shows them)", name, kid)
		} else if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "signing key %s revoked: running servers refuse the tokens it signed within a second\n", kid)
		if next != nil {
			fmt.Fprintf(stdout, "it was the signing key: new signing key %s signs from now on; people signed in get tokens of it when they next refresh their session\n", next.ID)
		}
		return nil
	}
	k, err := token.Rotate(ctx, db, box, now)
	if err != nil {
		return err
	}
	gone, err := db.DeleteSigningKeysRetiredBefore(ctx, now.Add(-keep))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "new signing key %s, used by running servers within a second; the previous keys verify tokens until %s (access tokens live %s); %d expired key(s) forgotten\n",
		k.ID, now.Add(keep).UTC().Format(time.RFC3339), cfg.AccessTokenTTL, gone)
	return nil
}

// listKeys prints the stored signing keys, newest first: kid, when it was
// made and what it does now (signs, or verifies until when).
func listKeys(ctx context.Context, db *store.DB, keep time.Duration, now time.Time, stdout io.Writer) error {
	keys, err := db.SigningKeys(ctx)
	if err != nil {
		return err
	}
	for _, k := range keys {
		state := "signs"
		if k.RetiredAt != nil {
			until := k.RetiredAt.Add(keep)
			state = "retired, verifies until " + until.UTC().Format(time.RFC3339)
			if !until.After(now) {
				state = "retired, verifies nothing (its tokens have expired)"
			}
		}
		fmt.Fprintf(stdout, "%s  %s  made %s  %s\n", k.ID, k.Alg, k.CreatedAt.UTC().Format(time.RFC3339), state)
	}
	return nil
}

// openAdminStore opens and migrates the database named by the flags in args
// and the environment, logging nothing.
func openAdminStore(ctx context.Context, name string, args []string, getenv func(string) string, stderr io.Writer) (*store.DB, error) {
	cfg, err := config.Parse(name, args, getenv, stderr)
	if err != nil {
		return nil, err
	}
	return openStore(ctx, cfg, discardLogger())
}

// discardLogger logs nothing (the admin commands print their own output).
func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// mailState says where an e-mail is: sent (when, how), queued, or failing
// (attempts and the last error).
func mailState(m mail.Sent) string {
	switch m.State {
	case "sent":
		if m.SentAt != nil {
			return fmt.Sprintf("sent %s via %s", m.SentAt.UTC().Format(time.RFC3339), m.Via)
		}
		return "sent via " + m.Via
	case "failing", "failed":
		return fmt.Sprintf("%s after %d attempt(s): %s", m.State, m.Attempts, m.LastError)
	default:
		return m.State
	}
}

// printMail shows the newest e-mails to one address, newest first, with
// the state of each (queued, sent, failing), so a developer without SMTP can
// open a reset or unsubscribe link.
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
		fmt.Fprintf(stdout, "To: %s\nSubject: %s\nKind: %s\nQueued: %s\nState: %s\n\n%s\n",
			m.To, m.Subject, m.Kind, m.CreatedAt.UTC().Format(time.RFC3339), mailState(m), strings.TrimRight(m.Body, "\n"))
	}
	return nil
}
