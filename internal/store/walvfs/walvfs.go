// Package walvfs registers a SQLite VFS ("salaula-wal") that wraps the
// default one and gathers the writes SQLite makes to a write-ahead log
// into one system call.
//
// SQLite appends a commit to the WAL as two writes per page (a 24-byte
// frame header, then the page), so a commit that changes 30 pages makes 60
// small pwrite calls, each of which costs the kernel a trip through the
// file system (about 3.5 µs each on the VMs we run on, far more than the
// copy itself). This VFS keeps contiguous writes to a WAL file in a buffer
// and writes the buffer with one pwrite before anything that needs them on
// the file: the sync of a commit, a read, the file's size, a truncation,
// closing the file, and the shared-memory barrier through which SQLite
// publishes a commit to other connections (so a connection without syncs
// publishes nothing that is not in the file yet). What reaches the disk,
// and in which order relative to the sync, is unchanged: a commit is
// durable exactly when it was before.
//
// Its sync is fdatasync where the wrapped VFS calls fsync (this build of
// SQLite lacks HAVE_FDATASYNC): both flush the data and the size, which is
// what a commit needs to survive a power cut; fsync also writes the file's
// modification time, a second synchronous write per commit on file
// systems without a journal.
//
// Every other file (the database, journals, temporary files) and every
// other method go straight to the wrapped VFS.
package walvfs

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Name is the VFS name to open a database with (the vfs URI parameter).
const Name = "salaula-wal"

// maxBuffer is the most bytes a WAL file keeps before writing them out
// (about 250 frames of 4 KiB pages); a larger commit writes in pieces.
const maxBuffer = 1 << 20

// maxWrite is the most bytes handed to the wrapped VFS in one write: its
// unixWrite masks a length to 17 bits (nBuf &= 0x1ffff), so a longer
// write would be cut short. A full buffer goes out in a few such writes.
const maxWrite = 0x1f000

// header is the room our part of each sqlite3_file takes before the
// wrapped VFS's file: the methods pointer SQLite reads, and padding.
const header = 16

var (
	registerOnce sync.Once
	registerErr  error

	// The VFS and the file methods SQLite calls; they live for the whole
	// process, so SQLite may keep pointers to them.
	vfs     sqlite3.Tsqlite3_vfs
	methods sqlite3.Tsqlite3_io_methods
	vfsName [len(Name) + 1]byte
	root    uintptr // the wrapped VFS (sqlite3_vfs*)

	// walFiles maps an open WAL file (its sqlite3_file*) to its buffer.
	walFiles sync.Map // uintptr -> *walFile
	// pending counts WAL files with buffered bytes, so a barrier with
	// none to write costs one atomic load.
	pending atomic.Int64

	writes, fileWrites, syncs atomic.Int64

	// failWrites makes the writes of buffers fail (tests of a full or
	// failing disk).
	failWrites atomic.Bool
	// failSyncs makes the VFS's own fdatasync fail (tests of a failing disk).
	failSyncs atomic.Bool
)

// walFile is the buffer of one open WAL file: buf holds the bytes of the
// file from off on that SQLite has written but that are not in the file.
type walFile struct {
	mu  sync.Mutex
	off int64
	buf []byte
	// err is a failed write of the buffer that no caller could be told of
	// (the barrier returns nothing); the next call that can fail reports it.
	err bool
}

// Register registers the VFS (once per process) on top of SQLite's default
// VFS. Open databases with "?vfs=" + Name (or "&vfs=...") afterwards.
func Register() error {
	registerOnce.Do(func() {
		tls := libc.NewTLS()
		defer tls.Close()
		root = sqlite3.Xsqlite3_vfs_find(tls, 0)
		if root == 0 {
			registerErr = errNoDefault
			return
		}
		r := (*sqlite3.Tsqlite3_vfs)(ptr(root))
		vfs = *r
		copy(vfsName[:], Name)
		vfs.FzName = uintptr(unsafe.Pointer(&vfsName[0]))
		vfs.FszOsFile = header + r.FszOsFile
		vfs.FpNext = 0
		vfs.FpAppData = 0
		*(*func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32)(unsafe.Pointer(&vfs.FxOpen)) = xOpen
		setMethods()
		if rc := sqlite3.Xsqlite3_vfs_register(tls, uintptr(unsafe.Pointer(&vfs)), 0); rc != sqlite3.SQLITE_OK {
			registerErr = errRegister
		}
	})
	return registerErr
}

