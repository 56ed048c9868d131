//go:build !linux

package walvfs

import "syscall"

// fdatasync flushes file descriptor fd to the disk; fsync where the system
// has no fdatasync.
func fdatasync(fd int) error {
	for {
		err := syscall.Fsync(fd)
		if err != syscall.EINTR {
			return err
		}
	}
}
