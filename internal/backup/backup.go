// Package backup writes and restores Salaula's backups: one gzipped tar
// archive, the same for both databases. It holds a manifest (the row count
// of every table), every table as JSON lines read in one consistent
// snapshot (internal/store's Dump), the token-signing secret, and every
// media object the snapshot records, read from the media store (disk or
// S3). A restore loads it into a new SQLite folder or an empty PostgreSQL
// database, checks every table's row count, and puts the media into the
// configured store (disk or S3) in that store's own format; one that fails
// takes back what it wrote.
package backup

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"salaula/internal/media"
	"salaula/internal/store"
)

// Names of the entries of an archive (and of files in a data folder).
const (
	ManifestFile = "salaula-backup.json" // the first entry: what the archive holds
	TablesDir    = "database"            // database/TABLE.jsonl: a table's columns, then one row a line
	MediaDir     = "media"               // media/KEY: one media object's bytes
	SecretFile   = "jwt-secret"          // the server secret (seals the token-signing keys)
	DBFile       = "salaula.db"          // archives of earlier versions: the SQLite file itself
	// MovedFile in a data folder says its database moved to PostgreSQL:
	// commands refuse to open SQLite there.
	MovedFile = "MOVED-TO-POSTGRESQL"
)

// Format is the version of the archive layout Write writes.
const Format = 2

// contentTypeRecord is the tar PAX record holding a media object's type.
const contentTypeRecord = "SALAULA.content_type"

// Manifest is the archive's first entry.
type Manifest struct {
	Format   int          `json:"format"`
	Database string       `json:"database"` // the engine it was taken from: sqlite or postgres
	TakenAt  time.Time    `json:"taken_at"`
	Tables   []TableCount `json:"tables"`
}

// TableCount is one table's row count.
type TableCount struct {
	Name string `json:"name"`
	Rows int64  `json:"rows"`
}

// Options says what to back up.
type Options struct {
	DB      *store.DB
	DataDir string      // the server's data folder (the secret)
	Media   media.Store // where the media live (disk or S3)
}

// Report says what an archive holds.
type Report struct {
	Tables       []TableCount
	Rows         int64 // rows in all tables
	MediaFiles   int   // media objects in the archive
	MediaMissing int   // objects recorded in the snapshot but deleted before they were copied
}

// Write writes one archive to w. The tables are read first, in one snapshot,
// so they are consistent; then every media object the snapshot records is
// copied from the media store, so every photo the copied database knows is
// in the archive (but one deleted meanwhile).
func Write(ctx context.Context, o Options, w io.Writer) (Report, error) {
	var rep Report
	tmp, err := os.MkdirTemp("", "salaula-backup-")
	if err != nil {
		return rep, err
	}
	defer os.RemoveAll(tmp)
	dump := &dumpFiles{dir: tmp}
	err = o.DB.Dump(ctx, dump)
	if cerr := dump.closeFile(); err == nil {
		err = cerr
	}
	if err != nil {
		return rep, fmt.Errorf("copy the database: %w", err)
	}
	rep.Tables = dump.counts
	for _, c := range dump.counts {
		rep.Rows += c.Rows
	}
	man, err := json.MarshalIndent(Manifest{Format: Format, Database: string(o.DB.Dialect()), TakenAt: time.Now().UTC(), Tables: dump.counts}, "", "  ")
	if err != nil {
		return rep, err
	}
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	if err := addBytes(tw, ManifestFile, man, 0o600); err != nil {
		return rep, err
	}
	if secret := filepath.Join(o.DataDir, SecretFile); fileExists(secret) {
		if err := addFile(tw, secret, SecretFile); err != nil {
			return rep, err
		}
	}
	for i, c := range dump.counts {
		if err := addFile(tw, dump.paths[i], TablesDir+"/"+c.Name+".jsonl"); err != nil {
			return rep, err
		}
	}
	for _, m := range dump.media {
		ok, err := addObject(ctx, tw, o.Media, m[0], m[1])
		if err != nil {
			return rep, fmt.Errorf("copy media %s: %w", m[0], err)
		}
		if ok {
			rep.MediaFiles++
		} else {
			rep.MediaMissing++
		}
	}
	if err := tw.Close(); err != nil {
		return rep, err
	}
	return rep, gz.Close()
}

// dumpFiles writes each table of a dump to a file of its own (a tar entry
// needs its size before its bytes), and notes the media objects recorded.
type dumpFiles struct {
	dir    string
	paths  []string
	counts []TableCount
	f      *os.File
	buf    *bufio.Writer
	enc    *json.Encoder
	media  [][2]string // key, content type
	keyCol int         // media_objects: the columns of the key and type, or -1
	ctCol  int
}

