package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"salaula/internal/backup"
	"salaula/internal/config"
)

// backupCmd writes one backup archive while the server may be running:
// salaula admin backup --out FILE [--data DIR].
func backupCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("admin backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the archive to write, e.g. salaula-backup.tar.gz (required)")
	dataDir := fs.String("data", "", "data folder (SALAULA_DATA)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("admin backup: --out FILE is required")
	}
	if _, err := os.Stat(*out); err == nil {
		return fmt.Errorf("admin backup: %s exists; choose a new file name", *out)
	}
	cfgArgs := []string{}
	if *dataDir != "" {
		cfgArgs = append(cfgArgs, "--data", *dataDir)
	}
	cfg, err := config.Parse("admin backup", cfgArgs, getenv, stderr)
	if err != nil {
		return err
	}
	db, err := openAdminStore(ctx, "admin backup", cfgArgs, getenv, stderr)
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := backup.WriteFile(ctx, backup.Options{DB: db, DataDir: cfg.DataDir, S3Media: cfg.S3.Bucket != ""}, *out)
	if err != nil {
		return fmt.Errorf("admin backup: %w", err)
	}
	fmt.Fprintf(stdout, "%s written: database %s, %d media file(s), the signing secret (keep the archive private)\n",
		*out, map[bool]string{true: "included", false: "not included"}[rep.Database], rep.MediaFiles)
	for _, n := range rep.Notes {
		fmt.Fprintln(stdout, n)
	}
	return nil
}

// restoreCmd unpacks a backup into an empty data folder:
// salaula admin restore --from FILE --data DIR.
func restoreCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("admin restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the archive written by salaula admin backup (required)")
	dataDir := fs.String("data", "", "the new, empty data folder to restore into (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *from == "" || *dataDir == "" {
		return errors.New("admin restore: --from FILE and --data DIR are both required")
	}
	f, err := os.Open(*from)
	if err != nil {
		return fmt.Errorf("admin restore: %w", err)
	}
	defer f.Close()
	if err := backup.Restore(f, *dataDir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored into %s; start the server with --data %s\n", *dataDir, *dataDir)
	return nil
}
