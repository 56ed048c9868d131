//go:build unix

package backup

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"salaula/internal/media"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// A restore run as root gives every file it writes to the owner of the
// data folder's parent (the service user), so the service can read them;
// run as anyone else, the files are that user's.
func TestRestoreHandsFilesToTheDataFolderOwner(t *testing.T) {
	t.Parallel()
	src := storetest.Open(t, store.SQLite)
	dataDir := t.TempDir()
	os.WriteFile(filepath.Join(dataDir, SecretFile), []byte("0123456789abcdef0123456789abcdef\n"), 0o600)
	st, err := media.NewLocal(filepath.Join(dataDir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	var archive bytes.Buffer
	if _, err := Write(context.Background(), Options{DB: src, DataDir: dataDir, Media: st}, &archive); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	want := os.Getuid()
	if want == 0 {
		want = 65534 // nobody: the service user in this test
		if err := os.Chown(parent, want, want); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(parent, "restored")
	_, err = Restore(context.Background(), &archive, Target{DataDir: target,
		OpenDB: func(ctx context.Context) (*store.DB, error) {
			db, err := store.Open(ctx, "", target)
			if err == nil {
				_, err = db.Migrate(ctx)
			}
			return db, err
		},
		OpenMedia: func() (media.Store, error) { return media.NewLocal(filepath.Join(target, "media")) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".", SecretFile, "salaula.db"} {
		fi, err := os.Stat(filepath.Join(target, name))
		if err != nil {
			t.Fatal(err)
		}
		if uid := int(fi.Sys().(*syscall.Stat_t).Uid); uid != want {
			t.Errorf("%s is owned by %d after the restore, want %d", name, uid, want)
		}
	}
}
