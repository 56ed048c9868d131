// Command salaula is the whole Salaula backend in one binary: `salaula serve`
// serves the React app, the APIs and media; the other subcommands migrate the
// database and help the operators (see `salaula help`).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"salaula/internal/config"
	"salaula/internal/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr); err != nil {
		if !errors.As(err, new(loggedError)) {
			fmt.Fprintln(os.Stderr, "salaula:", err)
		}
		os.Exit(1)
	}
}

// loggedError is an error `salaula serve` stopped with, already written to
// its log as a JSON line: main prints it no more.
type loggedError struct{ error }

func (e loggedError) Unwrap() error { return e.error }

const usage = `salaula: the Salaula marketplace server

Usage:
  salaula serve   [--http ADDR] [--data DIR] [--public-url URL]   serve the app and the APIs
  salaula migrate [--data DIR]                                    apply database migrations and exit
  salaula admin grant  EMAIL [--data DIR]                         make an account an operator
  salaula admin revoke EMAIL [--data DIR]                         take the operator role away
  salaula admin export waitlist [--program NAME] [--data DIR]     waitlist sign-ups as CSV on stdout
  salaula admin export messages [--data DIR]                      contact messages as CSV on stdout
  salaula admin export profiles [--data DIR]                      profiles as CSV on stdout
  salaula admin mail --to EMAIL [--limit N] [--data DIR]          the newest e-mails sent to EMAIL (links to open)
  salaula admin reset-mfa EMAIL [--data DIR]                      remove an account's two-step sign-in (lost phone)
  salaula admin keys list [--data DIR]                            the access-token signing keys: the one that signs, until when the others verify
  salaula admin keys rotate [--data DIR]                          new access-token signing key; old ones verify until their tokens expire
  salaula admin keys revoke KID [--data DIR]                      a leaked key: its tokens stop working at once (a signing key is replaced first)
  salaula admin user export EMAIL [--data DIR]                   everything held about an account, as JSON on stdout
  salaula admin user delete EMAIL [--data DIR]                   delete an account and everything held about it
  salaula admin backup --out FILE [--data DIR]                    a consistent backup archive, while the server runs
  salaula admin restore --from FILE --data DIR                    restore a backup into a new, empty data folder,
                                                                  or into PostgreSQL (DATABASE_URL) and S3 (SALAULA_S3_*)
  salaula admin settings show [--data DIR]                       the site settings (contact details, social, team)
  salaula admin settings set KEY VALUE [--data DIR]              change one site setting (audited)
  salaula version                                                 print the version

Every command takes --env-file FILE (or SALAULA_ENV_FILE=FILE): the settings file the
service reads (docs/deploy.md), under what the environment already sets.
DATABASE_URL=postgres://... switches every command from SQLite to PostgreSQL.
Every setting is listed in README.md.
`

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// run is the program with its outside world passed in, so tests can call it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("missing command")
	}
	cmd := args[1]
	rest, getenv, err := config.WithEnvFile(args[2:], getenv)
	if err != nil {
		return err
	}
	switch cmd {
	case "serve":
		// The service's log is JSON lines, read with jq: the error it
		// stops with (an address in use, a refused data folder) is one too.
		if err := serve(ctx, rest, getenv, stdout, stderr); err != nil {
			slog.New(server.NewLogHandler(stdout, slog.LevelError, "")).Error("serve stopped", "err", err.Error())
			return loggedError{err}
		}
		return nil
	case "migrate":
		return migrate(ctx, rest, getenv, stdout, stderr)
	case "admin":
		return admin(ctx, rest, getenv, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "salaula", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", cmd)
	}
}