type vfsError string

func (e vfsError) Error() string { return string(e) }

const (
	errNoDefault = vfsError("walvfs: SQLite has no default VFS")
	errRegister  = vfsError("walvfs: sqlite3_vfs_register failed")
)

// FailFlushes makes every flush of a file through this VFS fail (fail =
// true) or work again (false): for tests of what a failing disk does to a
// commit.
func FailFlushes(fail bool) { failSyncs.Store(fail) }

// Stats reports how many writes SQLite made to WAL files through this VFS
// and how many writes reached the file system for them.
func Stats() (walWrites, filesWrites int64) { return writes.Load(), fileWrites.Load() }

// ptr turns an address SQLite handed over into a pointer (written so that
// go vet sees a pointer conversion, not a uintptr one).
func ptr(u uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&u)) }

// inner is the wrapped VFS's file inside ours.
func inner(p uintptr) uintptr { return p + header }

// innerMethods are the wrapped file's methods.
func innerMethods(p uintptr) *sqlite3.Tsqlite3_io_methods {
	return (*sqlite3.Tsqlite3_io_methods)(ptr((*sqlite3.Tsqlite3_file)(ptr(inner(p))).FpMethods))
}

func xOpen(tls *libc.TLS, pVfs, zName, pFile uintptr, flags int32, pOutFlags uintptr) int32 {
	f := (*sqlite3.Tsqlite3_file)(ptr(pFile))
	f.FpMethods = 0
	open := *(*func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32)(unsafe.Pointer(&(*sqlite3.Tsqlite3_vfs)(ptr(root)).FxOpen))
	rc := open(tls, root, zName, inner(pFile), flags, pOutFlags)
	if (*sqlite3.Tsqlite3_file)(ptr(inner(pFile))).FpMethods == 0 {
		return rc
	}
	// The wrapped file is open (even if rc is an error, SQLite will close
	// it through our methods).
	if flags&sqlite3.SQLITE_OPEN_WAL != 0 {
		walFiles.Store(pFile, &walFile{})
	}
	f.FpMethods = uintptr(unsafe.Pointer(&methods))
	return rc
}

// wal is the buffer of file p, or nil when p is not a WAL file.
func wal(p uintptr) *walFile {
	if v, ok := walFiles.Load(p); ok {
		return v.(*walFile)
	}
	return nil
}

// flush writes w's buffer to file p; the caller holds w.mu. On failure
// the buffer is dropped (SQLite treats the commit as failed and writes
// those frames again) and SQLITE_IOERR_WRITE returned.
func (w *walFile) flush(tls *libc.TLS, p uintptr) int32 {
	if w.err {
		w.err = false
		return sqlite3.SQLITE_IOERR_WRITE
	}
	if len(w.buf) == 0 {
		return sqlite3.SQLITE_OK
	}
	rc := writeInner(tls, p, uintptr(unsafe.Pointer(&w.buf[0])), int32(len(w.buf)), w.off)
	w.buf = w.buf[:0]
	pending.Add(-1)
	if rc != sqlite3.SQLITE_OK {
		return sqlite3.SQLITE_IOERR_WRITE
	}
	return sqlite3.SQLITE_OK
}

// writeInner writes iAmt bytes at zBuf to the wrapped file at iOfst, in
// pieces of at most maxWrite.
func writeInner(tls *libc.TLS, p, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	write := *(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&innerMethods(p).FxWrite))
	for done := int32(0); done < iAmt; {
		n := min(iAmt-done, maxWrite)
		fileWrites.Add(1)
		if failWrites.Load() {
			return sqlite3.SQLITE_IOERR_WRITE
		}
		if rc := write(tls, inner(p), zBuf+uintptr(done), n, iOfst+int64(done)); rc != sqlite3.SQLITE_OK {
			return rc
		}
		done += n
	}
	return sqlite3.SQLITE_OK
}

