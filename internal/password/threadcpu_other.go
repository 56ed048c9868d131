//go:build !linux

package password

import "time"

// threadCPU is 0 where a thread's CPU time cannot be read.
func threadCPU() time.Duration { return 0 }