func (d *dumpFiles) Table(t store.DumpTable) error {
	if err := d.closeFile(); err != nil {
		return err
	}
	p := filepath.Join(d.dir, fmt.Sprintf("%03d.jsonl", len(d.paths)))
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	d.f, d.buf = f, bufio.NewWriterSize(f, 64<<10)
	d.enc = json.NewEncoder(d.buf)
	d.paths = append(d.paths, p)
	d.counts = append(d.counts, TableCount{Name: t.Name})
	d.keyCol, d.ctCol = -1, -1
	if t.Name == "media_objects" {
		d.keyCol, d.ctCol = slices.Index(t.Columns, "object_key"), slices.Index(t.Columns, "content_type")
	}
	return d.enc.Encode(t.Columns)
}

func (d *dumpFiles) Row(values []any) error {
	d.counts[len(d.counts)-1].Rows++
	if d.keyCol >= 0 && d.ctCol >= 0 {
		key, _ := values[d.keyCol].(string)
		ct, _ := values[d.ctCol].(string)
		d.media = append(d.media, [2]string{key, ct})
	}
	return d.enc.Encode(values)
}

func (d *dumpFiles) closeFile() error {
	if d.f == nil {
		return nil
	}
	err := d.buf.Flush()
	if cerr := d.f.Close(); err == nil {
		err = cerr
	}
	d.f = nil
	return err
}