// flushFirst writes file p's buffer, if it has one, before another method
// runs; it returns what flush returned.
func flushFirst(tls *libc.TLS, p uintptr) int32 {
	w := wal(p)
	if w == nil {
		return sqlite3.SQLITE_OK
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flush(tls, p)
}

// flushAll writes every WAL file's buffer: the shared-memory barrier,
// after which other connections may read what SQLite has written.
func flushAll(tls *libc.TLS) {
	if pending.Load() == 0 {
		return
	}
	walFiles.Range(func(k, v any) bool {
		w := v.(*walFile)
		w.mu.Lock()
		if len(w.buf) > 0 && w.flush(tls, k.(uintptr)) != sqlite3.SQLITE_OK {
			w.err = true
		}
		w.mu.Unlock()
		return true
	})
}

func xWrite(tls *libc.TLS, p, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	w := wal(p)
	if w == nil {
		write := *(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&innerMethods(p).FxWrite))
		return write(tls, inner(p), zBuf, iAmt, iOfst)
	}
	writes.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err {
		w.err = false
		return sqlite3.SQLITE_IOERR_WRITE
	}
	n := len(w.buf)
	if n > 0 && (iOfst != w.off+int64(n) || n+int(iAmt) > maxBuffer) {
		// Not the next bytes (SQLite rewrites a frame in place), or the
		// buffer is full: what is buffered goes first, in order.
		if rc := w.flush(tls, p); rc != sqlite3.SQLITE_OK {
			return rc
		}
		n = 0
	}
	if int(iAmt) > maxBuffer {
		return writeInner(tls, p, zBuf, iAmt, iOfst)
	}
	if n == 0 {
		w.off = iOfst
		pending.Add(1)
	}
	w.buf = append(w.buf, unsafe.Slice((*byte)(ptr(zBuf)), iAmt)...)
	return sqlite3.SQLITE_OK
}

func xClose(tls *libc.TLS, p uintptr) int32 {
	rc := flushFirst(tls, p)
	walFiles.Delete(p)
	closeFile := *(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&innerMethods(p).FxClose))
	if rc2 := closeFile(tls, inner(p)); rc == sqlite3.SQLITE_OK {
		rc = rc2
	}
	return rc
}

func xRead(tls *libc.TLS, p, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	if rc := flushFirst(tls, p); rc != sqlite3.SQLITE_OK {
		return rc
	}
	read := *(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&innerMethods(p).FxRead))
	return read(tls, inner(p), zBuf, iAmt, iOfst)
}

func xTruncate(tls *libc.TLS, p uintptr, size int64) int32 {
	if rc := flushFirst(tls, p); rc != sqlite3.SQLITE_OK {
		return rc
	}
	truncate := *(*func(*libc.TLS, uintptr, int64) int32)(unsafe.Pointer(&innerMethods(p).FxTruncate))
	return truncate(tls, inner(p), size)
}

func xSync(tls *libc.TLS, p uintptr, flags int32) int32 {
	if rc := flushFirst(tls, p); rc != sqlite3.SQLITE_OK {
		return rc
	}
	// The wrapped unix VFS flushes with fsync (this build of SQLite has no
	// HAVE_FDATASYNC), which also writes the file's inode when only its
	// modification time changed: on file systems without a journal a
	// second synchronous write per commit. fdatasync flushes the data and
	// every piece of metadata needed to read it back (the size), which is
	// all SQLite asks of a sync. The first sync of a new file, which must
	// also flush its directory, is left to the wrapped VFS.
	f := (*sqlite3.TunixFile)(ptr(inner(p)))
	if f.FctrlFlags&sqlite3.UNIXFILE_DIRSYNC == 0 && f.Fh >= 0 {
		syncs.Add(1)
		if failSyncs.Load() || fdatasync(int(f.Fh)) != nil {
			return sqlite3.SQLITE_IOERR_FSYNC
		}
		return sqlite3.SQLITE_OK
	}
	sync := *(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&innerMethods(p).FxSync))
	return sync(tls, inner(p), flags)
}

func xFileSize(tls *libc.TLS, p, pSize uintptr) int32 {
	if rc := flushFirst(tls, p); rc != sqlite3.SQLITE_OK {
		return rc
	}
	size := *(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&innerMethods(p).FxFileSize))
	return size(tls, inner(p), pSize)
}

func xLock(tls *libc.TLS, p uintptr, level int32) int32 {
	lock := *(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&innerMethods(p).FxLock))
	return lock(tls, inner(p), level)
}

func xUnlock(tls *libc.TLS, p uintptr, level int32) int32 {
	unlock := *(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&innerMethods(p).FxUnlock))
	return unlock(tls, inner(p), level)
}

func xCheckReservedLock(tls *libc.TLS, p, pResOut uintptr) int32 {
	check := *(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&innerMethods(p).FxCheckReservedLock))
	return check(tls, inner(p), pResOut)
}

