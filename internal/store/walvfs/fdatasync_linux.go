package walvfs

import "syscall"

// fdatasync flushes the data of file descriptor fd to the disk, retrying
// when a signal interrupts it.
func fdatasync(fd int) error {
	for {
		err := syscall.Fdatasync(fd)
		if err != syscall.EINTR {
			return err
		}
	}
}
