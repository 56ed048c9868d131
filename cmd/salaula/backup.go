package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"salaula/internal/backup"
	"salaula/internal/config"
	"salaula/internal/media"
	"salaula/internal/store"
)

// backupCmd writes one backup archive while the server may be running, on
// either database: salaula admin backup --out FILE [--data DIR].
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
	cfg, err := config.Parse("admin backup", dataArgs(*dataDir), getenv, stderr)
	if err != nil {
		return err
	}
	db, err := openStore(ctx, cfg, discardLogger())
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := openMedia(cfg)
	if err != nil {
		return err
	}
	rep, err := backup.WriteFile(ctx, backup.Options{DB: db, DataDir: cfg.DataDir, Media: st}, *out)
	if err != nil {
		return fmt.Errorf("admin backup: %w", err)
	}
	fmt.Fprintf(stdout, "%s written: database included (%s, %d tables, %d rows), %d media file(s), the signing secret (keep the archive private)\n",
		*out, db.Dialect(), len(rep.Tables), rep.Rows, rep.MediaFiles)
	if rep.MediaMissing > 0 {
		fmt.Fprintf(stdout, "%d media object(s) were deleted while the backup ran and are not in it\n", rep.MediaMissing)
	}
	return nil
}

// restoreCmd restores an archive into a new, empty data folder (SQLite) or
// an empty PostgreSQL database (DATABASE_URL), with the media going to the
// configured store (S3 when SALAULA_S3_BUCKET is set):
// salaula admin restore --from FILE [--data DIR].
func restoreCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("admin restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the archive written by salaula admin backup (required)")
	dataDir := fs.String("data", "", "the data folder to restore into: new and empty for SQLite (SALAULA_DATA)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *from == "" || (*dataDir == "" && getenv("SALAULA_DATA") == "") {
		return errors.New("admin restore: --from FILE and --data DIR are both required")
	}
	cfg, err := config.Parse("admin restore", dataArgs(*dataDir), getenv, stderr)
	if err != nil {
		return err
	}
	f, err := os.Open(*from)
	if err != nil {
		return fmt.Errorf("admin restore: %w", err)
	}
	defer f.Close()
	target := backup.Target{
		DataDir:  cfg.DataDir,
		Postgres: cfg.DatabaseURL != "",
		OpenDB: func(ctx context.Context) (*store.DB, error) {
			return backup.OpenEmpty(ctx, cfg.DatabaseURL, cfg.DataDir)
		},
		OpenMedia: func() (media.Store, error) { return openMedia(cfg) },
	}
	rep, err := backup.Restore(ctx, f, target)
	if err != nil {
		return err
	}
	where := "SQLite in " + cfg.DataDir
	if target.Postgres {
		where = "PostgreSQL (DATABASE_URL)"
	}
	fmt.Fprintf(stdout, "restored into %s; every table's row count matches the archive:\n", where)
	for _, t := range rep.Tables {
		fmt.Fprintf(stdout, "  %-28s %d\n", t.Name, t.Rows)
	}
	for _, t := range rep.Cleaned {
		fmt.Fprintf(stdout, "cleaned: %d row(s) of %s held NUL bytes, which PostgreSQL cannot hold; they were loaded without them\n", t.Rows, t.Name)
	}
	mediaWhere := filepath.Join(cfg.DataDir, "media")
	if cfg.S3.Bucket != "" {
		mediaWhere = "S3 bucket " + cfg.S3.Bucket
	}
	fmt.Fprintf(stdout, "%d media file(s) into %s\n", rep.MediaFiles, mediaWhere)
	if rep.Format == 1 {
		fmt.Fprintln(stdout, "(an archive of an earlier version: the database file and media folder were unpacked as they were)")
	}
	fmt.Fprintf(stdout, "start the server with the same settings (data folder %s)\n", cfg.DataDir)
	return nil
}

// dataArgs passes a --data flag on to config.Parse when it was given.
func dataArgs(dir string) []string {
	if dir == "" {
		return nil
	}
	return []string{"--data", dir}
}