// addObject copies one media object into the archive; false when it is gone.
func addObject(ctx context.Context, tw *tar.Writer, st media.Store, key, contentType string) (bool, error) {
	rc, obj, err := st.Open(ctx, key)
	if errors.Is(err, media.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer rc.Close()
	if obj.ContentType != "" {
		contentType = obj.ContentType
	}
	hdr := &tar.Header{Name: MediaDir + "/" + key, Mode: 0o600, Size: obj.Size, ModTime: obj.ModTime, Typeflag: tar.TypeReg,
		Format: tar.FormatPAX, PAXRecords: map[string]string{contentTypeRecord: contentType}}
	if err := tw.WriteHeader(hdr); err != nil {
		return false, err
	}
	_, err = io.CopyN(tw, rc, obj.Size)
	return true, err
}

func addBytes(tw *tar.Writer, name string, b []byte, mode int64) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(b)), ModTime: time.Now(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	_, err := tw.Write(b)
	return err
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

// Target is where Restore puts an archive.
type Target struct {
	DataDir  string // the data folder: the secret, and the media when they are on disk
	Postgres bool   // the database is PostgreSQL (DATABASE_URL), not DataDir/salaula.db
	// OpenDB opens the target database, refusing one that already holds
	// tables, and migrates it. A restore that fails drops every table of
	// the PostgreSQL database it gave.
	OpenDB func(ctx context.Context) (*store.DB, error)
	// OpenMedia opens the configured media store (disk under DataDir, or S3).
	OpenMedia func() (media.Store, error)
}

// OpenEmpty is the Target.OpenDB of `salaula admin restore`: the database
// of dbURL (PostgreSQL) or of dataDir (SQLite, dbURL ""), refused when it
// already holds tables, migrated.
func OpenEmpty(ctx context.Context, dbURL, dataDir string) (*store.DB, error) {
	db, err := store.Open(ctx, dbURL, dataDir)
	if err != nil {
		return nil, err
	}
	if has, err := db.HasTables(ctx); err != nil || has {
		db.Close()
		if err == nil {
			err = errors.New("admin restore: the database of DATABASE_URL already holds tables: restore into a new, empty database (createdb NAME)")
		}
		return nil, err
	}
	if _, err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// RestoreReport says what Restore put where.
type RestoreReport struct {
	Format int          // the archive's format (1: an archive of an earlier version)
	Tables []TableCount // every table loaded, with its row count checked against the manifest
	// Cleaned are the tables with rows whose text held NUL bytes (written
	// on SQLite before requests were checked), and how many: they were
	// loaded without them, as PostgreSQL cannot hold them.
	Cleaned    []TableCount
	MediaFiles int
}

// Restore puts an archive into t: for SQLite a new, empty data folder; for
// PostgreSQL an empty database (DataDir receives the secret and is marked
// as moved). Tables are loaded in one transaction and every row count is
// checked against the manifest before it commits; a row that cannot be
// loaded is named (table, row, the line of its file, id). A restore that
// fails leaves the target as it found it, so it can be tried again: the
// SQLite folder empty (or absent), the PostgreSQL database without tables,
// no secret, mark or media object it wrote. Run as root, the files
// written are given to the owner of the data folder (or of its parent
// when Restore creates it), so the service user can read them.
func Restore(ctx context.Context, r io.Reader, t Target) (rep RestoreReport, err error) {
	entries, err := os.ReadDir(t.DataDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rep, err
	}
	if !t.Postgres && len(entries) > 0 {
		return rep, fmt.Errorf("restore: %s is not empty; restore into a new, empty folder", t.DataDir)
	}
	owner := ownerOf(t.DataDir)
	var u undo
	u.dir, u.dirIsNew, u.wholeDir = t.DataDir, errors.Is(err, fs.ErrNotExist), !t.Postgres
	defer func() {
		if err != nil {
			err = u.run(err)
		} else if u.db != nil {
			u.db.Close()
		}
	}()
	if err := os.MkdirAll(t.DataDir, 0o750); err != nil {
		return rep, err
	}
	defer chownTree(t.DataDir, owner)
	gz, err := gzip.NewReader(r)
	if err != nil {
		return rep, fmt.Errorf("restore: not a Salaula backup (gzip): %w", err)
	}
	tr := tar.NewReader(gz)
	hdr, err := tr.Next()
	if err != nil {
		return rep, fmt.Errorf("restore: damaged archive: %w", err)
	}
	if hdr.Name != ManifestFile {
		if t.Postgres {
			return rep, errors.New("restore: this archive was written by an earlier version (it holds salaula.db): " +
				"restore it into a new SQLite folder, start the server on it once, take a new backup with `salaula admin backup`, and restore that one")
		}
		rep.Format = 1
		return rep, restoreV1(tr, hdr, t.DataDir)
	}
	var man Manifest
	if err := json.NewDecoder(io.LimitReader(tr, 1<<20)).Decode(&man); err != nil {
		return rep, fmt.Errorf("restore: damaged manifest: %w", err)
	}
	if man.Format != Format {
		return rep, fmt.Errorf("restore: archive format %d; this version reads format %d", man.Format, Format)
	}
	rep.Format = man.Format
	want := map[string]int64{}
	for _, c := range man.Tables {
		want[c.Name] = c.Rows
	}
	src := &tarDump{tr: tr}
	// The secret comes before the tables: a different one already in the
	// folder is refused before anything is written.
	if err := src.advance(); err != nil {
		return rep, err
	}
	if src.hdr != nil && src.hdr.Name == SecretFile {
		secret := filepath.Join(t.DataDir, SecretFile)
		written, err := restoreSecret(tr, secret)
		if written {
			u.files = append(u.files, secret)
		}
		if err != nil {
			return rep, err
		}
		if err := src.advance(); err != nil {
			return rep, err
		}
	}
	db, err := t.OpenDB(ctx)
	if err != nil {
		return rep, err
	}
	u.db = db // closed when Restore returns
	loaded, err := db.Load(ctx, src, want)
	if re := (*store.RowError)(nil); errors.As(err, &re) {
		return rep, fmt.Errorf("restore: %w (line %d of %s/%s.jsonl in the archive)", err, re.Row+1, TablesDir, re.Table)
	}
	if err != nil {
		return rep, fmt.Errorf("restore: %w", err)
	}
	for _, c := range man.Tables {
		rep.Tables = append(rep.Tables, TableCount{Name: c.Name, Rows: loaded.Rows[c.Name]})
		if n := loaded.Cleaned[c.Name]; n > 0 {
			rep.Cleaned = append(rep.Cleaned, TableCount{Name: c.Name, Rows: n})
		}
	}
	if t.Postgres {
		note := fmt.Sprintf("The database of this folder moved to PostgreSQL on %s (salaula admin restore).\n"+
			"Commands run without DATABASE_URL refuse this folder; set DATABASE_URL (see docs/deploy.md).\n", time.Now().UTC().Format(time.RFC3339))
		moved := filepath.Join(t.DataDir, MovedFile)
		u.files = append(u.files, moved)
		if err := os.WriteFile(moved, []byte(note), 0o640); err != nil {
			return rep, err
		}
	}
	var st media.Store
	for hdr := src.hdr; hdr != nil; {
		name := hdr.Name
		key, ok := strings.CutPrefix(name, MediaDir+"/")
		if hdr.Typeflag != tar.TypeReg || !ok || !filepath.IsLocal(filepath.FromSlash(key)) {
			return rep, fmt.Errorf("restore: unexpected entry %q in the archive", name)
		}
		if st == nil {
			if st, err = t.OpenMedia(); err != nil {
				return rep, err
			}
			u.media = st
		}
		u.keys = append(u.keys, key)
		if _, err := st.Put(ctx, key, tr, hdr.PAXRecords[contentTypeRecord]); err != nil {
			return rep, fmt.Errorf("restore media %s: %w", key, err)
		}
		rep.MediaFiles++
		if hdr, err = tr.Next(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return rep, fmt.Errorf("restore: damaged archive: %w", err)
		}
	}
	return rep, nil
}

// undo is what a restore wrote, taken back when it fails (Restore).
type undo struct {
	dir      string
	dirIsNew bool        // Restore made dir
	wholeDir bool        // dir was empty: everything in it is the restore's (SQLite)
	files    []string    // files written in dir (PostgreSQL: the secret, the mark)
	db       *store.DB   // the database migrated
	media    media.Store // where keys were put
	keys     []string
}

// run takes back what the restore wrote and returns its error, saying so,
// or what could not be taken back.
func (u *undo) run(cause error) error {
	ctx := context.Background() // the restore's may be what was cancelled
	var errs []error
	for _, k := range u.keys {
		if err := u.media.Delete(ctx, k); err != nil && !errors.Is(err, media.ErrNotFound) {
			errs = append(errs, fmt.Errorf("remove media %s: %w", k, err))
		}
	}
	if u.db != nil && u.db.Dialect() == store.Postgres {
		if err := u.db.DropTables(ctx); err != nil {
			errs = append(errs, fmt.Errorf("drop the tables made: %w", err))
		}
	}
	if u.db != nil {
		u.db.Close() // SQLite: its files can go
	}
	for _, f := range u.files {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if u.wholeDir {
		entries, _ := os.ReadDir(u.dir)
		for _, e := range entries {
			if err := os.RemoveAll(filepath.Join(u.dir, e.Name())); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if u.dirIsNew {
		if err := os.Remove(u.dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w; and taking back what it wrote failed: %w", cause, errors.Join(errs...))
	}
	return fmt.Errorf("%w (nothing was restored: the target is as it was)", cause)
}

// restoreSecret writes the archive's secret to path, or checks that the
// one there is the same; written says it wrote the file.
func restoreSecret(r io.Reader, path string) (written bool, err error) {
	b, err := io.ReadAll(io.LimitReader(r, 4096))
	if err != nil {
		return false, fmt.Errorf("restore: damaged archive: %w", err)
	}
	if old, err := os.ReadFile(path); err == nil {
		if strings.TrimSpace(string(old)) != strings.TrimSpace(string(b)) {
			return false, fmt.Errorf("restore: %s differs from the archive's secret (the signing keys in the archive open only with its own): move it away first", path)
		}
		return false, nil
	}
	return true, writeNew(path, bytes.NewReader(b), 0o600)
}

func writeNew(path string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// tarDump reads the database/ entries of an archive as a store.DumpReader.
type tarDump struct {
	tr  *tar.Reader
	hdr *tar.Header // the entry read next (nil at the end)
	dec *json.Decoder
}

func (d *tarDump) advance() error {
	h, err := d.tr.Next()
	if errors.Is(err, io.EOF) {
		d.hdr = nil
		return nil
	}
	if err != nil {
		return fmt.Errorf("restore: damaged archive: %w", err)
	}
	d.hdr = h
	return nil
}

func (d *tarDump) NextTable() (string, []string, error) {
	if d.dec != nil { // the previous table's entry is read to its end
		if err := d.advance(); err != nil {
			return "", nil, err
		}
	}
	if d.hdr == nil || !strings.HasPrefix(d.hdr.Name, TablesDir+"/") {
		return "", nil, io.EOF
	}
	name := strings.TrimSuffix(strings.TrimPrefix(d.hdr.Name, TablesDir+"/"), ".jsonl")
	d.dec = json.NewDecoder(d.tr)
	d.dec.UseNumber()
	var cols []string
	if err := d.dec.Decode(&cols); err != nil || len(cols) == 0 {
		return "", nil, fmt.Errorf("restore: damaged table %s: %v", name, err)
	}
	return name, cols, nil
}

func (d *tarDump) NextRow() ([]any, error) {
	var row []any
	if err := d.dec.Decode(&row); errors.Is(err, io.EOF) {
		return nil, io.EOF
	} else if err != nil {
		return nil, fmt.Errorf("restore: damaged row: %w", err)
	}
	return row, nil
}

// restoreV1 unpacks an archive of an earlier version (the SQLite file and
// the media folder as they lay on disk) into dataDir; first is its first entry.
func restoreV1(tr *tar.Reader, first *tar.Header, dataDir string) error {
	for hdr := first; ; {
		name := filepath.FromSlash(hdr.Name)
		if hdr.Typeflag != tar.TypeReg || !filepath.IsLocal(name) ||
			(name != DBFile && name != SecretFile && !strings.HasPrefix(name, MediaDir+string(filepath.Separator))) {
			return fmt.Errorf("restore: unexpected entry %q in the archive", hdr.Name)
		}
		mode := os.FileMode(0o640)
		if name == SecretFile || name == DBFile {
			mode = 0o600
		}
		if err := writeNew(filepath.Join(dataDir, name), tr, mode); err != nil {
			return fmt.Errorf("restore %s: %w", hdr.Name, err)
		}
		var err error
		if hdr, err = tr.Next(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("restore: damaged archive: %w", err)
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
