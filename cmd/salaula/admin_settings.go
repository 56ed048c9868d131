package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"salaula/internal/apierr"
	"salaula/internal/config"
	"salaula/internal/settings"
)

// adminSettings runs `salaula admin settings show` and `salaula admin
// settings set KEY VALUE` (with --data DIR): the console's Settings page for
// the command line. A change is audited with the command line as actor.
func adminSettings(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	const want = "admin settings: want `admin settings show` or `admin settings set KEY VALUE`"
	if len(args) == 0 || (args[0] != "show" && args[0] != "set") {
		return errors.New(want)
	}
	rest := args[1:]
	var key, value string
	if args[0] == "set" {
		if len(rest) < 2 {
			return errors.New(want)
		}
		key, value, rest = rest[0], rest[1], rest[2:]
	}
	fs := flag.NewFlagSet("admin settings "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "data folder (SALAULA_DATA)")
	if err := fs.Parse(rest); err != nil {
		return err
	}
	cfgArgs := []string{}
	if *dataDir != "" {
		cfgArgs = append(cfgArgs, "--data", *dataDir)
	}
	cfg, err := config.Parse("admin settings", cfgArgs, getenv, stderr)
	if err != nil {
		return err
	}
	if args[0] == "set" {
		if _, err := settings.Clean(key, value); err != nil {
			return refused("admin settings set", err) // refused before the database is opened
		}
	}
	db, err := openAdminStore(ctx, "admin settings", cfgArgs, getenv, stderr)
	if err != nil {
		return err
	}
	defer db.Close()
	if args[0] == "set" {
		stored, err := settings.Set(ctx, db, settings.Actor{Email: "command line", IP: "command line"}, key, value)
		if err != nil {
			return refused("admin settings set", err)
		}
		fmt.Fprintf(stdout, "%s = %s\n", key, stored)
		return nil
	}
	v, err := settings.All(ctx, db, cfg.SupportEmail)
	if err != nil {
		return err
	}
	for _, k := range settings.Keys() {
		fmt.Fprintf(stdout, "%s = %s\n", k, v[k])
	}
	return nil
}

// refused is err of the command what as the command line tells it: a
// rule's refusal by its own sentence (an *apierr.Error's Message), anything
// else as it is.
func refused(what string, err error) error {
	if e := apierr.As(err); e != nil && e.Message != "" {
		return fmt.Errorf("%s: %s", what, e.Message)
	}
	return fmt.Errorf("%s: %w", what, err)
}
