// Package backup writes and restores Salaula's backups: one gzipped tar
// archive with a consistent copy of the SQLite database (VACUUM INTO, taken
// while the server runs), the media folder and the token-signing secret.
// On PostgreSQL the database is backed up with pg_dump instead, and with
// media on S3 the bucket's own versioning is the media backup; the archive
// then holds what is left on local disk.
package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"salaula/internal/store"
)

// Names of the files inside an archive (and in a data folder).
const (
	DBFile     = "salaula.db"
	MediaDir   = "media"
	SecretFile = "jwt-secret"
)

// Options says what to back up.
type Options struct {
	DB      *store.DB
	DataDir string // the server's data folder
	S3Media bool   // media live in S3, not under DataDir/media
}

// Report says what an archive holds and what it left to other tools.
type Report struct {
	Database   bool     // the SQLite database is in the archive
	MediaFiles int      // media files in the archive
	Notes      []string // what the operator must back up another way
}

// Write writes one archive to w. The database copy is taken first, in one
// read transaction (VACUUM INTO), so it is consistent; the media folder is
// copied after it, so every photo the copied database knows is in the archive.
func Write(ctx context.Context, o Options, w io.Writer) (Report, error) {
	var rep Report
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	if o.DB.Dialect() == store.SQLite {
		tmp, err := os.MkdirTemp("", "salaula-backup-")
		if err != nil {
			return rep, err
		}
		defer os.RemoveAll(tmp)
		snap := filepath.Join(tmp, DBFile)
		if err := o.DB.SnapshotSQLite(ctx, snap); err != nil {
			return rep, fmt.Errorf("copy the database: %w", err)
		}
		if err := addFile(tw, snap, DBFile); err != nil {
			return rep, err
		}
		rep.Database = true
	} else {
		rep.Notes = append(rep.Notes, "The database is PostgreSQL: back it up with pg_dump, e.g. "+
			"pg_dump --format=custom --file=salaula.dump \"$DATABASE_URL\" (restore with pg_restore --dbname=...).")
	}
	if secret := filepath.Join(o.DataDir, SecretFile); fileExists(secret) {
		if err := addFile(tw, secret, SecretFile); err != nil {
			return rep, err
		}
	}
	if o.S3Media {
		rep.Notes = append(rep.Notes, "Media are in S3: turn on the bucket's versioning (and a lifecycle rule for old versions); "+
			"that is their backup.")
	} else {
		n, err := addMedia(ctx, tw, filepath.Join(o.DataDir, MediaDir))
		if err != nil {
			return rep, err
		}
		rep.MediaFiles = n
	}
	if err := tw.Close(); err != nil {
		return rep, err
	}
	return rep, gz.Close()
}

// addMedia adds every finished file under dir (not uploads in progress).
func addMedia(ctx context.Context, tw *tar.Writer, dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".upload-") || strings.HasPrefix(d.Name(), ".meta-") {
			return nil // a write in progress: its final file appears by rename
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if err := addFile(tw, p, MediaDir+"/"+filepath.ToSlash(rel)); errors.Is(err, fs.ErrNotExist) {
			return nil // replaced or deleted meanwhile
		} else if err != nil {
			return err
		}
		if !strings.HasSuffix(p, ".meta") {
			n++
		}
		return nil
	})
	return n, err
}

func addFile(tw *tar.Writer, path, name string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	hdr := &tar.Header{Name: name, Mode: int64(st.Mode().Perm()), Size: st.Size(), ModTime: st.ModTime(), Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err = io.CopyN(tw, f, st.Size())
	return err
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Restore unpacks an archive into dataDir, which must be empty or not yet
// exist. It accepts only plain files under the names Write uses.
func Restore(r io.Reader, dataDir string) error {
	if entries, err := os.ReadDir(dataDir); err == nil && len(entries) > 0 {
		return fmt.Errorf("restore: %s is not empty; restore into a new, empty folder", dataDir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return err
	}
	gz, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("restore: not a Salaula backup (gzip): %w", err)
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("restore: damaged archive: %w", err)
		}
		name := filepath.FromSlash(hdr.Name)
		if hdr.Typeflag != tar.TypeReg || !filepath.IsLocal(name) ||
			(name != DBFile && name != SecretFile && !strings.HasPrefix(name, MediaDir+string(filepath.Separator))) {
			return fmt.Errorf("restore: unexpected entry %q in the archive", hdr.Name)
		}
		dst := filepath.Join(dataDir, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
			return err
		}
		mode := os.FileMode(0o640)
		if name == SecretFile {
			mode = 0o600
		}
		f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, tr); err != nil {
			f.Close()
			return fmt.Errorf("restore %s: %w", hdr.Name, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
}

// FileName is the name of a scheduled backup taken at t.
func FileName(t time.Time) string {
	return "salaula-" + t.UTC().Format("20060102T150405.000Z") + ".tar.gz"
}

// WriteFile writes an archive to path atomically (a temporary file renamed
// into place), readable by its owner only: it holds the signing secret.
func WriteFile(ctx context.Context, o Options, path string) (Report, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Report{}, err
	}
	tmp, err := os.CreateTemp(dir, ".backup-*")
	if err != nil {
		return Report{}, err
	}
	defer os.Remove(tmp.Name())
	rep, err := Write(ctx, o, tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return rep, err
	}
	return rep, os.Rename(tmp.Name(), path)
}

// Prune deletes the oldest scheduled backups in dir beyond the newest keep.
func Prune(dir string, keep int) error {
	names, err := filepath.Glob(filepath.Join(dir, "salaula-*.tar.gz"))
	if err != nil {
		return err
	}
	sort.Strings(names) // the names sort by time
	for len(names) > keep {
		if err := os.Remove(names[0]); err != nil {
			return err
		}
		names = names[1:]
	}
	return nil
}

// Schedule writes a backup into DataDir/backups every interval and keeps the
// newest keep, until ctx ends. Failures are reported to onErr and retried at
// the next interval.
func Schedule(ctx context.Context, o Options, every time.Duration, keep int, onDone func(string, Report), onErr func(error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	dir := filepath.Join(o.DataDir, "backups")
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			path := filepath.Join(dir, FileName(now))
			rep, err := WriteFile(ctx, o, path)
			if err == nil {
				err = Prune(dir, keep)
			}
			if err != nil {
				onErr(err)
				continue
			}
			onDone(path, rep)
		}
	}
}
