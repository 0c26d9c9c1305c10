// Package docs holds types whose doc comments say whether they are safe
// for concurrent use, in sentences about the type and about what it wraps.
package docs

/*
#include <stdlib.h>
static void db_exec(void *db) {}
*/
import "C"

import (
	"sync"
	"unsafe"
)

// Conn is safe for concurrent use. The underlying sqlite3 connection is
// not thread-safe, so every call into it holds mu.
type Conn struct {
	mu    sync.Mutex
	db    unsafe.Pointer
	execs int
}

func (c *Conn) Exec() {
	c.mu.Lock()
	C.db_exec(c.db)
	c.mu.Unlock()
	c.execs++ // want `Exec increments c.execs without atomics or a lock: Conn is documented as safe for concurrent use`
}

// Buffer is not safe for concurrent use. Share a Pool instead, which is
// safe for concurrent use.
type Buffer struct {
	db     unsafe.Pointer
	writes int
}

func (b *Buffer) Write() {
	C.db_exec(b.db)
	b.writes++
}

// Handle wraps a C handle. The handle is not thread-safe.
type Handle struct {
	db   unsafe.Pointer
	uses int
}

func (h *Handle) Use() {
	C.db_exec(h.db)
	h.uses++
}

// Session is safe for concurrent use by multiple goroutines, but Close
// must not be called concurrently with Run.
type Session struct {
	db   unsafe.Pointer
	runs int
}

func (s *Session) Run() {
	C.db_exec(s.db)
	s.runs++ // want `Run increments s.runs without atomics or a lock: Session is documented as safe for concurrent use`
}

// Stream is a connection. Multiple goroutines may invoke methods on a
// Stream simultaneously.
type Stream struct {
	db   unsafe.Pointer
	sent int
}

func (s *Stream) Send() {
	C.db_exec(s.db)
	s.sent++ // want `Send increments s.sent without atomics or a lock: Stream is documented as safe for concurrent use`
}

// Txn is a transaction. A Txn must only be used by the goroutine that
// created it. The Env is safe for concurrent use.
type Txn struct {
	db   unsafe.Pointer
	puts int
}

func (t *Txn) Put() {
	C.db_exec(t.db)
	t.puts++
}

// Frame is a decoded frame. The Codec it came from is safe for
// concurrent use.
type Frame struct {
	db   unsafe.Pointer
	uses int
}

func (f *Frame) Use() {
	C.db_exec(f.db)
	f.uses++
}
