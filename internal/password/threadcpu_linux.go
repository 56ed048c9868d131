package password

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// threadCPU is the CPU time the calling thread has used, read with
// clock_gettime(CLOCK_THREAD_CPUTIME_ID), which brings the running thread's
// count up to date first (getrusage(RUSAGE_THREAD) can lag by up to a
// scheduler tick, which would undercount a hash that ran without a
// context switch). The call never blocks, so it is made raw: not through
// the scheduler's system-call bookkeeping, which would also wake Go's
// monitor thread when the process was idle.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
