// Package finowner: finalizers and who else releases their handle.
package finowner

/*
typedef struct { int n; } session;
static void session_close(session* s) {}
static int session_run(session* s) { return 0; }
*/
import "C"

import "runtime"

// A method expression as the finalizer: the method is the finalizer's
// function, and releasing there is its job.
type Session struct{ s *C.session }

func (s *Session) close() { C.session_close(s.s) }

func OpenSession(h *C.session) *Session {
	s := &Session{s: h}
	runtime.SetFinalizer(s, (*Session).close)
	return s
}

// The same release in an exported method, with the finalizer armed.
type Conn struct{ s *C.session }

func (c *Conn) release() { C.session_close(c.s) }

func OpenConn(h *C.session) *Conn {
	c := &Conn{s: h}
	runtime.SetFinalizer(c, (*Conn).release)
	return c
}

func (c *Conn) Close() {
	C.session_close(c.s) // want `c.s is released here and again by the finalizer set at line 32 \(\(\*Conn\).release\)`
}
