package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logFlushEvery is how long a log line may wait in memory before it is
// written out.
const logFlushEvery = 100 * time.Millisecond

// logBuffer collects the server's log lines in memory and writes them out
// in one write at most every logFlushEvery (and at Close), instead of one
// write system call per line. A crash loses at most that much log; it
// never loses data, which is committed before any answer.
type logBuffer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newLogBuffer(w io.Writer) *logBuffer {
	b := &logBuffer{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(logFlushEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.flush()
			case <-b.stop:
				b.flush()
				return
			}
		}
	}()
	return b
}

// Write keeps p until the next flush (or writes through when the buffer is full).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *logBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.w.Flush()
}

// Close writes out what is buffered and stops the flusher.
func (b *logBuffer) Close() error {
	close(b.stop)
	<-b.done
	return nil
}
