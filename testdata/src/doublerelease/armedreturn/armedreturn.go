// Package armedreturn holds functions that arm a finalizer or cleanup and
// then, on an error path, release the handle it releases and return with
// it still armed: the handle is released again once the object is
// collected. Each has its corrected version beside it.
package armedreturn

/*
#include <stdlib.h>
typedef struct { int n; } session;
static session* session_new(void) { return calloc(1, sizeof(session)); }
static void session_free(session* s) { free(s); }
static int session_init(session* s, int opt) { return opt < 0; }

typedef struct { int n; } buf;
static buf* buf_alloc(void) { return calloc(1, sizeof(buf)); }
static void buf_release(buf* b) { free(b); }
*/
import "C"

import (
	"errors"
	"runtime"
)

type Session struct{ s *C.session }

func (x *Session) free() { C.session_free(x.s) }

// New frees the handle on its error path, leaving the finalizer armed.
func New(opt int) (*Session, error) {
	x := &Session{s: C.session_new()}
	runtime.SetFinalizer(x, (*Session).free)
	if C.session_init(x.s, C.int(opt)) != 0 {
		C.session_free(x.s) // want `x.s is released here and again by the finalizer set at line 32 \(\(\*Session\).free\) once the Session is collected: New returns at line 35 with it still armed; disarm it \(runtime.SetFinalizer\(x, nil\)\) before releasing x.s`
		return nil, errors.New("init")
	}
	return x, nil
}

// NewDisarmed disarms first.
func NewDisarmed(opt int) (*Session, error) {
	x := &Session{s: C.session_new()}
	runtime.SetFinalizer(x, (*Session).free)
	if C.session_init(x.s, C.int(opt)) != 0 {
		runtime.SetFinalizer(x, nil)
		C.session_free(x.s)
		return nil, errors.New("init")
	}
	return x, nil
}

// NewLate arms once nothing can fail.
func NewLate(opt int) (*Session, error) {
	x := &Session{s: C.session_new()}
	if C.session_init(x.s, C.int(opt)) != 0 {
		C.session_free(x.s)
		return nil, errors.New("init")
	}
	runtime.SetFinalizer(x, (*Session).free)
	return x, nil
}

// NewViaFree releases through the finalizer's own function.
func NewViaFree(opt int) (*Session, error) {
	x := &Session{s: C.session_new()}
	runtime.SetFinalizer(x, func(x *Session) { x.free() })
	if C.session_init(x.s, C.int(opt)) != 0 {
		x.free() // want `x.s is released here and again by the finalizer set at line 66 \(func literal\)`
		return nil, errors.New("init")
	}
	return x, nil
}

// Conn's Close clears the handle and disarms: its error path is fine.
type Conn struct{ s *C.session }

func (c *Conn) Close() {
	runtime.SetFinalizer(c, nil)
	if c.s != nil {
		C.session_free(c.s)
		c.s = nil
	}
}

func Dial(opt int) (*Conn, error) {
	c := &Conn{s: C.session_new()}
	runtime.SetFinalizer(c, (*Conn).Close)
	if C.session_init(c.s, C.int(opt)) != 0 {
		c.Close()
		return nil, errors.New("init")
	}
	return c, nil
}

// Cleared frees and clears the field the finalizer reads.
func Cleared(opt int) (*Session, error) {
	x := &Session{s: C.session_new()}
	runtime.SetFinalizer(x, func(x *Session) {
		if x.s != nil {
			C.session_free(x.s)
			x.s = nil
		}
	})
	if C.session_init(x.s, C.int(opt)) != 0 {
		C.session_free(x.s)
		x.s = nil
		return nil, errors.New("init")
	}
	return x, nil
}

// Tracked arms through a helper of the package.
func track[T any](p *T, f func(*T)) { runtime.SetFinalizer(p, f) }

func Tracked(opt int) (*Session, error) {
	x := &Session{s: C.session_new()}
	track(x, (*Session).free)
	if C.session_init(x.s, C.int(opt)) != 0 {
		C.session_free(x.s) // want `x.s is released here and again by the finalizer set at line 117`
		return nil, errors.New("init")
	}
	return x, nil
}

// Buffer's cleanup gets the handle itself: clearing the field changes
// nothing, only Stop does.
type Buffer struct {
	b  *C.buf
	cl runtime.Cleanup
}

func releaseBuf(b *C.buf) { C.buf_release(b) }

func NewBuffer(n int) (*Buffer, error) {
	x := &Buffer{b: C.buf_alloc()}
	runtime.AddCleanup(x, releaseBuf, x.b)
	if n < 0 {
		C.buf_release(x.b) // want `x.b is released here and again by the cleanup added at line 136 \(releaseBuf\) once the Buffer is collected: NewBuffer returns at line 140 with it still armed; Stop its runtime.Cleanup`
		x.b = nil
		return nil, errors.New("size")
	}
	return x, nil
}

func NewBufferStopped(n int) (*Buffer, error) {
	x := &Buffer{b: C.buf_alloc()}
	x.cl = runtime.AddCleanup(x, releaseBuf, x.b)
	if n < 0 {
		x.cl.Stop()
		C.buf_release(x.b)
		return nil, errors.New("size")
	}
	return x, nil
}