func xFileControl(tls *libc.TLS, p uintptr, op int32, pArg uintptr) int32 {
	if rc := flushFirst(tls, p); rc != sqlite3.SQLITE_OK {
		return rc
	}
	control := *(*func(*libc.TLS, uintptr, int32, uintptr) int32)(unsafe.Pointer(&innerMethods(p).FxFileControl))
	return control(tls, inner(p), op, pArg)
}

func xSectorSize(tls *libc.TLS, p uintptr) int32 {
	size := *(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&innerMethods(p).FxSectorSize))
	return size(tls, inner(p))
}

func xDeviceCharacteristics(tls *libc.TLS, p uintptr) int32 {
	chars := *(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&innerMethods(p).FxDeviceCharacteristics))
	return chars(tls, inner(p))
}

func xShmMap(tls *libc.TLS, p uintptr, iPg, pgsz, bExtend int32, pp uintptr) int32 {
	shmMap := *(*func(*libc.TLS, uintptr, int32, int32, int32, uintptr) int32)(unsafe.Pointer(&innerMethods(p).FxShmMap))
	return shmMap(tls, inner(p), iPg, pgsz, bExtend, pp)
}

func xShmLock(tls *libc.TLS, p uintptr, offset, n, flags int32) int32 {
	shmLock := *(*func(*libc.TLS, uintptr, int32, int32, int32) int32)(unsafe.Pointer(&innerMethods(p).FxShmLock))
	return shmLock(tls, inner(p), offset, n, flags)
}

func xShmBarrier(tls *libc.TLS, p uintptr) {
	flushAll(tls)
	barrier := *(*func(*libc.TLS, uintptr))(unsafe.Pointer(&innerMethods(p).FxShmBarrier))
	barrier(tls, inner(p))
}

func xShmUnmap(tls *libc.TLS, p uintptr, deleteFlag int32) int32 {
	unmap := *(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&innerMethods(p).FxShmUnmap))
	return unmap(tls, inner(p), deleteFlag)
}

func xFetch(tls *libc.TLS, p uintptr, iOfst int64, iAmt int32, pp uintptr) int32 {
	fetch := *(*func(*libc.TLS, uintptr, int64, int32, uintptr) int32)(unsafe.Pointer(&innerMethods(p).FxFetch))
	return fetch(tls, inner(p), iOfst, iAmt, pp)
}

func xUnfetch(tls *libc.TLS, p uintptr, iOfst int64, pPage uintptr) int32 {
	unfetch := *(*func(*libc.TLS, uintptr, int64, uintptr) int32)(unsafe.Pointer(&innerMethods(p).FxUnfetch))
	return unfetch(tls, inner(p), iOfst, pPage)
}

// setMethods fills the file methods; every file of the default VFS on
// Linux has all of them (iVersion 3).
func setMethods() {
	m := &methods
	m.FiVersion = 3
	*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxClose)) = xClose
	*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxRead)) = xRead
	*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxWrite)) = xWrite
	*(*func(*libc.TLS, uintptr, int64) int32)(unsafe.Pointer(&m.FxTruncate)) = xTruncate
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxSync)) = xSync
	*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&m.FxFileSize)) = xFileSize
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxLock)) = xLock
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxUnlock)) = xUnlock
	*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&m.FxCheckReservedLock)) = xCheckReservedLock
	*(*func(*libc.TLS, uintptr, int32, uintptr) int32)(unsafe.Pointer(&m.FxFileControl)) = xFileControl
	*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxSectorSize)) = xSectorSize
	*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxDeviceCharacteristics)) = xDeviceCharacteristics
	*(*func(*libc.TLS, uintptr, int32, int32, int32, uintptr) int32)(unsafe.Pointer(&m.FxShmMap)) = xShmMap
	*(*func(*libc.TLS, uintptr, int32, int32, int32) int32)(unsafe.Pointer(&m.FxShmLock)) = xShmLock
	*(*func(*libc.TLS, uintptr))(unsafe.Pointer(&m.FxShmBarrier)) = xShmBarrier
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxShmUnmap)) = xShmUnmap
	*(*func(*libc.TLS, uintptr, int64, int32, uintptr) int32)(unsafe.Pointer(&m.FxFetch)) = xFetch
	*(*func(*libc.TLS, uintptr, int64, uintptr) int32)(unsafe.Pointer(&m.FxUnfetch)) = xUnfetch
}
