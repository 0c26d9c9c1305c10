// Package lockedout holds the finalizer cases of a release made under a
// lock that the C call holds too: a finalizer that runs during the call
// waits for the lock, and releases only after the call returned.
package lockedout

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_open(void) { return calloc(1, sizeof(res)); }
static void res_close(res* r) { free(r); }
static int res_read(res* r) { return r->live; }
*/
import "C"

import (
	"runtime"
	"sync"
)

// libMu serialises every call into the library, which is not
// thread-safe.
var libMu sync.Mutex

type Global struct{ h *C.res }

func NewGlobal() *Global {
	g := &Global{h: C.res_open()}
	runtime.SetFinalizer(g, (*Global).Close)
	return g
}

func (g *Global) Close() {
	libMu.Lock()
	defer libMu.Unlock()
	if g.h != nil {
		C.res_close(g.h)
		g.h = nil
	}
}

func (g *Global) Read() int {
	libMu.Lock()
	defer libMu.Unlock()
	if g.h == nil {
		return 0
	}
	return int(C.res_read(g.h))
}

// ReadUnlocked reads without the lock: the finalizer can release during
// the call.
func (g *Global) ReadUnlocked() int {
	return int(C.res_read(g.h)) // want `g may be collected while C.res_read runs with g.h`
}

// ReadEarly releases the lock before its call.
func (g *Global) ReadEarly() int {
	libMu.Lock()
	h := g.h
	libMu.Unlock()
	return int(C.res_read(h)) // want `g may be collected while C.res_read runs with g.h`
}

// Own serialises on its own mutex.
type Own struct {
	mu sync.Mutex
	h  *C.res
}

func NewOwn() *Own {
	o := &Own{h: C.res_open()}
	runtime.SetFinalizer(o, func(o *Own) { o.Close() })
	return o
}

func (o *Own) Close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.h != nil {
		C.res_close(o.h)
		o.h = nil
	}
}

func (o *Own) Read() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return int(C.res_read(o.h))
}

// Shared reads under the read lock of the mutex its Close locks.
type Shared struct {
	mu sync.RWMutex
	h  *C.res
}

func NewShared() *Shared {
	s := &Shared{h: C.res_open()}
	runtime.SetFinalizer(s, (*Shared).Close)
	return s
}

func (s *Shared) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.h != nil {
		C.res_close(s.h)
		s.h = nil
	}
}

// Read holds the read lock: the finalizer's Lock waits for readers too.
func (s *Shared) Read() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int(C.res_read(s.h))
}

// Unrelated's finalizer releases without a lock; Read's deferred Unlock
// of u.mu uses u after the call, which keeps it alive.
type Unrelated struct {
	mu sync.Mutex
	h  *C.res
}

func NewUnrelated() *Unrelated {
	u := &Unrelated{h: C.res_open()}
	runtime.SetFinalizer(u, func(u *Unrelated) { C.res_close(u.h) })
	return u
}

func (u *Unrelated) Read() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return int(C.res_read(u.h))
}

// ReadLocked holds libMu, which the finalizer does not take.
func (u *Unrelated) ReadLocked() int {
	libMu.Lock()
	defer libMu.Unlock()
	return int(C.res_read(u.h)) // want `u may be collected while C.res_read runs with u.h`
}
