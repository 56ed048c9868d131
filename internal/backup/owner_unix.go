//go:build unix

package backup

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// owner is a file's user and group.
type owner struct{ uid, gid int }

// ownerOf returns the owner of dir, or of its parent when dir does not
// exist yet; nil when not running as root (nothing to hand over).
func ownerOf(dir string) *owner {
	if os.Geteuid() != 0 {
		return nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		if st, err = os.Stat(filepath.Dir(filepath.Clean(dir))); err != nil {
			return nil
		}
	}
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	return &owner{int(s.Uid), int(s.Gid)}
}

// chownTree gives dir and everything under it to o (nothing when o is nil).
func chownTree(dir string, o *owner) {
	if o == nil {
		return
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			os.Lchown(p, o.uid, o.gid)
		}
		return nil
	})
}
